/**
 * What the window says after a purge: deleted forever, from the database and its backups; or, when some backups could
 * not be changed, which files may still hold copies (the user deletes them by hand), shown long enough to read.
 */
import type { RemainingCopy } from '../../../shared/contract';
import { useAppStore } from './app.store';

/** Long enough to read a list of paths and go delete the files. */
const COPIES_REMAIN_MS = 60_000;

export function announcePurge(count: number, remaining: readonly RemainingCopy[]): void {
  const { pushToast } = useAppStore.getState();
  if (remaining.length === 0) {
    pushToast({ text: { key: 'memories.trash.purged', params: { count } } });
    return;
  }
  const files = [...new Set(remaining.map((c) => c.path))].join(', ');
  pushToast({ text: { key: 'memories.trash.purgedCopiesRemain', params: { count, files } } }, COPIES_REMAIN_MS);
}
