/**
 * Writing a stretch's episode, as a background job (scheduled by episode.service.ts when a thread goes quiet, or
 * because the user asked). The job reads the thread's messages, finds the stretch (episode-stretch.ts), checks it is
 * still quiet (else it is scheduled again for its new quiet time), asks the background model within its window
 * (episode-prompt.ts) and writes the episode in the transaction that completes the job.
 *
 * Invariants:
 * - Incognito threads, and threads deleted meanwhile, get none; a stretch whose episode the user trashed is left alone.
 * - Idempotent: an episode that already covers every message of its stretch is not asked for again (a job run twice,
 *   or a quiet job after the user's refresh, writes nothing).
 * - The write applies only if the episode is as the job read it (version): an edit made while the model worked wins.
 * - A user's edit is the base of a rewrite. Never a secret (episode-prompt.ts, cleanEpisode).
 * - It tells the conversation as shown (message-branches.ts): the version on the thread's path, and the thread summary
 *   only when it covers that path; an edited-away question and its answers are not in it.
 */
import type { Episode, Settings } from '../../../shared/contract';
import { MnemoError } from '../../../shared/errors';
import { userTimeZone } from '../../../shared/time-zone';
import { fitToTokens, MESSAGE_OVERHEAD_TOKENS } from '../llm/context-budget';
import { summaryForPath } from '../conversation/message-branches';
import type { MessagesStore } from '../conversation/messages.store';
import type { SummaryStore } from '../conversation/summary.store';
import type { ThreadsStore } from '../conversation/threads.store';
import type { EventBus } from '../runtime/event-bus';
import { detectLanguage, otherLanguageReason } from '../safety/message-language';
import { modelTextSecretCheck } from '../safety/secret-detector';
import type { JobHandler } from '../jobs/job-queue';
import type { BackgroundModel } from '../llm/background-model';
import type { ChatMessage } from '../llm/llm.port';
import type { Clock } from '../ports/clock.port';
import { estimateTokens } from '../text/token-estimate';
import type { TimelineWriter } from '../db/timeline-writer';
import { cleanEpisode, EPISODE_MAX_TOKENS, episodePrompt, episodeText, stretchTranscript, type TranscriptRow } from './episode-prompt';
import { quietAt, stretchesOf, type StampedMessage } from './episode-stretch';
import type { EpisodeStore } from './episode.store';

/** The share of the window's room the transcript may take by estimate (estimates err by up to about 30%). */
const TRANSCRIPT_SHARE = 0.7;
/** Whatever the window: an episode always reads at least this much of its stretch. */
const MIN_TRANSCRIPT_TOKENS = 256;

export const quietMsOf = (settings: Settings) => settings.episodeQuietMinutes * 60_000;

/** The stretch that starts at or holds `fromMessageId`: the first whose last message is not older than it. */
export function stretchFrom<T extends StampedMessage>(messages: readonly T[], quietMs: number, fromMessageId: number): T[] | null {
  return stretchesOf(messages, quietMs).find((s) => s.at(-1)!.id >= fromMessageId) ?? null;
}

function dateTime(at: number, timeZone: string): string {
  return new Intl.DateTimeFormat('sv-SE', { timeZone, dateStyle: 'short', timeStyle: 'short' }).format(at);
}

