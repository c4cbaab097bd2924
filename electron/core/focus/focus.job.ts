/**
 * Updating a thread's working memory after its exchanges, as a background job (`focus`). Each exchange queues a job;
 * while the user is chatting in the thread they wait until FOCUS_STRETCH of them have gathered (or the user pauses for
 * longer than usual, or goes to another thread), at any speed of the model and from the user's first keystroke (their
 * pause assumed until the lane knows it: job-queue.ts patientFromFirstKeystroke): the prompt carries the newest
 * messages word for word meanwhile, so an update per exchange would spend model time on what the next prompt has
 * anyway. The jobs of a thread then run as one (handler.batch), which reads the exchanges after the last message the
 * working memory was updated through, the current focus and tasks, and asks the background model for an update as JSON;
 * the update is applied at commit to the state as it is then (focus-rules.ts: the user's edit made while the model
 * worked wins). An exchange that finished while it ran has its own job, queued again by the commit if need be.
 *
 * It reads the conversation shown: the active path's messages (conversation/message-branches.ts), never an edited-away
 * question or a version switched from. When the stored state was derived from another version (focus.store.ts
 * readForPath), the update starts again from the user's own items and reads this path's newest messages: the rebuild
 * costs the call this exchange makes anyway, and a switch of versions costs none.
 *
 * Incognito threads get a working memory too: it is the thread's own, like its summary; it never reaches long-term
 * memory, other threads' prompts or the cross-thread "Active work" list (focus.store.ts).
 */
import type { Settings } from '../../../shared/contract';
import { fitToTokensKeepingEnds, MESSAGE_OVERHEAD_TOKENS } from '../llm/context-budget';
import type { MessageBranches } from '../conversation/message-branches';
import { isReadable } from '../conversation/readable-message';
import type { EventBus } from '../runtime/event-bus';
import { modelTextSecretCheck } from '../safety/secret-detector';
import type { JobHandler } from '../jobs/job-queue';
import type { BackgroundModel } from '../llm/background-model';
import type { Clock } from '../ports/clock.port';
import { isTrivial } from '../text/small-talk';
import { DATA_NOT_INSTRUCTIONS, fenced } from '../text/data-fence';
import { estimateTokens } from '../text/token-estimate';
import { applyModelUpdate, liveState, type FocusState, type ModelUpdate } from './focus-rules';
import { parseFocusUpdate } from './focus-parse';
import type { FocusStore } from './focus.store';

/**
 * Exchanges one update waits for while the user chats (job-queue.ts patience), and reads at most: five, the stretch a
 * thread summary waits for by default (settings.summary, ten messages). Until then the chat's prompt carries every
 * message the update would read, word for word, so an earlier update buys the chat nothing (issue 25: at three, the
 * GPU laptop spent 2.7 s per exchange on the working memory, at five 1.9 s).
 */
const FOCUS_STRETCH = 5;
/** The newest messages one update reads; older unread ones are past news. */
const MAX_MESSAGES = 2 * FOCUS_STRETCH;
/** Jobs of one thread claimed as one update: every exchange waiting, however many the user sent meanwhile. */
const MAX_JOBS_PER_UPDATE = 50;
/**
 * What one update may carry, as the prompt asks for it (and the answer's room below is sized for): a focus of one or
 * two sentences and a few short tasks, one per exchange of the stretch. Chinese says as much in fewer characters
 * ("Book a hotel in Porto", 21; "预订波尔图的酒店", 8), so its limits are smaller in characters and larger in tokens.
 * The stored texts may be longer (focus-rules.ts MAX_FOCUS_CHARS, MAX_TASK_CHARS: the user's own edits).
 */
export const UPDATE_LIMITS = { focusChars: 200, focusCjkChars: 80, taskChars: 80, taskCjkChars: 30, tasks: FOCUS_STRETCH } as const;
/** The shape line's example texts: a small model copies them ("short task" in a loop), and they are never news. */
const SHAPE_EXAMPLE = { focus: 'one or two sentences', task: 'short task' } as const;

/**
 * Room for the model's answer (num_predict): a full update in the costlier script, and no more, since a small model
 * that loops (Gemma 3 270M repeated `{"id": n, "text": "short task"}`) writes until this cap, at 100 ms a token on a
 * CPU laptop. Computed, not guessed: estimateTokens (text/token-estimate.ts: a Chinese character 1 token, English about
 * 4 characters a token) of the JSON of a focus and UPDATE_LIMITS.tasks tasks at their Chinese limits, laid out on one
 * line as the prompt's shape shows, each task with every field (a seven-digit id, the longest state and importance
 * words): the focus in its frame 90 tokens, each task 61 (30 of text), 391 in all (English at its limits: about 310;
 * test/unit/focus-answer-cap.test.ts). A loop then stops after about 26 copies of the example, not 43. A model that
 * indents its JSON, or a vocabulary that spends more than a token on a Chinese character, has its last task cut at the
 * limits: the parser drops an unfinished task whole (focus-parse.ts), and shorter texts leave room for it.
 */
