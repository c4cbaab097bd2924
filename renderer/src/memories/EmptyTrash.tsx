import { useState } from 'react';
import { useMemoriesStore } from './memories.store';
import { useT } from '../i18n/use-t';
import { ConfirmDialog } from '../ui/Dialog';
import { TrashIcon } from '../ui/icons';

/** Purges everything in the trash, after saying plainly that it cannot be undone. */
export function EmptyTrash() {
  const t = useT();
  const count = useMemoriesStore((s) => s.stats?.byStatus.trashed ?? s.total ?? 0);
  const emptyTrash = useMemoriesStore((s) => s.emptyTrash);
  const [confirm, setConfirm] = useState(false);
  return (
    <>
      <button type="button" className="small danger" disabled={count === 0} onClick={() => setConfirm(true)}>
        <TrashIcon /> {t('memories.trash.emptyButton')}
      </button>
      {confirm && (
        <ConfirmDialog
          title={t('memories.trash.emptyTitle', { count })}
          body={t('memories.purgeBody')}
          confirm={t('memories.trash.emptyConfirm')}
          onConfirm={() => void emptyTrash()}
          onClose={() => setConfirm(false)}
        />
      )}
    </>
  );
}
