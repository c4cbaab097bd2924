/**
 * Who holds a running job's lease, and whether that holder is gone: the one rule every host (app, web host, CLI)
 * applies before it takes a job back, and before it takes a thread from a reply's writer (chat/reply-writer.ts).
 *
 * `jobs.lease_owner` records `<pid>@<host>#<id>`: the process and machine of the runner that claimed the
 * job, and an id that tells two queues of one process apart. Any process can then judge a 'running' row without a
 * registry of live runners:
 * - it is this queue's own claim: 'mine', never taken back (even if the lease ran out while the process was busy);
 * - its lease expired (a live owner's heartbeat keeps renewing it): 'gone', whoever and wherever the owner was;
 * - it names a process on this machine that no longer exists (a killed `queue run`, a crashed app): 'gone' at once,
 *   and so is one that has exited but not yet been reaped (a zombie, on Linux: processIsAlive);
 * - otherwise 'live': nobody else touches the job, even while that owner is still busy with it.
 * A recycled pid makes a dead owner look alive, and an owner on another machine cannot be asked at all: for both the
 * lease expiry is the backstop. Taking back a job from an owner wrongly judged gone costs work, not data: the claim
 * moves the fencing token, so the old owner's late commit writes nothing.
 * Rows written before this format (or by hand) do not parse; they fall back to the lease expiry alone.
 */
import fs from 'node:fs';
import os from 'node:os';

export interface LeaseOwner {
  pid: number;
  host: string;
  id: string;
}

/** What a running row's lease means to the queue looking at it. */
export type LeaseHolder = 'mine' | 'live' | 'gone';

export interface Lease {
  owner: string | null;
  expiresAt: number | null;
}

export function newLeaseOwner(): LeaseOwner {
  return { pid: process.pid, host: os.hostname(), id: Math.random().toString(36).slice(2, 10) };
}

export function formatLeaseOwner(owner: LeaseOwner): string {
  return `${owner.pid}@${owner.host}#${owner.id}`;
}

/** The owner a lease names, or null for anything not written by formatLeaseOwner. */
export function parseLeaseOwner(text: string | null): LeaseOwner | null {
  // The id (after the last '#') and the pid have no '@' or '#'; the host takes whatever lies between.
  const m = text === null ? null : /^(\d+)@(.+)#([a-z0-9]+)$/.exec(text);
  if (!m) return null;
  const pid = Number(m[1]);
  return Number.isSafeInteger(pid) && pid > 0 ? { pid, host: m[2]!, id: m[3]! } : null;
}

export function judgeLease(lease: Lease, me: LeaseOwner, now: number, isAlive: (pid: number) => boolean = processIsAlive): LeaseHolder {
  if (lease.owner === formatLeaseOwner(me)) return 'mine';
  if (lease.expiresAt === null || lease.expiresAt <= now) return 'gone';
  const owner = parseLeaseOwner(lease.owner);
  if (owner && owner.host === me.host && !isAlive(owner.pid)) return 'gone';
  return 'live';
}

/**
 * Signal 0 checks existence without touching the process: ESRCH means none; EPERM means it exists under another user.
 * A process killed with kill -9 exists on for as long as nobody reaps it (a zombie: a parent that waits late, a
 * container without an init), and signal 0 still reaches it: on Linux its state in /proc says so, and a zombie is
 * gone. Elsewhere, or when /proc does not answer, signal 0 alone decides.
 */
export function processIsAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

/** 'Z' (zombie) or 'X' (dead) in /proc/<pid>/stat; false when it cannot be read (not Linux, no /proc, another pid namespace). */
function isZombie(pid: number): boolean {
  if (process.platform !== 'linux') return false;
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false;
  }
  const state = processStateOf(stat);
  return state === 'Z' || state === 'X';
}

/**
 * The state letter of a /proc/<pid>/stat line ("pid (comm) S ..."), read after the last ')': the command name may
 * itself hold spaces and parentheses. Null when the line has none.
 */
export function processStateOf(stat: string): string | null {
  const close = stat.lastIndexOf(')');
  return close < 0 ? null : (stat.slice(close + 1).trimStart()[0] ?? null);
}
