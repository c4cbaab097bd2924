/**
 * The rules of a thread's working memory, as pure functions over its whole state: how the background model's update
 * and the user's edits apply, when items expire, how many finished tasks stay. The store (focus.store.ts) only reads
 * and writes a state; the job and the service call these, so each rule is written once.
 *
 * Invariants (test/unit/focus-rules.test.ts, with a property test):
 * - No two tasks of a thread have the same text (compared case-, width- and space-insensitively): the model naming a
 *   task again, or the user adding one that exists, updates that task.
 * - The user's edit wins: the model never rewrites a focus or a task text the user wrote or edited, and never moves a
 *   user's task back (it may move it forward, e.g. mark it done).
 * - An item past its expiry is gone from the state (not shown, not sent); at most MAX_FINISHED done tasks stay.
 * - Nothing that looks like a secret is written by the model (the caller passes the check).
 */
import type { FocusEdit, FocusImportance, FocusTaskState } from '../../../shared/contract';
import { MnemoError } from '../../../shared/errors';

const HOUR = 3_600_000;
/** How long an item is kept after its last news, by importance: about an hour, a day, a week. */
export const TTL_BY_IMPORTANCE: Record<FocusImportance, number> = { low: HOUR, normal: 24 * HOUR, high: 7 * 24 * HOUR };
/** A focus is kept a week after it was last written or the thread last had an exchange. */
export const FOCUS_TTL_MS = 7 * 24 * HOUR;
/** A done task stays this long after it was finished, as "recently finished". */
export const FINISHED_TTL_MS = 7 * 24 * HOUR;
/** "Recently finished": at most this many done tasks per thread, the most recent. */
export const MAX_FINISHED = 5;
/** Open and in-progress tasks per thread; the model's further new ones are ignored (a small model listing everything). */
export const MAX_ACTIVE_TASKS = 12;
export const MAX_FOCUS_CHARS = 400;
export const MAX_TASK_CHARS = 200;

export interface TaskItem {
  /** null: new, not yet stored. */
  id: number | null;
  text: string;
  state: FocusTaskState;
  importance: FocusImportance;
  editedByUser: boolean;
  createdAt: number;
  updatedAt: number;
  expiresAt: number;
  finishedAt: number | null;
}

export interface FocusState {
  focus: string;
  focusEditedByUser: boolean;
  focusExpiresAt: number | null;
  /** Every live task, done ones included. */
  tasks: TaskItem[];
}

export const EMPTY_STATE: FocusState = { focus: '', focusEditedByUser: false, focusExpiresAt: null, tasks: [] };

/** What the background model said, already read leniently (focus-parse.ts). */
export interface ModelUpdate {
  /** undefined: no news about the focus (a model that leaves it out, or sends it empty, changes nothing). */
  focus?: string;
  tasks: Array<{ ref?: number; text?: string; state?: FocusTaskState; importance?: FocusImportance }>;
}

const STATE_ORDER: Record<FocusTaskState, number> = { open: 0, in_progress: 1, done: 2 };

/** The key two task texts are the same task by. */
export function taskKey(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/[\s\p{P}]+/gu, ' ').trim();
}

