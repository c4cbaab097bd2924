/**
 * Working memory of a thread: its current focus (one or two sentences) and its active tasks with their state, kept up
 * to date by the background model after each exchange, editable by the user (an edit wins over the model's next
 * update of that field), in the thread's prompt within its own small share. Items expire by importance; finished
 * tasks stay a while as "recently finished". Across threads, `focus.listActive` lists the user's active work.
 */
import { z } from 'zod';
import { Id, Timestamp, operation } from './define';

export const FocusTaskState = z.enum(['open', 'in_progress', 'done']);
export type FocusTaskState = z.output<typeof FocusTaskState>;
/** How long a task is kept without news: low about an hour, normal a day, high a week. */
export const FocusImportance = z.enum(['low', 'normal', 'high']);
export type FocusImportance = z.output<typeof FocusImportance>;

export const FocusTask = z.object({
  id: Id,
  text: z.string(),
  state: FocusTaskState,
  importance: FocusImportance,
  /** The user wrote or edited the text: the model may mark it done, never rewrite it. */
  editedByUser: z.boolean(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  expiresAt: Timestamp,
  /** When it was marked done (null while it is not). */
  finishedAt: Timestamp.nullable(),
});
export type FocusTask = z.output<typeof FocusTask>;

export const WorkingMemory = z.object({
  threadId: Id,
  /** '' when there is none (or it expired). */
  focus: z.string(),
  focusEditedByUser: z.boolean(),
  /** Open and in-progress tasks, oldest first. */
  tasks: z.array(FocusTask),
  /** At most five done tasks, most recently finished first. */
  finished: z.array(FocusTask),
  /** Last write by the model or the user; null: nothing yet. */
  updatedAt: Timestamp.nullable(),
  /**
   * True when what the model wrote was derived from another version of the conversation (an edited question, a version
   * switched away from): it is left out here and from the prompt, only the user's own items stay, and the next exchange
   * rebuilds it from the version shown. Absent otherwise.
   */
  otherVersion: z.boolean().optional(),
});
export type WorkingMemory = z.output<typeof WorkingMemory>;

const TaskText = z.string().trim().min(1, 'A task cannot be empty.').max(500, 'A task is at most 500 characters; keep it to one line.');

/** One edit by the user. */
export const FocusEdit = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('setFocus'), text: z.string().trim().max(1_000, 'The focus is at most 1,000 characters; one or two sentences.') }).strict(),
  z.object({ kind: z.literal('addTask'), text: TaskText }).strict(),
  z.object({ kind: z.literal('editTask'), taskId: Id, text: TaskText.optional(), state: FocusTaskState.optional() }).strict(),
  z.object({ kind: z.literal('removeTask'), taskId: Id }).strict(),
]);
export type FocusEdit = z.output<typeof FocusEdit>;

export const ActiveWork = z.object({
  threadId: Id,
  threadTitle: z.string(),
  focus: z.string(),
  tasks: z.array(FocusTask),
  updatedAt: Timestamp,
});
export type ActiveWork = z.output<typeof ActiveWork>;

export const focusOperations = {
  'focus.get': operation("The thread's working memory (focus and tasks); empty before the first update.", z.object({ threadId: Id }).strict(), WorkingMemory),
  'focus.update': operation(
    "The user's edit of the thread's working memory: set the focus ('' removes it), add, edit, tick or remove a task. The edited field is kept when the model next updates.",
    z.object({ threadId: Id, edit: FocusEdit }).strict(),
    WorkingMemory,
  ),
  'focus.clear': operation('Empties the thread’s working memory (focus and every task); the model starts afresh at the next exchange.', z.object({ threadId: Id }).strict(), WorkingMemory),
  'focus.listActive': operation(
    "The user's active work across threads: each non-incognito thread with a focus or open tasks, most recently updated first.",
    z.object({}).strict(),
    z.array(ActiveWork),
  ),
};

export const focusEvents = {
  'focus.updated': z.object({ workingMemory: WorkingMemory }),
};
