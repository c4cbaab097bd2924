/**
 * What the window says after a purge (of memories or episodes): deleted forever, from the database and its backups,
 * with what was written from the memories (summaries, lines of About you) when any went too; or, when some backups
 * could not be changed, which files may still hold copies (the user deletes them by hand), shown long enough to read.
 */
import type { PurgedDerived, RemainingCopy } from '../../../shared/contract';
import { useAppStore } from '../app/app.store';

/** Long enough to read a list of paths and go delete the files. */
const COPIES_REMAIN_MS = 60_000;

const KEYS = {
  memories: { purged: 'memories.trash.purged', copiesRemain: 'memories.trash.purgedCopiesRemain' },
  episodes: { purged: 'episodes.purged', copiesRemain: 'episodes.purgedCopiesRemain' },
} as const;

export function announcePurge(count: number, remaining: readonly RemainingCopy[], what: keyof typeof KEYS = 'memories', derived?: PurgedDerived): void {
  const { pushToast } = useAppStore.getState();
  if (remaining.length === 0 && derived && derived.summaries + derived.profileLines > 0) {
    pushToast({ text: { key: 'memories.trash.purgedWithDerived', params: { count, summaries: derived.summaries, lines: derived.profileLines } } });
    return;
  }
  if (remaining.length === 0) {
    pushToast({ text: { key: KEYS[what].purged, params: { count } } });
    return;
  }
  const files = [...new Set(remaining.map((c) => c.path))].join(', ');
  pushToast({ text: { key: KEYS[what].copiesRemain, params: { count, files } } }, COPIES_REMAIN_MS);
}
