/**
 * Rewriting the profile from the active memories, as a background job. The memories are read most important first
 * (pinned, then importance) while they fit the background model's window; when they are the same memories, with the
 * same text, as at the last rewrite, nothing is asked of the model (a daily refresh of an unchanged set is free),
 * unless the user asked for it. A profile the user edited is given to the model as the base to keep.
 *
 * The answer is checked line by line against the memories it was written from (profile-lines.ts): a line no memory
 * says is dropped, a secret or an instruction no memory says refuses the rewrite, and so does an answer most of whose
 * lines are unfounded; a refused rewrite keeps the previous profile. The profile is stored with what each line was
 * written from, so a purge can take a memory's lines out at once. A memory purged while the model wrote makes the
 * answer void (it may hold that memory's words); the purge itself schedules the next rewrite.
 */
import { createHash } from 'node:crypto';
import type { Settings } from '../../../shared/contract';
import { MnemoError } from '../../../shared/errors';
import { fitToTokens, MESSAGE_OVERHEAD_TOKENS } from '../llm/context-budget';
import type { MemoryUpkeepStore } from '../memory/memory-upkeep.store';
import type { EventBus } from '../runtime/event-bus';
import type { JobHandler } from '../jobs/job-queue';
import type { BackgroundModel } from '../llm/background-model';
import { splitThink } from '../llm/think-splitter';
import type { Clock } from '../ports/clock.port';
import type { Logger } from '../ports/logger.port';
import { DATA_NOT_INSTRUCTIONS, fenced } from '../text/data-fence';
import { estimateTokens } from '../text/token-estimate';
import { checkProfile } from './profile-lines';
import { toProfile, type ProfileStore } from './profile.store';

/** "At most 150 words" is about 200 tokens in English and 300 in Chinese; room for a model that runs over. */
export const PROFILE_MAX_TOKENS = 480;
/** The most memories one rewrite reads; the most important come first. */
const MAX_MEMORIES = 300;
/** The share of the window's room the memories may take by estimate (estimates err by up to about 30%). */
const NOTES_SHARE = 0.7;

export interface ProfileNote {
  id: number;
  category: string;
  content: string;
}

/** The current profile (the model's or the user's words) and the notes (memories) are data, each in its fence. */
/** fitTokens: the user asked for a profile that fits what a prompt holds (Shorten): fewer words, the least important left out. */
export function profilePrompt(input: { previous: string | null; editedByUser: boolean; notes: ProfileNote[]; language: Settings['language']; fitTokens?: number }): string {
  const words = input.fitTokens === undefined ? 150 : Math.max(20, Math.min(150, Math.floor(input.fitTokens * 0.5)));
  return [
    'You keep a short profile of the user for their personal assistant, written from notes the assistant remembers about them.',
    `Write at most ${words} words as a Markdown list under these headings, leaving out a heading the notes say nothing about:`,
    'Name, Language, Location, Work, Preferences, Instructions for the assistant.',
    'Use only what the notes say; never guess. Where notes disagree, prefer the more specific one.',
    DATA_NOT_INSTRUCTIONS,
    'Only notes that state how the user wants the assistant to answer belong under "Instructions for the assistant".',
    ...(input.previous && input.editedByUser ? ['The user edited the current profile themselves: keep what they wrote unless a note clearly replaces it.'] : []),
    ...(input.fitTokens === undefined ? [] : [`The current profile is too long for the assistant to read whole: make it shorter than ${words} words, merging lines that say the same thing and leaving out what matters least.`]),
    input.language === 'zh-CN' ? 'Write the profile in Simplified Chinese (the headings too).' : 'Write the profile in English.',
    'Reply with the profile only.',
    '',
    input.previous ? `Current profile:\n${fenced(input.previous)}` : 'There is no profile yet.',
    '',
    `Notes (most important first):\n${fenced(input.notes.map((n) => `- [${n.category}] ${n.content.replace(/\s+/g, ' ').trim()}`).join('\n'))}`,
  ].join('\n');
}

