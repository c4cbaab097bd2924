/**
 * The rule that keeps automatic backups from pushing good copies out. A database that went empty (deleted, replaced
 * by a 0-byte file, emptied by mistake) is still backed up every day; counted among the 7 kept, a week of such copies
 * would delete every copy that held the user's memories.
 *
 * - What a backup holds is counted in rows: memories plus chat messages (its size in bytes says little: an empty
 *   database with its indexes is not small, and free pages are not content).
 * - A new automatic backup holding less than half of the fullest automatic backup kept is kept aside, in
 *   `backups/kept-aside/`: it is not counted among the 7 and makes no other backup go.
 * - Each folder keeps its 7 newest automatic backups, and rotation never deletes the one holding the most in its
 *   folder, even when older: a database that shrinks slowly keeps its fullest copy as an 8th.
 * - A database the user shrank on purpose to less than half: its backups go on being written, kept aside, until the
 *   older fuller copies are deleted by hand. Disk use stays bounded (at most 8 + 8 automatic files).
 */

export const KEEP_AUTOMATIC = 7;
/** Below this share of the fullest automatic backup kept, a new one is kept aside. */
export const KEEP_ASIDE_BELOW = 0.5;
/** The folder, inside the backups folder, of automatic backups that hold much less than the others. */
export const KEPT_ASIDE_DIR = 'kept-aside';

export interface Holding {
  memories: number;
  messages: number;
}

/** What a backup holds of the user's, in rows. */
export function contentOf(h: Holding): number {
  return h.memories + h.messages;
}

/** Whether a new automatic backup is kept aside rather than counted (see the header). */
export function holdsMuchLess(content: number, fullestKept: number): boolean {
  return content < fullestKept * KEEP_ASIDE_BELOW;
}

/**
 * The backups of one folder that rotation deletes: those beyond the `keep` newest, except the one holding the most
 * (the newest of equals). `newestFirst` must be sorted newest first; `content` null: unreadable, holds nothing known.
 */
export function rotationVictims<T extends { content: number | null }>(newestFirst: readonly T[], keep = KEEP_AUTOMATIC): T[] {
  if (newestFirst.length <= keep) return [];
  let fullest: T | null = null;
  for (const b of newestFirst) if (b.content !== null && (fullest === null || b.content > (fullest.content ?? -1))) fullest = b;
  return newestFirst.slice(keep).filter((b) => b !== fullest);
}
