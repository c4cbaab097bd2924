/**
 * "Active work": the user's active projects and tasks across threads in one place, each thread's focus and open
 * tasks (its working memory) with a link to the thread. Incognito threads are never listed (the core leaves them out).
 */
import { useEffect } from 'react';
import { formatTime } from '../format/format';
import { useAppStore } from '../app/app.store';
import { useFocusStore } from '../chat/focus.store';
import { showMessage } from '../app/navigate';
import { useSettingsStore } from '../settings/settings.store';
import { useLanguage, useT } from '../i18n/use-t';

export function ActiveWork() {
  const t = useT();
  const language = useLanguage();
  const active = useFocusStore((s) => s.active);
  const loadActive = useFocusStore((s) => s.loadActive);
  const enabled = useSettingsStore((s) => s.settings?.workingMemoryEnabled ?? true);

  useEffect(() => {
    void loadActive();
  }, [loadActive]);

  const open = (threadId: number) => {
    showMessage(threadId, null);
    useAppStore.getState().setView('chat');
  };

  return (
    <div className="active-work">
      <p className="muted small">{enabled ? t('activeWork.intro') : t('activeWork.off')}</p>
      {active === null ? (
        <p className="muted">{t('common.loading')}</p>
      ) : active.length === 0 ? (
        <p className="muted">{t('activeWork.empty')}</p>
      ) : (
        <ul className="active-work-list">
          {active.map((a) => (
            <li key={a.threadId} className="active-work-item">
              <h3>
                <button type="button" className="link" onClick={() => open(a.threadId)}>
                  {a.threadTitle || t('activeWork.untitled')}
                </button>
              </h3>
              {a.focus && <p>{a.focus}</p>}
              {a.tasks.length > 0 && (
                <ul className="focus-tasks">
                  {a.tasks.map((task) => (
                    <li key={task.id}>
                      {task.text}
                      {task.state === 'in_progress' && <span className="badge small"> {t('focus.state.in_progress')}</span>}
                    </li>
                  ))}
                </ul>
              )}
              <p className="muted small">{t('activeWork.updated', { time: formatTime(a.updatedAt, language) })}</p>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
