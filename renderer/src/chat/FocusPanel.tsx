/**
 * The thread's working memory, above its messages: a collapsible panel with the current focus and the active tasks
 * (kept up to date by the background model every few exchanges and in the user's pauses), where the user edits the
 * focus, adds, edits, ticks or removes a task, or clears it all. An edit is the user's: the model's next update keeps it. Hidden while the
 * setting is off. Everything is a native control (buttons, checkboxes, inputs), so it works from the keyboard.
 */
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { FocusEdit, FocusTask } from '../../../shared/contract';
import type { CoreFailure } from '../i18n/error-text';
import { formatTime } from '../format/format';
import { useFocusStore } from './focus.store';
import { useSettingsStore } from '../settings/settings.store';
import { useLanguage, useT } from '../i18n/use-t';
import { CoreError } from '../ui/CoreError';
import { PencilIcon, TrashIcon } from '../ui/icons';

export function FocusPanel({ threadId }: { threadId: number }) {
  const t = useT();
  const language = useLanguage();
  const headingId = useId();
  const bodyId = useId();
  const enabled = useSettingsStore((s) => s.settings?.workingMemoryEnabled ?? true);
  const wm = useFocusStore((s) => s.byThread[threadId]);
  const load = useFocusStore((s) => s.load);
  const editStore = useFocusStore((s) => s.edit);
  const clearStore = useFocusStore((s) => s.clear);
  const [open, setOpen] = useState(false);
  const [focusDraft, setFocusDraft] = useState<string | null>(null);
  const [taskDraft, setTaskDraft] = useState<{ id: number; text: string } | null>(null);
  const [newTask, setNewTask] = useState('');
  const [confirmClear, setConfirmClear] = useState(false);
  const [error, setError] = useState<CoreFailure | null>(null);
  // "Clear all" swaps its buttons for a confirmation and back: the focused button goes away each time, so the focus is
  // handed on (else it falls to the page body): to the confirmation, back to "Clear all" after Cancel or a failure,
  // and to the panel's heading once cleared (Clear all is disabled then).
  const toggleRef = useRef<HTMLButtonElement>(null);
  const clearRef = useRef<HTMLButtonElement>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const [focusNext, setFocusNext] = useState<'toggle' | 'clear' | 'confirm' | null>(null);

  useEffect(() => {
    setFocusDraft(null);
    setTaskDraft(null);
    setConfirmClear(false);
    setError(null);
    if (enabled && wm === undefined) void load(threadId);
  }, [threadId, enabled, wm, load]);

  useEffect(() => {
    if (focusNext === null) return;
    ({ toggle: toggleRef, clear: clearRef, confirm: confirmRef })[focusNext].current?.focus();
    setFocusNext(null);
  }, [focusNext]);

  if (!enabled) return null;

  const run = async (edit: FocusEdit): Promise<boolean> => {
    setError(null);
    const result = await editStore(threadId, edit);
    if (!result.ok) setError(result.error);
    return result.ok;
  };
  const saveFocus = async (e: FormEvent) => {
    e.preventDefault();
    if (focusDraft !== null && (await run({ kind: 'setFocus', text: focusDraft }))) setFocusDraft(null);
  };
  const saveTask = async (e: FormEvent) => {
    e.preventDefault();
    if (taskDraft && (await run({ kind: 'editTask', taskId: taskDraft.id, text: taskDraft.text }))) setTaskDraft(null);
  };
  const addTask = async (e: FormEvent) => {
    e.preventDefault();
    if (newTask.trim() && (await run({ kind: 'addTask', text: newTask }))) setNewTask('');
  };
  const clearAll = async () => {
    setError(null);
    const result = await clearStore(threadId);
    setConfirmClear(false);
    if (!result.ok) setError(result.error);
    setFocusNext(result.ok ? 'toggle' : 'clear');
  };
  const escapeTo = (cancel: () => void) => (e: KeyboardEvent) => {
    if (e.key !== 'Escape') return;
    e.preventDefault();
    e.stopPropagation();
    cancel();
  };

  const openCount = wm?.tasks.length ?? 0;
  const preview = wm?.focus ? wm.focus : openCount > 0 ? t('focus.openCount', { count: openCount }) : wm?.otherVersion ? t('focus.otherVersionShort') : t('focus.empty');

  const taskRow = (task: FocusTask) =>
    taskDraft?.id === task.id ? (
      <li key={task.id} className="focus-task">
        <form onSubmit={(e) => void saveTask(e)} className="focus-inline-form">
          <input
            aria-label={t('focus.taskText')}
            value={taskDraft.text}
            autoFocus
            maxLength={500}
            onChange={(e) => setTaskDraft({ id: task.id, text: e.target.value })}
            onKeyDown={escapeTo(() => setTaskDraft(null))}
          />
          <button type="submit" className="primary">
            {t('common.save')}
          </button>
          <button type="button" onClick={() => setTaskDraft(null)}>
            {t('common.cancel')}
          </button>
        </form>
      </li>
    ) : (
      <li key={task.id} className={`focus-task state-${task.state}`}>
        <label className="check">
          <input type="checkbox" checked={task.state === 'done'} onChange={(e) => void run({ kind: 'editTask', taskId: task.id, state: e.target.checked ? 'done' : 'open' })} />
          <span>{task.text}</span>
        </label>
        {task.state === 'in_progress' && <span className="badge small">{t('focus.state.in_progress')}</span>}
        {task.state === 'done' && task.finishedAt !== null && <span className="muted small">{formatTime(task.finishedAt, language)}</span>}
        {task.editedByUser && <span className="muted small">{t('focus.yours')}</span>}
        <button type="button" className="icon" aria-label={t('focus.editTask', { task: task.text })} onClick={() => setTaskDraft({ id: task.id, text: task.text })}>
          <PencilIcon />
        </button>
        <button type="button" className="icon" aria-label={t('focus.removeTask', { task: task.text })} onClick={() => void run({ kind: 'removeTask', taskId: task.id })}>
          <TrashIcon />
        </button>
      </li>
    );

  return (
    <section className="focus-panel" aria-labelledby={headingId}>
      <h2 id={headingId} className="focus-panel-head">
        <button ref={toggleRef} type="button" className="focus-toggle" aria-expanded={open} aria-controls={bodyId} onClick={() => setOpen(!open)}>
          <span aria-hidden="true">{open ? '▾' : '▸'}</span> {t('focus.title')}
          {!open && <span className="muted small focus-preview"> · {preview}</span>}
        </button>
      </h2>
      {open && (
        <div id={bodyId} className="focus-body">
          {wm === undefined ? (
            <p className="muted">{t('common.loading')}</p>
          ) : (
            <>
              {/* What the model noted on another version of the conversation is not this version's (focus.store.ts in the core). */}
              {wm.otherVersion && <p className="notice small">{t('focus.otherVersion')}</p>}
              {focusDraft !== null ? (
                <form onSubmit={(e) => void saveFocus(e)} className="focus-inline-form">
                  <input
                    aria-label={t('focus.focusLabel')}
                    value={focusDraft}
                    autoFocus
                    maxLength={1000}
                    onChange={(e) => setFocusDraft(e.target.value)}
                    onKeyDown={escapeTo(() => setFocusDraft(null))}
                  />
                  <button type="submit" className="primary">
                    {t('common.save')}
                  </button>
                  <button type="button" onClick={() => setFocusDraft(null)}>
                    {t('common.cancel')}
                  </button>
                </form>
              ) : (
                <p className="focus-text">
                  <strong>{t('focus.focusLabel')}:</strong> {wm.focus || <span className="muted">{t('focus.noFocus')}</span>}
                  {wm.focusEditedByUser && <span className="muted small"> · {t('focus.yours')}</span>}{' '}
                  <button type="button" className="icon" aria-label={t('focus.editFocus')} onClick={() => setFocusDraft(wm.focus)}>
                    <PencilIcon />
                  </button>
                </p>
              )}
              <h3 className="small">{t('focus.tasks')}</h3>
              {wm.tasks.length === 0 ? <p className="muted small">{t('focus.noTasks')}</p> : <ul className="focus-tasks">{wm.tasks.map(taskRow)}</ul>}
              <form onSubmit={(e) => void addTask(e)} className="focus-inline-form">
                <input aria-label={t('focus.newTask')} placeholder={t('focus.newTask')} value={newTask} maxLength={500} onChange={(e) => setNewTask(e.target.value)} />
                <button type="submit" disabled={!newTask.trim()}>
                  {t('focus.addTask')}
                </button>
              </form>
              {wm.finished.length > 0 && (
                <>
                  <h3 className="small">{t('focus.finished')}</h3>
                  <ul className="focus-tasks">{wm.finished.map(taskRow)}</ul>
                </>
              )}
              <div className="button-row">
                {confirmClear ? (
                  <>
                    <button ref={confirmRef} type="button" className="danger" onClick={() => void clearAll()}>
                      {t('focus.clearConfirm')}
                    </button>
                    <button
                      type="button"
                      onClick={() => {
                        setConfirmClear(false);
                        setFocusNext('clear');
                      }}
                    >
                      {t('common.cancel')}
                    </button>
                  </>
                ) : (
                  <button
                    ref={clearRef}
                    type="button"
                    onClick={() => {
                      setConfirmClear(true);
                      setFocusNext('confirm');
                    }}
                    disabled={!wm.focus && wm.tasks.length === 0 && wm.finished.length === 0}
                  >
                    {t('focus.clear')}
                  </button>
                )}
              </div>
              <p className="muted small">{t('focus.hint')}</p>
            </>
          )}
          {error && (
            <p className="field-error" role="alert">
              <CoreError error={error} />
            </p>
          )}
        </div>
      )}
    </section>
  );
}
