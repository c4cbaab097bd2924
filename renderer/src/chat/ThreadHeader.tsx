import { useRef, useState } from 'react';
import type { Thread } from '../../../shared/contract';
import { useAppStore } from '../app/app.store';
import { useChatStore } from './chat.store';
import { useT } from '../i18n/use-t';
import { IncognitoIcon, NotesIcon } from '../ui/icons';
import { ThreadInstructionsDialog } from './ThreadInstructionsDialog';
import { ThreadModelMissing, ThreadModelPicker } from './ThreadModelPicker';
import { ThreadShareMenu } from './ThreadShareMenu';

export function ThreadHeader({ thread }: { thread: Thread }) {
  const t = useT();
  const summaryOpen = useAppStore((s) => s.summaryOpen);
  const setSummaryOpen = useAppStore((s) => s.setSummaryOpen);
  const pending = useChatStore((s) => s.summaries[thread.id]?.pendingCount ?? 0);
  // The picker chooses the model of the next answers (each answer's own model is under it); "pick another" focuses it.
  const modelPicker = useRef<HTMLSelectElement>(null);
  const [editingInstructions, setEditingInstructions] = useState(false);

  return (
    <>
      <header className="thread-header">
        <div className="thread-header-title">
          <h2>{thread.title || t('threads.untitled')}</h2>
          {thread.incognito && (
            <span className="badge incognito" title={t('threads.incognitoHint')}>
              <IncognitoIcon size={12} /> {t('threads.incognito')}
            </span>
          )}
        </div>
        <div className="thread-header-tools">
          <ThreadModelPicker thread={thread} selectRef={modelPicker} />
          <button type="button" className={thread.instructions ? 'ghost active' : 'ghost'} onClick={() => setEditingInstructions(true)} title={t('instructions.threadHint')}>
            {thread.instructions ? t('instructions.buttonSet') : t('instructions.button')}
          </button>
          <button type="button" className={summaryOpen ? 'ghost active' : 'ghost'} aria-pressed={summaryOpen} onClick={() => setSummaryOpen(!summaryOpen)}>
            <NotesIcon /> {t('summary.button')}
            {pending > 0 && (
              <span className="badge warn" aria-label={t('summary.pendingShort', { count: pending })}>
                {pending}
              </span>
            )}
          </button>
          <ThreadShareMenu threadId={thread.id} />
        </div>
      </header>
      <ThreadModelMissing thread={thread} selectRef={modelPicker} />
      {editingInstructions && <ThreadInstructionsDialog thread={thread} onClose={() => setEditingInstructions(false)} />}
    </>
  );
}
