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

export const profileOperations = {
  'profile.get': operation('The profile, or null before the first one.', z.object({}).strict(), Profile.nullable()),
  'profile.update': operation(
    'Replaces the profile with the user’s text; later refreshes build on it. Empty text clears it (the next refresh writes a new one).',
    z.object({ content: z.string().max(20_000, 'A profile is at most 20,000 characters; keep it to what matters.') }).strict(),
    Profile.nullable(),
  ),
  'profile.refresh': operation(
    'Asks the background model to rewrite the profile from the active memories now (a background job). Refused while the profile is turned off.',
    z.object({}).strict(),
    z.object({ jobId: Id }),
  ),
};

export const profileEvents = {
  'profile.updated': z.object({ profile: Profile.nullable() }),
};