function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/gu, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1).trimEnd()}…`;
}

function expiryOf(task: Pick<TaskItem, 'state' | 'importance' | 'finishedAt'>, now: number): number {
  return task.state === 'done' ? (task.finishedAt ?? now) + FINISHED_TTL_MS : now + TTL_BY_IMPORTANCE[task.importance];
}

function withState(task: TaskItem, state: FocusTaskState, now: number): TaskItem {
  const finishedAt = state === 'done' ? (task.state === 'done' ? task.finishedAt : now) : null;
  return { ...task, state, finishedAt };
}

/** The state without expired items, and with at most MAX_FINISHED done tasks (the most recently finished). */
export function liveState(state: FocusState, now: number): FocusState {
  const alive = state.tasks.filter((t) => t.expiresAt > now);
  const finished = alive
    .filter((t) => t.state === 'done')
    .sort((a, b) => (b.finishedAt ?? 0) - (a.finishedAt ?? 0))
    .slice(0, MAX_FINISHED);
  const kept = new Set(finished);
  const focusLive = state.focus !== '' && state.focusExpiresAt !== null && state.focusExpiresAt > now;
  return {
    focus: focusLive ? state.focus : '',
    focusEditedByUser: focusLive && state.focusEditedByUser,
    focusExpiresAt: focusLive ? state.focusExpiresAt : null,
    tasks: alive.filter((t) => t.state !== 'done' || kept.has(t)),
  };
}

/**
 * What of a state still holds on another version of the conversation (message-branches.ts appliesToPath): the user's
 * own focus and tasks (written, edited or ticked by the user), never what the model derived from the messages.
 */
export function userItemsOnly(state: FocusState): FocusState {
  const focusKept = state.focusEditedByUser;
  return {
    focus: focusKept ? state.focus : '',
    focusEditedByUser: focusKept,
    focusExpiresAt: focusKept ? state.focusExpiresAt : null,
    tasks: state.tasks.filter((t) => t.editedByUser),
  };
}

/**
 * Applies the model's update to the state as it is now (read again at commit, so an edit the user made while the
 * model worked is the one the rules protect). `isSecret` rejects text the model may not write.
 */
export function applyModelUpdate(current: FocusState, update: ModelUpdate, now: number, isSecret: (text: string) => boolean): FocusState {
  const state = liveState(current, now);
  const { focusEditedByUser } = state;
  let { focus, focusExpiresAt } = state;
  const proposed = update.focus === undefined ? '' : oneLine(update.focus, MAX_FOCUS_CHARS);
  if (proposed !== '' && !focusEditedByUser && !isSecret(proposed)) {
    focus = proposed;
  }
  // An exchange in the thread keeps its focus alive, the user's included.
  if (focus !== '') focusExpiresAt = now + FOCUS_TTL_MS;

  const tasks = [...state.tasks];
  const indexOfKey = (key: string) => tasks.findIndex((t) => taskKey(t.text) === key);
  for (const item of update.tasks) {
    const text = item.text === undefined ? '' : oneLine(item.text, MAX_TASK_CHARS);
    if (text !== '' && isSecret(text)) continue;
    let at = item.ref === undefined ? -1 : tasks.findIndex((t) => t.id === item.ref);
    if (at < 0 && text !== '') at = indexOfKey(taskKey(text));
    if (at < 0) {
      if (text === '' || taskKey(text) === '') continue;
      if (tasks.filter((t) => t.state !== 'done').length >= MAX_ACTIVE_TASKS && item.state !== 'done') continue;
      const importance = item.importance ?? 'normal';
      const fresh: TaskItem = withState(
        { id: null, text, state: 'open', importance, editedByUser: false, createdAt: now, updatedAt: now, expiresAt: 0, finishedAt: null },
        item.state ?? 'open',
        now,
      );
      tasks.push({ ...fresh, expiresAt: expiryOf(fresh, now) });
      continue;
    }
    const task = tasks[at]!;
    let next: TaskItem = { ...task, updatedAt: now, importance: item.importance ?? task.importance };
    // A new text only for the model's own tasks, and only one that does not turn it into another existing task.
    if (!task.editedByUser && text !== '' && text !== task.text) {
      const other = indexOfKey(taskKey(text));
      if (other < 0 || other === at) next.text = text;
    }
    if (item.state !== undefined && (!task.editedByUser || STATE_ORDER[item.state] >= STATE_ORDER[task.state])) {
      next = withState(next, item.state, now);
    }
    tasks[at] = { ...next, expiresAt: expiryOf(next, now) };
  }
  return liveState({ focus, focusEditedByUser, focusExpiresAt, tasks }, now);
}

/** Applies one user edit. A task the user adds or edits is theirs (editedByUser) and kept a week without news. */
export function applyUserEdit(current: FocusState, edit: FocusEdit, now: number): FocusState {
  const state = liveState(current, now);
  const tasks = [...state.tasks];
  const find = (taskId: number) => {
    const at = tasks.findIndex((t) => t.id === taskId);
    if (at < 0) throw new MnemoError('NOT_FOUND', 'This task is no longer in the working memory (it was removed or expired). Reload the panel.');
    return at;
  };
  switch (edit.kind) {
    case 'setFocus': {
      const focus = oneLine(edit.text, MAX_FOCUS_CHARS);
      return liveState({ ...state, focus, focusEditedByUser: focus !== '', focusExpiresAt: focus === '' ? null : now + FOCUS_TTL_MS }, now);
    }
    case 'addTask': {
      const text = oneLine(edit.text, MAX_TASK_CHARS);
      const at = tasks.findIndex((t) => taskKey(t.text) === taskKey(text));
      const base: TaskItem =
        at >= 0
          ? { ...tasks[at]!, text, state: 'open', finishedAt: null, importance: 'high', editedByUser: true, updatedAt: now }
          : { id: null, text, state: 'open', importance: 'high', editedByUser: true, createdAt: now, updatedAt: now, expiresAt: 0, finishedAt: null };
      const task = { ...base, expiresAt: expiryOf(base, now) };
      if (at >= 0) tasks[at] = task;
      else tasks.push(task);
      return liveState({ ...state, tasks }, now);
    }
    case 'editTask': {
      const at = find(edit.taskId);
      let task: TaskItem = { ...tasks[at]!, editedByUser: true, updatedAt: now };
      if (edit.text !== undefined) {
        const text = oneLine(edit.text, MAX_TASK_CHARS);
        const other = tasks.findIndex((t) => taskKey(t.text) === taskKey(text));
        if (other >= 0 && other !== at) throw new MnemoError('CONFLICT', 'Another task already says this. Edit that one, or remove one of the two.');
        task.text = text;
      }
      if (edit.state !== undefined) task = withState(task, edit.state, now);
      if (task.state !== 'done') task.importance = 'high';
      tasks[at] = { ...task, expiresAt: expiryOf(task, now) };
      return liveState({ ...state, tasks }, now);
    }
    case 'removeTask': {
      tasks.splice(find(edit.taskId), 1);
      return liveState({ ...state, tasks }, now);
    }
  }
}