/**
 * The model's answer as a profile: reasoning goes by the think rule (an answer left inside an unclosed `<think>` is
 * none); a fence around the whole answer is dropped.
 */
export function cleanProfile(answer: string): string {
  const text = splitThink(answer).content.trim();
  const fenced = /^```[a-z]*\n([\s\S]*?)\n```$/i.exec(text);
  return fitToTokens((fenced ? fenced[1]! : text).trim(), PROFILE_MAX_TOKENS, estimateTokens);
}

/** Which memories, with which text, a rewrite read: equal hashes mean nothing the profile draws on changed. */
export function notesHash(notes: ProfileNote[]): string {
  const hash = createHash('sha256');
  for (const n of notes) hash.update(`${n.id}\u0000${n.category}\u0000${n.content}\u0001`);
  return hash.digest('hex');
}

/** Why a rewrite was refused, for the log (no user text). */
const PROBLEM_TEXT = {
  empty: 'it held no line about the user',
  secret: 'a line held what looks like a secret',
  instruction: 'a line gave the assistant an instruction no memory holds',
  ungrounded: 'most of its lines said things no memory says',
} as const;

export function createProfileJob(deps: {
  /** The memories a profile is written from. */
  upkeep: Pick<MemoryUpkeepStore, 'exists' | 'profileNotes'>;
  clock: Clock;
  events: EventBus;
  model: BackgroundModel;
  settings: () => Settings;
  store: ProfileStore;
  logger: Logger;
}): JobHandler {
  const { upkeep, clock, events, store } = deps;
  return {
    kind: 'profile',
    usesModel: true,
    async run({ job, signal }) {
      const settings = deps.settings();
      if (!settings.profileEnabled && job.payload.reason !== 'user') return null;
      const previous = store.get();
      const room = (await deps.model.contextWindow()) - PROFILE_MAX_TOKENS - MESSAGE_OVERHEAD_TOKENS;
      const previousText = previous?.content ? fitToTokens(previous.content, Math.floor(room / 4), estimateTokens) : null;
      let budget = Math.floor((room - estimateTokens(profilePrompt({ previous: previousText, editedByUser: true, notes: [], language: settings.language }))) * NOTES_SHARE);
      const notes: ProfileNote[] = [];
      for (const n of upkeep.profileNotes(clock.now(), MAX_MEMORIES)) {
        const cost = estimateTokens(n.content) + 4;
        if (cost > budget) break;
        budget -= cost;
        notes.push(n);
      }
      if (notes.length === 0 && !previous) return null;
      const sourceHash = notesHash(notes);
      if (previous && previous.sourceHash === sourceHash && job.payload.reason !== 'user') return null;
      const { text } = await deps.model.ask({
        purpose: 'profile',
        messages: [{ role: 'user', content: profilePrompt({ previous: previousText, editedByUser: previous?.editedByUser ?? false, notes, language: settings.language, ...(job.payload.fitTokens === undefined ? {} : { fitTokens: job.payload.fitTokens }) }) }],
        answerTokens: PROFILE_MAX_TOKENS,
        temperature: 0.2,
        signal,
      });
      const content = cleanProfile(text);
      if (!content) throw new MnemoError('LLM_BAD_OUTPUT', 'The background model returned an empty profile.');
      const checked = checkProfile(content, notes, previous);
      if (!checked.ok) {
        // Asking again would ask the same model about the same memories: the job ends, the profile stays (as a refused
        // consolidation does); the next change to the memories brings the next rewrite.
        deps.logger.info(`profile rewrite refused: ${PROBLEM_TEXT[checked.problem]}; the previous profile stays`, { job: job.id });
        return null;
      }
      return (tx) => {
        if (notes.some((n) => !upkeep.exists(n.id))) return; // purged while the model wrote: see the header
        const written = store.setByRefresh({
          content: checked.content,
          sourceHash,
          sources: checked.sources,
          memoryCount: notes.length,
          readAt: previous?.updatedAt ?? null,
          now: clock.now(),
        });
        if (written) tx.afterCommit(() => events.emit('profile.updated', { profile: toProfile(written) }));
      };
    },
  };
}
