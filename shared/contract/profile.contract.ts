/**
 * The profile: what Mnemo knows about the user, in one short page (name, language, location, work, key preferences,
 * standing instructions), written by the background model from the active memories and always in the prompt within
 * the memory share. The user's edit is kept: later refreshes build on it, like thread summaries.
 */
import { z } from 'zod';
import { Id, Timestamp, operation } from './define';

export const Profile = z.object({
  content: z.string(),
  /** The text is (or builds on) the user's own edit. */
  editedByUser: z.boolean(),
  updatedAt: Timestamp,
  /** When the background model last rewrote it from the memories; null if only the user wrote it. */
  refreshedAt: Timestamp.nullable(),
  /** How many memories the last refresh read. */
  memoryCount: z.number().int().nonnegative(),
});
export type Profile = z.output<typeof Profile>;

const Count = z.number().int().nonnegative();

/**
 * How much of the profile a prompt holds with the chat model chosen in Settings (a thread may use another): its first
 * `lines` of `ofLines` lines that say something, cut before line `cutAt` of its text (null: all of it fits); `tokens`
 * is the whole profile's estimate, `roomTokens` what its share of the prompt leaves for it. The same rule as the prompt.
 */
export const ProfileFit = z.object({
  model: z.string(),
  contextWindow: Count,
  lines: Count,
  ofLines: Count,
  tokens: Count,
  roomTokens: Count,
  cutAt: Count.nullable(),
});
export type ProfileFit = z.output<typeof ProfileFit>;

export const profileOperations = {
  'profile.get': operation(
    'The profile, with how much of it fits in a prompt, or null before the first one.',
    z.object({}).strict(),
    Profile.extend({ fits: ProfileFit }).nullable(),
  ),
  'profile.update': operation(
    'Replaces the profile with the user’s text; later refreshes build on it. Empty text clears it (the next refresh writes a new one).',
    z.object({ content: z.string().max(20_000, 'A profile is at most 20,000 characters; keep it to what matters.') }).strict(),
    Profile.nullable(),
  ),
  'profile.refresh': operation(
    'Asks the background model to rewrite the profile from the active memories now (a background job). Refused while the profile is turned off. ' +
      'shorten: the profile is longer than a prompt holds (profile.get fits): the rewrite is asked to fit it, keeping what matters most.',
    z.object({ shorten: z.boolean().optional() }).strict(),
    z.object({ jobId: Id }),
  ),
};

export const profileEvents = {
  'profile.updated': z.object({ profile: Profile.nullable() }),
};
