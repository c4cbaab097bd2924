/**
 * What each kind of background job carries, declared once: `enqueue` and each handler are typed from this map, and
 * the queue checks a stored payload against it before a handler sees it (a row is data from disk: written by an older
 * version, or by hand, it may not fit; that is the job's typed failure, never the runner's crash).
 *
 * A payload holds ids, never user text (job rows are listed and kept after they ran). Schemas accept extra keys so a
 * row written by a newer version that added one still runs here.
 */
import { z } from 'zod';
import { Id } from '../../../shared/contract/define';
import type { JobKind as ContractJobKind } from '../../../shared/contract/queue.contract';

/** One exchange: a user message and the assistant's reply to it. */
const Exchange = z.object({ userMessageId: Id, assistantMessageId: Id });

export const jobPayloads = {
  /** Learn memories from one exchange (extraction.job.ts). */
  extract: Exchange,
  /** Fold the thread's messages up to this one into its summary (summary.job.ts). */
  summarize: z.object({ upToMessageId: Id }),
  /** Name the thread after its first exchange (title.job.ts). */
  title: Exchange,
  /** Fill missing vectors (reembed.job.ts); the reason is for the job list only. */
  reembed: z.object({ reason: z.string() }),
  /**
   * Rewrite the profile from the memories (profile.job.ts): after memory changes, daily, or because the user asked;
   * fitTokens: the user asked to shorten it to what a prompt holds (profile.service.ts shortenNow).
   */
  profile: z.object({ reason: z.enum(['memories', 'daily', 'user']), fitTokens: z.number().int().positive().optional() }),
  /**
   * Summarise a cluster of related memories into one (consolidate.job.ts): each memory with the version it had when
   * maintenance found the cluster, so the job skips a cluster that changed meanwhile.
   */
  consolidate: z.object({ memories: z.array(z.object({ id: Id, version: z.number().int().positive() })).min(2).max(16) }),
  /** Write the episode of the stretch of the job's thread that starts at this message (episode.job.ts): quiet, or the user asked. */
  episode: z.object({ fromMessageId: Id, reason: z.enum(['quiet', 'user']) }),
  /** Update the thread's working memory from its exchanges after the last one it read (focus/focus.job.ts). */
  focus: z.object({ afterMessageId: z.number().int().nonnegative() }),
} satisfies Record<z.infer<typeof ContractJobKind>, z.ZodType>;

export type JobKind = keyof typeof jobPayloads;
export type JobPayload<K extends JobKind> = z.infer<(typeof jobPayloads)[K]>;

/** The stored payload as its kind's type, or why it does not fit (paths and expectations only, never the values). */
export function readPayload<K extends JobKind>(kind: K, stored: unknown): { ok: true; payload: JobPayload<K> } | { ok: false; problem: string } {
  if (stored === undefined) return { ok: false, problem: 'it is not JSON' };
  const parsed = jobPayloads[kind].safeParse(stored);
  if (parsed.success) return { ok: true, payload: parsed.data as JobPayload<K> };
  const issue = parsed.error.issues[0];
  return { ok: false, problem: issue ? `${issue.path.join('.') || 'payload'}: ${issue.message}` : 'it does not fit' };
}