export function createEpisodeJob(deps: {
  messages: Pick<MessagesStore, 'branches' | 'stamps' | 'readableBetween' | 'newestId'>;
  threads: Pick<ThreadsStore, 'isIncognito'>;
  summaries: Pick<SummaryStore, 'get'>;
  timeline: TimelineWriter;
  clock: Clock;
  events: EventBus;
  model: BackgroundModel;
  settings: () => Settings;
  store: EpisodeStore;
  /** Schedules the thread's episode again (after this job's commit): it was not quiet, or went on while the model wrote. */
  reschedule: (threadId: number) => void;
}): JobHandler {
  const { messages, clock, events, store, timeline } = deps;
  const { branches } = messages;

  return {
    kind: 'episode',
    usesModel: true,
    async run({ job, signal }) {
      const threadId = job.threadId;
      if (threadId === null) return null;
      const settings = deps.settings();
      if (!settings.episodesEnabled && job.payload.reason !== 'user') return null;
      if (deps.threads.isIncognito(threadId) !== false) return null; // gone, or incognito
      const quietMs = quietMsOf(settings);
      const stretch = stretchFrom(messages.stamps(threadId), quietMs, job.payload.fromMessageId);
      if (!stretch) return null;
      const first = stretch[0]!;
      const last = stretch.at(-1)!;
      if (job.payload.reason === 'quiet' && clock.now() < quietAt(last, quietMs)) {
        return (tx) => tx.afterCommit(() => deps.reschedule(threadId));
      }
      const existing = store.forStretch(threadId, first.id, last.id);
      if (existing?.status === 'trashed') return null;
      if (existing && existing.fromMessageId === first.id && existing.toMessageId === last.id && job.payload.reason !== 'user') return null;
      const path = new Set(branches.activePath(threadId));
      const rows: TranscriptRow[] = messages.readableBetween(threadId, first.id, last.id).filter((r) => path.has(r.id));
      const userText = rows.filter((r) => r.role === 'user').map((r) => r.content).join('\n');
      if (!userText.trim()) return null;

      const language = detectLanguage(userText);
      const timeZone = userTimeZone(settings.timeZone);
      const frame = { previous: null, summary: null, editedByUser: false, language, from: dateTime(first.createdAt, timeZone), to: dateTime(last.createdAt, timeZone) };
      const room = (await deps.model.contextWindow()) - EPISODE_MAX_TOKENS - MESSAGE_OVERHEAD_TOKENS - estimateTokens(episodePrompt({ ...frame, transcript: '' }));
      const previous = existing ? fitToTokens(episodeText(existing), Math.floor(room / 4), estimateTokens) : null;
      let budget = Math.max(MIN_TRANSCRIPT_TOKENS, Math.floor((room - estimateTokens(previous ?? '')) * TRANSCRIPT_SHARE));
      let transcript = stretchTranscript(rows, budget);
      let summary: string | null = null;
      const threadSummary = summaryForPath(deps.summaries.get(threadId), branches.leaf(threadId), branches)?.content.trim();
      if (transcript.omitted > 0 && threadSummary) {
        // What does not fit is told by the thread summary, which takes at most a quarter of the transcript's share.
        summary = fitToTokens(threadSummary, Math.floor(budget / 4), estimateTokens);
        budget = Math.max(MIN_TRANSCRIPT_TOKENS, budget - estimateTokens(summary));
        transcript = stretchTranscript(rows, budget);
      }
      const prompt = episodePrompt({ ...frame, previous, summary, editedByUser: existing?.editedByUser ?? false, transcript: transcript.text });
      const holdsSecret = modelTextSecretCheck(userText);

      const ask = async (messages: ChatMessage[]) => (await deps.model.ask({ purpose: 'episode', messages, answerTokens: EPISODE_MAX_TOKENS, temperature: 0.2, signal })).text;
      const answer = await ask([{ role: 'user', content: prompt }]);
      let written = cleanEpisode(answer, holdsSecret);
      if (written && otherLanguageReason(episodeText(written), language)) {
        // Small models drift into English; one reminder, then the job fails (and retries later) rather than keep an
        // episode that searches in the user's language never find.
        const again = await ask([
          { role: 'user', content: prompt },
          { role: 'assistant', content: answer },
          { role: 'user', content: language === 'zh' ? '请用简体中文重写这个记录（标题也用中文）。只回复记录本身。' : 'Rewrite it in the language the user wrote in. Reply with the episode only.' },
        ]);
        written = cleanEpisode(again, holdsSecret);
        if (written && otherLanguageReason(episodeText(written), language)) {
          throw new MnemoError('LLM_BAD_OUTPUT', 'The background model wrote the episode in another language than the conversation’s.');
        }
      }
      if (!written) throw new MnemoError('LLM_BAD_OUTPUT', 'The background model returned an empty episode.');
      const draft = { threadId, ...written, fromMessageId: first.id, toMessageId: last.id, startedAt: first.createdAt, endedAt: last.createdAt };

      return (tx) => {
        const current = store.forStretch(threadId, first.id, last.id);
        // Written or edited since the job read it (an edit made meanwhile wins), or trashed: this result is stale.
        if ((current?.version ?? null) !== (existing?.version ?? null) || current?.status === 'trashed') return;
        const episode: Episode = store.writeByModel(draft, current, clock.now());
        timeline.record('episode_written', { threadId }, { episodeId: episode.id, version: episode.version, rewrite: current !== null, messages: rows.length });
        tx.afterCommit(() => events.emit('episode.updated', { episode }));
        const newest = messages.newestId(threadId) ?? 0;
        if (newest > last.id) tx.afterCommit(() => deps.reschedule(threadId));
      };
    },
  };
}
