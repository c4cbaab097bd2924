/**
 * One reply per thread, across every process on the data folder (the app, the web host, the CLI): who is writing a
 * reply, and whether that writer is gone.
 *
 * A reply being written is a `messages` row with status 'streaming'; its `writer` names the process writing it, in
 * the lease owner's format (jobs/lease-owner.ts), and its `updated_at` is the heartbeat: partial saves renew it, and
 * so does keepAlive while the model is silent (loading, reading a long prompt, a memory search). Any process judges
 * such a row as it judges a job's lease, with updated_at + REPLY_LEASE_MS as the expiry:
 * - 'live': another writer is at work: a second reply in that thread is refused with CONFLICT, whatever asks for it
 *   (send, retry, edit, regenerate);
 * - 'gone': its process ended (killed, crashed, or exited and left unreaped as a zombie) or was silent a whole lease:
 *   a leftover, stopped with INTERRUPTED as the next start stops it, and the thread is free at once;
 * - 'mine': this process's own row. The check runs only when this process writes no reply in that thread (the chat
 *   service's in-process guard comes first), so it is a leftover too (a reply whose last write failed).
 * A writer that does not parse (a row written before writers were recorded) falls back to the expiry alone.
 *
 * The check and the insert of the new reply's row run in one write transaction (BEGIN IMMEDIATE), so two processes
 * can never both pass it. A writer wrongly judged gone (its event loop blocked a whole lease) costs a second version
 * of the answer beside the first, never a lost one: its own finish still writes its row.
 */
import type { Message } from '../../../shared/contract';
import { MnemoError } from '../../../shared/errors';
import { formatLeaseOwner, judgeLease, newLeaseOwner } from '../jobs/lease-owner';
import type { Clock } from '../ports/clock.port';
import type { Logger } from '../ports/logger.port';
import type { MessagesStore } from '../conversation/messages.store';

/** As a job's lease (job-queue.ts): long enough for a busy machine, short enough for a recycled pid or another host. */
export const REPLY_LEASE_MS = 2 * 60_000;
export const REPLY_HEARTBEAT_MS = REPLY_LEASE_MS / 6;

/** What the operation refused is to do next: 'send again', 'edit again', ... */
export function anotherWriterMessage(again: string): string {
  return `Another Mnemo window or command is writing a reply in this thread. Wait for it to finish or stop it there, then ${again}.`;
}

export interface ReplyWritersDeps {
  clock: Clock;
  logger: Logger;
  messages: MessagesStore;
}

export function createReplyWriters(deps: ReplyWritersDeps) {
  const { clock, logger, messages } = deps;
  // Its own id, not only the pid: two cores of one process (tests) are two writers, as two processes are.
  const me = newLeaseOwner();

  /** The replies left 'streaming' by writers that are gone (in one thread, or all), stopped; throws CONFLICT on a live one first. */
  function stopLeftovers(threadId: number | null, again: string | null): Message[] {
    return messages.transaction(() => {
      const now = clock.now();
      const judged = messages.repliesBeingWritten(threadId).map((row) => ({
        id: row.id,
        holder: judgeLease({ owner: row.writer, expiresAt: row.updatedAt + REPLY_LEASE_MS }, me, now),
      }));
      if (again !== null && judged.some((r) => r.holder === 'live')) throw new MnemoError('CONFLICT', anotherWriterMessage(again));
      return judged.filter((r) => r.holder !== 'live').map((r) => messages.markInterrupted(r.id, now));
    });
  }

  return {
    /** Written into the row of every reply this process writes. */
    owner: formatLeaseOwner(me),
    /**
     * Refuses with CONFLICT while another process writes a reply in the thread; stops what gone writers left there
     * and returns those replies (for message.completed once the caller's transaction has committed). `again` ends
     * the message: what the user does once the other reply is done ('send again').
     */
    claim: (threadId: number, again: string): Message[] => stopLeftovers(threadId, again),
    /** At start: every reply left 'streaming' by a writer that is gone keeps its text and is marked stopped. */
    recoverInterrupted(): number {
      const stopped = stopLeftovers(null, null).length;
      if (stopped > 0) logger.info('marked replies interrupted by a process that ended as stopped', { count: stopped });
      return stopped;
    },
    /** Renews the reply's heartbeat until the returned function is called. A failed beat is logged, never thrown. */
    keepAlive(messageId: number): () => void {
      const timer = setInterval(() => {
        try {
          messages.heartbeat(messageId, clock.now());
        } catch (e) {
          logger.warn('could not renew a reply heartbeat', { message: messageId, error: (e as Error).message });
        }
      }, REPLY_HEARTBEAT_MS);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
}

export type ReplyWriters = ReturnType<typeof createReplyWriters>;
