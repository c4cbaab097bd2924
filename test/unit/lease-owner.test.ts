import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatLeaseOwner, judgeLease, parseLeaseOwner, processIsAlive, processStateOf, type LeaseOwner } from '../../electron/core/jobs/lease-owner';
import { waitForState } from '../support/process-state';

const me: LeaseOwner = { pid: 100, host: 'laptop', id: 'abc123' };
const NOW = 1_000_000;
const alive = (pids: number[]) => (pid: number) => pids.includes(pid);
const lease = (owner: LeaseOwner | string | null, expiresAt: number | null) => ({
  owner: owner === null || typeof owner === 'string' ? owner : formatLeaseOwner(owner),
  expiresAt,
});

describe('lease owner', () => {
  it('round-trips, whatever the host name holds', () => {
    for (const host of ['laptop', 'my-pc.local', 'odd@name#1', 'ПК']) {
      const owner = { pid: 4242, host, id: 'k3j2a1' };
      expect(parseLeaseOwner(formatLeaseOwner(owner))).toEqual(owner);
    }
  });

  it('does not parse owners in other formats (they fall back to the lease expiry)', () => {
    for (const text of [null, '', 'worker-123-abcdef', 'dead-worker', '0@laptop#abc', '-1@laptop#abc', '12@#abc']) expect(parseLeaseOwner(text)).toBeNull();
  });

  it('judges: own claim, live owner, dead owner on this machine, expired lease, unknown owner', () => {
    const isAlive = alive([100, 200]);
    const future = NOW + 60_000;
    expect(judgeLease(lease(me, NOW - 1), me, NOW, isAlive)).toBe('mine'); // even expired: this queue still runs it
    expect(judgeLease(lease({ ...me, id: 'other1' }, future), me, NOW, isAlive)).toBe('live'); // another queue of this process
    expect(judgeLease(lease({ pid: 200, host: 'laptop', id: 'x' }, future), me, NOW, isAlive)).toBe('live');
    expect(judgeLease(lease({ pid: 300, host: 'laptop', id: 'x' }, future), me, NOW, isAlive)).toBe('gone'); // its process ended
    expect(judgeLease(lease({ pid: 300, host: 'desktop', id: 'x' }, future), me, NOW, isAlive)).toBe('live'); // cannot be asked
    expect(judgeLease(lease({ pid: 300, host: 'desktop', id: 'x' }, NOW), me, NOW, isAlive)).toBe('gone'); // lease ran out
    expect(judgeLease(lease({ pid: 200, host: 'laptop', id: 'x' }, NOW - 1), me, NOW, isAlive)).toBe('gone'); // alive, but silent a whole lease
    expect(judgeLease(lease('worker-300-abc', future), me, NOW, isAlive)).toBe('live');
    expect(judgeLease(lease('worker-300-abc', null), me, NOW, isAlive)).toBe('gone');
  });

  it('reads the process state after the command name, whatever the name holds', () => {
    expect(processStateOf('4242 (node) Z 1 4242 4242 0 -1')).toBe('Z');
    expect(processStateOf('4242 (node) S 1 4242')).toBe('S');
    expect(processStateOf('4242 (a) Z (b) R 1')).toBe('R'); // a name with ") Z (" in it
    expect(processStateOf('4242 (my Z) X 1')).toBe('X');
    expect(processStateOf('')).toBeNull();
    expect(processStateOf('4242 (node)')).toBeNull();
  });

  const proc = fs.existsSync('/proc/self/stat');
  it.skipIf(!proc)(`judges a zombie gone: killed with kill -9, never reaped${proc ? '' : ' (skipped: no /proc on this system)'}`, async () => {
    // sh starts a child in the background and becomes a sleep that never waits for it: once the child is killed it
    // stays a zombie, as under a parent that reaps late or in a container without an init.
    const parent = spawn('sh', ['-c', 'sleep 600 & echo $!; exec sleep 600'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const pid = Number(await new Promise<string>((resolve) => parent.stdout.once('data', (d: Buffer) => resolve(d.toString()))));
      expect(processIsAlive(pid)).toBe(true);
      process.kill(pid, 'SIGKILL');
      await waitForState(pid, 'Z');
      expect(() => process.kill(pid, 0)).not.toThrow(); // signal 0 alone still finds it
      expect(processIsAlive(pid)).toBe(false);
      expect(processIsAlive(parent.pid!)).toBe(true);
    } finally {
      parent.kill('SIGKILL');
    }
  });
});