export const FOCUS_ANSWER_TOKENS = estimateTokens(
  `{"focus": "${'字'.repeat(UPDATE_LIMITS.focusCjkChars)}", "tasks": [${Array.from(
    { length: UPDATE_LIMITS.tasks },
    () => `{"id": 1000000, "text": "${'字'.repeat(UPDATE_LIMITS.taskCjkChars)}", "state": "in_progress", "importance": "normal"}`,
  ).join(', ')}]}`,
);
/** The share of the background model's window the messages may take by estimate. */
const MESSAGES_SHARE = 0.6;

export interface FocusMessage {
  id: number;
  role: 'user' | 'assistant';
  content: string;
}

/** JSON schema for Ollama's structured output; the parser does not rely on it (not every server enforces it). */
export const FOCUS_ANSWER_SCHEMA = {
  type: 'object',
  properties: {
    focus: { type: 'string' },
    tasks: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          text: { type: 'string' },
          state: { type: 'string', enum: ['open', 'in_progress', 'done'] },
          importance: { type: 'string', enum: ['low', 'normal', 'high'] },
        },
        required: ['text', 'state'],
      },
    },
  },
  required: ['focus', 'tasks'],
} as const;

export function focusPrompt(input: { state: FocusState; messages: FocusMessage[] }): string {
  const { state } = input;
  const tasks = state.tasks.map((t) => `- id ${t.id}: (${t.state}, ${t.importance}) ${t.text}`);
  const transcript = input.messages.map((m) => `${m.role === 'user' ? 'User' : 'Assistant'}: ${m.content}`).join('\n\n');
  return [
    "You keep the working memory of one conversation for a personal assistant: what the user is working on right now (the focus) and the user's active tasks.",
    'Read the latest messages below and reply with JSON only, in this shape:',
    `{"focus": "${SHAPE_EXAMPLE.focus}", "tasks": [{"id": 3, "text": "${SHAPE_EXAMPLE.task}", "state": "open | in_progress | done", "importance": "low | normal | high"}]}`,
    `- focus: what the user is working on now, at most ${UPDATE_LIMITS.focusChars} characters (${UPDATE_LIMITS.focusCjkChars} in Chinese, Japanese or Korean); repeat the current one if it has not changed.`,
    `- tasks: only tasks that are new, changed, or still being worked on in these messages, at most ${UPDATE_LIMITS.tasks} (the most important); leave out the others (they stay as they are). Give the id of a known task; leave it out for a new one. At most ${UPDATE_LIMITS.taskChars} characters each (${UPDATE_LIMITS.taskCjkChars} in Chinese, Japanese or Korean).`,
    '- state "done" when the user says it is finished or no longer needed. importance: high for what matters for days, low for a passing detail.',
    '- Only what the user actually wants to do; no tasks for small talk. Never copy passwords, keys, codes or other secrets.',
    '- Write the texts in the language the user writes in.',
    DATA_NOT_INSTRUCTIONS,
    '',
    // The focus and the tasks were written by the model or the user: data too.
    `Current focus:\n${fenced(state.focus || '(none)')}`,
    `Known tasks:\n${fenced(tasks.length ? tasks.join('\n') : '(none)')}`,
    '',
    `Latest messages:\n${fenced(transcript)}`,
  ].join('\n');
}

/** The update without what only copies the shape line's examples: a small model's loop repeats them, and they say nothing. */
export function withoutShapeExample(update: ModelUpdate): ModelUpdate {
  const copied = (text: string | undefined, example: string) => text !== undefined && text.trim().toLowerCase() === example;
  const tasks = update.tasks.filter((t) => !copied(t.text, SHAPE_EXAMPLE.task));
  return copied(update.focus, SHAPE_EXAMPLE.focus) ? { tasks } : { ...update, tasks };
}

type FocusEnqueue = (input: { kind: 'focus'; idempotencyKey: string; threadId: number; payload: { afterMessageId: number } }) => number;

