import type { Thread } from '../../../shared/contract';
import { useAppStore } from '../stores/app.store';
import { useChatStore } from '../stores/chat.store';
import { useSettingsStore } from '../stores/settings.store';
import { useT } from '../use-t';
import { IncognitoIcon, NotesIcon } from './icons';
import { ThreadShareMenu } from './ThreadShareMenu';

export function ThreadHeader({ thread }: { thread: Thread }) {
  const t = useT();
  const summaryOpen = useAppStore((s) => s.summaryOpen);
  const setSummaryOpen = useAppStore((s) => s.setSummaryOpen);
  const pending = useChatStore((s) => s.summaries[thread.id]?.pendingCount ?? 0);
  // The model that will write the next answer (each answer's own model is under it).
  const model = useSettingsStore((s) => thread.model ?? s.settings?.chatModel ?? null);

  return (
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
        {model && (
          <span className="model-chip" title={t('chat.modelHint')}>
            {model}
          </span>
        )}
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
  );
}
