/** What can be done to the selected memories at once (memory.bulk: one transaction), or in the trash, restored or purged. */
import { useState } from 'react';
import type { MemoryCategory } from '../../../shared/contract';
import { formatNumber } from '../format/format';
import { MAX_BULK } from './memory-pages';
import { useMemoriesStore } from './memories.store';
import { InlineField } from '../ui/InlineField';
import { useLanguage, useT } from '../i18n/use-t';
import { ConfirmDialog } from '../ui/Dialog';
import { ArchiveIcon, CloseIcon, PinIcon, RestoreIcon, TrashIcon } from '../ui/icons';
import { CategoryOptions } from './CategoryOptions';

export function BulkBar() {
  const t = useT();
  const language = useLanguage();
  const selected = useMemoriesStore((s) => s.selected);
  const total = useMemoriesStore((s) => s.total) ?? 0;
  const tab = useMemoriesStore((s) => s.tab);
  const status = useMemoriesStore((s) => s.query.status);
  const bulk = useMemoriesStore((s) => s.bulk);
  const selectAll = useMemoriesStore((s) => s.selectAll);
  const clear = useMemoriesStore((s) => s.clearSelection);
  const restoreSelected = useMemoriesStore((s) => s.restoreSelected);
  const purgeSelected = useMemoriesStore((s) => s.purgeSelected);
  const [confirmPurge, setConfirmPurge] = useState(false);
  const count = selected.size;

  if (count === 0) {
    return total > 0 && total <= MAX_BULK ? (
      <div className="bulk-bar idle">
        <button type="button" className="ghost small" onClick={() => void selectAll()}>
          {t('memories.selectAll', { count: total, n: formatNumber(total, language, 0) })}
        </button>
      </div>
    ) : null;
  }

  return (
    <div className="bulk-bar" role="toolbar" aria-label={t('memories.bulk.label')}>
      <span className="bulk-count">{t('memories.selected', { count: count, n: formatNumber(count, language, 0) })}</span>
      {tab === 'trash' ? (
        <>
          <button type="button" className="small" onClick={() => void restoreSelected()}>
            <RestoreIcon /> {t('memories.restore')}
          </button>
          <button type="button" className="small danger" onClick={() => setConfirmPurge(true)}>
            <TrashIcon /> {t('memories.purge')}
          </button>
        </>
      ) : (
        <>
          <button type="button" className="small" onClick={() => void bulk('pin')}>
            <PinIcon filled /> {t('memories.pin')}
          </button>
          <button type="button" className="small" onClick={() => void bulk('unpin')}>
            <PinIcon /> {t('memories.unpin')}
          </button>
          {status === 'archived' ? (
            <button type="button" className="small" onClick={() => void bulk('unarchive')}>
              <RestoreIcon /> {t('memories.unarchive')}
            </button>
          ) : (
            <button type="button" className="small" onClick={() => void bulk('archive')}>
              <ArchiveIcon /> {t('memories.archive')}
            </button>
          )}
          <InlineField label={t('memories.moveTo')} className="small">
            {(id) => (
              <select
                id={id}
                value=""
                onChange={(e) => {
                  if (e.target.value) void bulk('recategorize', e.target.value as MemoryCategory);
                }}
              >
                <option value="">{t('memories.chooseCategory')}</option>
                <CategoryOptions />
              </select>
            )}
          </InlineField>
          <button type="button" className="small danger" onClick={() => void bulk('delete')}>
            <TrashIcon /> {t('memories.delete')}
          </button>
        </>
      )}
      <button type="button" className="ghost small" onClick={clear}>
        <CloseIcon /> {t('memories.clearSelection')}
      </button>
      {confirmPurge && (
        <ConfirmDialog
          title={t('memories.purgeManyTitle', { count })}
          body={t('memories.purgeBody')}
          confirm={t('memories.purgeConfirm')}
          onConfirm={() => void purgeSelected()}
          onClose={() => setConfirmPurge(false)}
        />
      )}
    </div>
  );
}