/** enqueue: the queue's (a plain INSERT, so the follow-up commits with this job's write). */
export function createFocusJob(deps: { branches: MessageBranches; clock: Clock; events: EventBus; model: BackgroundModel; settings: () => Settings; store: FocusStore; enqueue: FocusEnqueue }): JobHandler {
  const { branches, clock, events, store } = deps;
  /** The newest messages of the path ending at `leaf` written after `after` (ids grow down a path), oldest first. */
  const unread = (leaf: number | null, after: number): FocusMessage[] => {
    const out: FocusMessage[] = [];
    for (const r of branches.pathUp<{ id: number; parent_id: number | null; role: string; content: string; status: string }>(leaf)) {
      if (r.id <= after || out.length >= MAX_MESSAGES) break;
      if (isReadable(r)) out.push({ id: r.id, role: r.role as FocusMessage['role'], content: r.content });
    }
    return out.reverse();
  };
  return {
    kind: 'focus',
    usesModel: true,
    // A job per exchange; mid-conversation they wait for a stretch (see the header), and one request covers them all.
    patience: FOCUS_STRETCH,
    patienceAtAnySpeed: true,
    patientFromFirstKeystroke: true,
    batch: MAX_JOBS_PER_UPDATE,
    async run({ job, signal }) {
      const settings = deps.settings();
      const threadId = job.threadId;
      if (!settings.workingMemoryEnabled || threadId === null) return null;
      // The state as it applies to the version shown; another version's reads as nothing read (payload.afterMessageId
      // is only the job's key: the store says what was read, and on which path).
      const leaf = branches.leaf(threadId);
      const base = store.readForPath(threadId, clock.now(), leaf);
      const messages = unread(leaf, base.throughMessageId);
      if (messages.length === 0) return null;
      const through = messages.at(-1)!.id;
      const state = liveState(base.state, clock.now());
      // An answer finished on the version shown after what this run read: its exchange gets the next update.
      const followUp = () => {
        for (const r of branches.pathUp<{ id: number; parent_id: number | null; role: string; status: string }>(branches.leaf(threadId))) {
          if (r.id <= through) return;
          if (r.role === 'assistant' && r.status !== 'streaming') return enqueueFocusUpdate(deps.enqueue, threadId, through, r.id);
        }
      };
      /** At commit: the state this run read from is still the one for the version shown, and what it read is on it. */
      const current = () => {
        const now = clock.now();
        const leafNow = branches.leaf(threadId);
        const shown = store.readForPath(threadId, now, leafNow);
        return shown.throughMessageId === base.throughMessageId && branches.isOnPath(through, leafNow) ? shown : null;
      };
      // Small talk sets no focus and starts no task; with none open it cannot finish one either: no model call.
      if (!state.tasks.some((t) => t.state !== 'done') && messages.every((m) => m.role !== 'user' || isTrivial(m.content))) {
        return () => {
          const shown = current();
          // Read on the same version: only the mark moves. A rebuild: the user's items, read through here.
          if (shown && shown.throughMessageId === store.read(threadId).throughMessageId) store.markRead(threadId, through, clock.now());
          else if (shown) store.save(threadId, shown.state, clock.now(), through);
          followUp();
        };
      }

      const frame = estimateTokens(focusPrompt({ state, messages: [] }));
      const room = Math.floor(((await deps.model.contextWindow()) - FOCUS_ANSWER_TOKENS - MESSAGE_OVERHEAD_TOKENS - frame) * MESSAGES_SHARE);
      const each = Math.max(32, Math.floor(room / messages.length));
      const fitted = messages.map((m) => ({ ...m, content: fitToTokensKeepingEnds(m.content, each, estimateTokens) }));
      const { text } = await deps.model.ask({
        purpose: 'focus',
        messages: [{ role: 'user', content: focusPrompt({ state, messages: fitted }) }],
        format: FOCUS_ANSWER_SCHEMA,
        answerTokens: FOCUS_ANSWER_TOKENS,
        exchanges: Math.max(1, messages.filter((m) => m.role === 'user').length),
        signal,
      });
      const update = withoutShapeExample(parseFocusUpdate(text));
      // A secret never enters the working memory: one that looks like one, or repeats one the user wrote.
      const isSecret = modelTextSecretCheck(messages.filter((m) => m.role === 'user').map((m) => m.content).join('\n'));

      return (tx) => {
        const now = clock.now();
        const shown = current();
        if (!shown) return followUp(); // another run got here first, or the user switched versions meanwhile
        const next = applyModelUpdate(shown.state, update, now, isSecret);
        store.save(threadId, next, now, through);
        store.dropExpired(now);
        followUp();
        // Read back: the new tasks' ids exist only once they are stored.
        const workingMemory = store.get(threadId, now);
        tx.afterCommit(() => events.emit('focus.updated', { workingMemory }));
      };
    },
  };
}

/**
 * The one way a focus job is queued: one per exchange (`replyId`, its answer), so the queue can count a stretch of
 * them (patience). The payload records the message the working memory was updated through when it was queued; what
 * a run reads is decided at run time (focus.store.ts).
 */
export function enqueueFocusUpdate(enqueue: FocusEnqueue, threadId: number, throughMessageId: number, replyId: number): void {
  enqueue({ kind: 'focus', idempotencyKey: `focus:${threadId}:${replyId}`, threadId, payload: { afterMessageId: throughMessageId } });
}
