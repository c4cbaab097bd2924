import { useAppStore } from '../stores/app.store';
import { useT } from '../use-t';

export function ThreadSidebar() {
  const t = useT();
  const threads = useAppStore((s) => s.threads);
  const selected = useAppStore((s) => s.selectedThreadId);
  const createThread = useAppStore((s) => s.createThread);
  const selectThread = useAppStore((s) => s.selectThread);

  return (
    <nav className="sidebar" aria-label={t('threads.title')}>
      <div className="sidebar-header">
        <h2>{t('threads.title')}</h2>
        <button type="button" className="primary" onClick={() => void createThread()} aria-label={t('threads.new')}>
          + {t('threads.new')}
        </button>
      </div>
      {threads.length === 0 ? (
        <p className="empty">{t('threads.empty')}</p>
      ) : (
        <ul className="thread-list" role="list">
          {threads.map((thread) => (
            <li key={thread.id}>
              <button
                type="button"
                className={thread.id === selected ? 'thread selected' : 'thread'}
                aria-current={thread.id === selected ? 'true' : undefined}
                onClick={() => selectThread(thread.id)}
              >
                <span className="thread-title">{thread.title || t('threads.untitled')}</span>
                {thread.incognito && <span className="badge">{t('threads.incognito')}</span>}
              </button>
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}
