/**
 * One chat exchange, as a straight line: store the user message -> act on a request to forget in it (forget-in-chat.ts)
 * -> assemble the prompt under the budget (system
 * text with the custom instructions, memories, summary + recent messages) -> stream the reply from the LLM port, with
 * the memory tools' rounds when they are offered (tool-loop.ts) (message.delta events, partial text saved as it arrives) -> ONE transaction: the final reply, which memories it
 * used, what the model saw (prompt-context.store.ts), and the background jobs it triggers (extraction, summary,
 * title) -> events.
 *
 * The model: the one the request names (chat.send's model, which becomes the thread's model: the user chose it), else
 * the thread's (thread.setModel), else the chatModel setting.
 *
 * Invariants: a reply stopped by the user or cut by an error keeps what was streamed, marked as such; incognito
 * threads never read from or write to long-term memory; thinking is stored apart and never fed back to the model.
 * One reply per thread, each with its own AbortController (chat.stop): within this process by `active`, across the
 * processes on the data folder by the reply's row (reply-writer.ts): inserted as `streaming` with its writer, in the
 * transaction that checked no other writer is alive, its partial text saved every ~750 ms. A process that dies
 * mid-reply leaves `streaming` rows, which the next start, or the next reply in that thread, marks `stopped` with
 * INTERRUPTED once its writer is judged gone. A reply (or its reasoning) that starts to loop is stopped as the user would,
 * marked REPEATING, and kept up to the first copy of what it repeated: the thread's next prompts carry no loop.
 *
 * Inline `<think>` is split by llm/think-splitter.ts (in llm-call.ts); when a reply's first tag is `</think>`, what
 * streamed before it was reasoning: the final result holds it as thinking, the reply is stored from that result, and
 * the renderer takes the stored message on message.completed.
 *
 * Branches (message-branches.ts): chat.edit sends a new version of an earlier question beside the old one,
 * chat.regenerate a new version of an answer beside the old one; both stream like chat.send and keep the old
 * continuation as a branch (thread.switchBranch goes back to it). chat.retry stays the repair of a last reply that
 * failed, was stopped or cut: an empty failed reply is replaced, one with text is kept as an earlier version.
 */
import type { ForgetNotice, Message, MessageAttachment, PromptContext, Settings, Thread } from '../../../shared/contract';
import { MnemoError } from '../../../shared/errors';
import type { SummaryStore } from '../conversation/summary.store';
import type { ThreadsStore } from '../conversation/threads.store';
import type { EventBus } from '../runtime/event-bus';
import type { JobQueue } from '../jobs/job-queue';
import type { ModelRequests } from '../llm/llm-provider';
import type { ChatResult } from '../llm/llm.port';
import type { ModelLane } from '../llm/model-lane';
import type { FocusState } from '../focus/focus-rules';
import type { Clock } from '../ports/clock.port';
import type { Logger } from '../ports/logger.port';
import { estimateTokens, type TokenCalibrator } from '../text/token-estimate';
import { RepetitionGuard } from '../text/repetition';
import type { ThreadService } from '../threads/thread.service';
import type { MemoryRetrievalPort, RetrievedMemory } from '../ports/memory-retrieval.port';
import type { MessagesStore } from '../conversation/messages.store';
import type { PromptContextStore } from './prompt-context.store';
import { createReplyWriters } from './reply-writer';
import { composeUserContent } from '../conversation/attachment-text';
import { assemblePrompt } from './prompt-assembly';
import { summaryIsDue } from './summary.job';
import type { MemoryToolSources } from './memory-tools';
import { createToolAnswerer, ToolTrace } from './tool-loop';
import { userTimeZone } from '../../../shared/time-zone';
import type { MemoryForget } from '../memory/memory-forget';
import { forgetAskedIn } from './forget-in-chat';

export const EXTRACTOR_VERSION = 'v1';

export interface ChatServiceDeps {
  summaries: SummaryStore;
  /** Whether a thread still waits for its automatic title. */
  threadRows: Pick<ThreadsStore, 'needsTitle'>;
  clock: Clock;
  events: EventBus;
  logger: Logger;
  messages: MessagesStore;
  promptContexts: PromptContextStore;
  threads: ThreadService;
  queue: JobQueue;
  calibrator: TokenCalibrator;
  /** Never throws. A user who never chose models gets an installed chat model instead of MODEL_NOT_FOUND (models/). */
  chooseModelsIfUnset: () => Promise<void>;
  /** Every request to a model carries that model's one context window (num_ctx); the budget is computed from it. */
  llm: ModelRequests;
  settings: () => Settings;
  memory: () => MemoryRetrievalPort;
  /** The user's profile for the prompt while it is on (profile/profile.service.ts), else null. */
  profile: () => string | null;
  /** Where the memory tools search (chat/memory-tool-sources.ts). */
  memoryToolSources: () => MemoryToolSources;
  /** The thread's working memory (focus/focus.service.ts): in the prompt, and its update queued after each exchange. */
  workingMemory: { forPrompt(threadId: number, pathEndId: number | null): FocusState | null; afterExchange(threadId: number, replyId: number): void };
  /** Forgetting by asking (memory/memory-forget.ts): a question that asks to forget is acted on before the answer (forget-in-chat.ts). */
  forget: MemoryForget;
  /** The one model's lane (llm/model-lane.ts): an answer holds it, so background work stops and waits. */
  lane: Pick<ModelLane, 'beginChat'>;
}

export interface SendResult {
  threadId: number;
  userMessage: Message;
  assistantMessage: Message;
  memoriesUsed: RetrievedMemory[];
}

const PARTIAL_SAVE_INTERVAL_MS = 750;
/** A reply Mnemo stopped because the model repeated itself (text/repetition.ts): status 'stopped', this error code. */
export const REPEATING = 'REPEATING';

export function createChatService(deps: ChatServiceDeps) {
  const { clock, events, logger, messages, threads, queue, calibrator } = deps;
  const active = new Map<number, AbortController>();
  const writers = createReplyWriters({ clock, logger, messages });
  const answerer = createToolAnswerer({ llm: deps.llm, logger, sources: deps.memoryToolSources });

  async function send(input: {
    threadId?: number | undefined;
    text: string;
    model?: string | undefined;
    incognito?: boolean | undefined;
    attachments?: readonly MessageAttachment[] | undefined;
  }): Promise<SendResult> {
    const thread = input.threadId ? threads.get(input.threadId) : threads.create({ incognito: input.incognito ?? false });
    return reply(thread, { again: 'send again', threadModel: input.model }, () => {
      const attachments = input.attachments ?? [];
      // The stored estimate is the message as a later prompt sends it again: typed text and whole files.
      const estimatedTokens = estimateTokens(composeUserContent(input.text, attachments));
      const userMessage = messages.insert({ threadId: thread.id, role: 'user', content: input.text, status: 'complete', model: null, estimatedTokens, attachments, now: clock.now() });
      return { question: userMessage, asked: true };
    });
  }

  /**
   * Answers the thread's last user message again. A failed reply with no text is replaced; a stopped or cut one (or a
   * failed one with text) stays as an earlier version: what the user read is never deleted.
   */
  async function retry(input: { threadId: number; model?: string | undefined }): Promise<SendResult> {
    const thread = threads.get(input.threadId);
    return reply(thread, { again: 'try again', answerModel: input.model }, () => {
      const last = messages.last(thread.id);
      let userMessage = last;
      if (last?.role === 'assistant') {
        if (last.status === 'complete') throw new MnemoError('CONFLICT', 'The last answer is complete; send a new message instead.');
        if (last.content === '') messages.transaction(() => messages.remove(last.id));
        userMessage = last.parentId ? messages.get(last.parentId) : null;
      }
      if (!userMessage || userMessage.role !== 'user') throw new MnemoError('NOT_FOUND', 'There is no question in this thread to answer again.');
      return { question: userMessage, asked: false };
    });
  }

  /** A new version of an earlier question, beside it (same attachments), answered as chat.send answers. */
  async function edit(input: { messageId: number; text: string; model?: string | undefined }): Promise<SendResult> {
    const original = messages.get(input.messageId);
    if (!original) throw new MnemoError('NOT_FOUND', `Message ${input.messageId} does not exist (its thread may have been deleted).`);
    if (original.role !== 'user') throw new MnemoError('INVALID_INPUT', 'Only your own messages can be edited. To get another answer, regenerate it.');
    const thread = threads.get(original.threadId);
    return reply(thread, { again: 'edit again', threadModel: input.model }, () => {
      const attachments = original.attachments ?? [];
      const estimatedTokens = estimateTokens(composeUserContent(input.text, attachments));
      const userMessage = messages.insert({ threadId: thread.id, role: 'user', content: input.text, status: 'complete', model: null, estimatedTokens, attachments, parentId: original.parentId ?? null, now: clock.now() });
      return { question: userMessage, asked: true };
    });
  }

  /** A new version of an answer, beside it under the same question; model: for this answer only. */
  async function regenerate(input: { messageId: number; model?: string | undefined }): Promise<SendResult> {
    const answer = messages.get(input.messageId);
    if (!answer) throw new MnemoError('NOT_FOUND', `Message ${input.messageId} does not exist (its thread may have been deleted).`);
    const question = answer.role === 'assistant' && answer.parentId ? messages.get(answer.parentId) : null;
    if (question?.role !== 'user') throw new MnemoError('INVALID_INPUT', 'Only an answer to one of your messages can be regenerated. To change a question, edit it.');
    const thread = threads.get(answer.threadId);
    return reply(thread, { again: 'regenerate', answerModel: input.model }, () => ({ question, asked: false }));
  }

  /** Shows another version of a message and the branch under it (message-branches.ts); not while a reply streams there. */
  function switchBranch(input: { messageId: number; version: number }): { threadId: number; leafId: number } {
    const message = messages.get(input.messageId);
    if (!message) throw new MnemoError('NOT_FOUND', `Message ${input.messageId} does not exist (its thread may have been deleted).`);
    if (active.has(message.threadId)) throw new MnemoError('CONFLICT', 'A reply is still being written in this thread. Stop it or wait for it to finish, then switch versions.');
    const { stopped, switched } = messages.transaction(() => ({
      stopped: writers.claim(message.threadId, 'switch versions'),
      switched: messages.branches.switchTo(input.messageId, input.version),
    }));
    emitStopped(stopped);
    events.emit('thread.branchSwitched', switched);
    return switched;
  }

  /** Shows the branch a message is on when it is not the one shown (message-branches.ts reveal); events only on a switch. */
  function showMessage(input: { messageId: number }): { threadId: number; leafId: number; switched: boolean } {
    const message = messages.get(input.messageId);
    if (!message) throw new MnemoError('NOT_FOUND', `Message ${input.messageId} does not exist (its thread may have been deleted).`);
    let stopped: Message[] = [];
    const shown = messages.transaction(() => {
      const onPath = messages.branches.isOnPath(message.id, messages.branches.leaf(message.threadId));
      // Refused only when it would change the branch under a reply being written; a message already shown just opens.
      if (!onPath && active.has(message.threadId)) {
        throw new MnemoError('CONFLICT', 'A reply is still being written in this thread, and this message is on another version. Stop the reply or wait for it to finish, then open it again.');
      }
      if (!onPath) stopped = writers.claim(message.threadId, 'open it again');
      return messages.branches.reveal(message.id);
    });
    emitStopped(stopped);
    if (shown.switched) events.emit('thread.branchSwitched', { threadId: shown.threadId, leafId: shown.leafId });
    return shown;
  }

  /**
   * Writes one reply in the thread, refused (CONFLICT) while another is being written there: by this process
   * (`active`), or by another one (reply-writer.ts). `start` stores what the reply answers (a new question, a failed
   * reply removed) in the same transaction as the check and the reply's 'streaming' row, so no other process can slip
   * in between. threadModel: the thread's model from now on (send, edit); answerModel: this answer's only.
   */
  async function reply(
    target: Thread,
    how: { again: string; threadModel?: string | undefined; answerModel?: string | undefined },
    start: () => { question: Message; asked: boolean },
  ): Promise<SendResult> {
    const threadId = target.id;
    let thread = target;
    if (active.has(threadId)) throw new MnemoError('CONFLICT', `A reply is still being written in this thread. Stop it or wait for it to finish, then ${how.again}.`);
    // Checked before anything changes (the thread's model, the model lane); again below, with the reply's row.
    emitStopped(writers.claim(threadId, how.again));
    if (how.threadModel !== undefined && how.threadModel !== thread.model) thread = threads.setModel(threadId, how.threadModel);
    const controller = new AbortController();
    active.set(threadId, controller);
    // From the start, not only around the model request: retrieval and prompt assembly are when a running background
    // request should already be stopping, so the model is free by the time the prompt goes out.
    const release = deps.lane.beginChat(threadId);
    try {
      await deps.chooseModelsIfUnset();
      const settings = deps.settings();
      const model = how.answerModel ?? thread.model ?? settings.chatModel;
      const started = messages.transaction(() => {
        const stopped = writers.claim(threadId, how.again);
        const { question, asked } = start();
        const assistant = messages.insert({ threadId, role: 'assistant', content: '', status: 'streaming', model, estimatedTokens: 0, parentId: question.id, writer: writers.owner, now: clock.now() });
        return { stopped, question, asked, assistant };
      });
      emitStopped(started.stopped);
      if (started.asked) events.emit('message.created', { message: started.question });
      events.emit('message.created', { message: started.assistant });
      const stopBeating = writers.keepAlive(started.assistant.id);
      try {
        return await exchange(thread, started.question, started.asked, started.assistant, model, settings, controller);
      } finally {
        stopBeating();
      }
    } finally {
      release();
      active.delete(threadId);
    }
  }

  /** Replies another process left unfinished when it ended, now stopped: shown as such wherever the thread is open. */
  function emitStopped(stopped: readonly Message[]): void {
    for (const message of stopped) events.emit('message.completed', { message, memoriesUsed: [] });
  }

  /** asked: the question was just asked (send, edit), not answered again: only then is a request to forget acted on. */
  async function exchange(thread: Thread, userMessage: Message, asked: boolean, assistant: Message, model: string, settings: Settings, controller: AbortController): Promise<SendResult> {
    const { id: threadId, incognito } = thread;
    const forgets: ForgetNotice[] = [];
    let content = '';
    let thinking = '';
    let memoriesUsed: RetrievedMemory[] = [];
    let result: ChatResult | null = null;
    let failure: MnemoError | null = null;
    let promptEstimate = 0;
    let context: PromptContext | null = null;
    let replyCap: number | null = null;
    const trace = new ToolTrace();
    // A reply or its reasoning that loops is stopped, and kept up to its loop's first copy (text/repetition.ts).
    const guards = { content: new RepetitionGuard(), thinking: new RepetitionGuard() };
    const loops: { content: number | null; thinking: number | null } = { content: null, thinking: null };
    try {
      let lastSave = clock.now();
      const forgot = asked && !incognito && settings.memoryMode !== 'off' ? await forgetAskedIn(deps.forget, userMessage) : null;
      if (forgot) forgets.push(forgot.notice);
      result = await answerer.answer({
        model,
        settings,
        threadId,
        incognito,
        userMessageId: userMessage.id,
        timeZone: userTimeZone(settings.timeZone),
        now: clock.now(),
        signal: controller.signal,
        forgotten: forgot !== null,
        firstChunkTimeoutMs: settings.modelLoadTimeoutSeconds * 1000,
        trace,
        assemble: async (access) =>
          assemblePrompt(
            { summaries: deps.summaries, messages, memory: deps.memory(), calibrator, profile: deps.profile, workingMemory: deps.workingMemory.forPrompt },
            { threadId, userMessage, incognito, threadInstructions: thread.instructions, contextWindow: await deps.llm.contextWindow(model), settings, now: clock.now(), access, note: forgot?.note ?? null },
          ),
        onAssembled: (assembled) => {
          context = { model, ...assembled.context };
          memoriesUsed = assembled.memoriesUsed;
          promptEstimate = assembled.rawTokens;
        },
        onReplyCap: (cap) => {
          replyCap = cap;
        },
        onSearch: ({ tool, query }) => events.emit('message.searchStarted', { threadId, messageId: assistant.id, tool, query }),
        onChunk: (chunk) => {
          content += chunk.content;
          thinking += chunk.thinking;
          loops.content ??= guards.content.push(chunk.content);
          loops.thinking ??= guards.thinking.push(chunk.thinking);
          if ((loops.content !== null || loops.thinking !== null) && !controller.signal.aborted) controller.abort();
          events.emit('message.delta', { threadId, messageId: assistant.id, content: chunk.content, thinking: chunk.thinking });
          if (clock.now() - lastSave >= PARTIAL_SAVE_INTERVAL_MS) {
            lastSave = clock.now();
            messages.savePartial(assistant.id, content, thinking, lastSave);
          }
        },
      });
    } catch (e) {
      failure = e instanceof MnemoError ? e : new MnemoError('INTERNAL', 'The reply failed unexpectedly.', { cause: e });
      if (!(e instanceof MnemoError)) logger.error('chat failed unexpectedly', { thread: threadId, error: (e as Error).message });
    }

    // What the memory tools found counts as used (its search's reason), and the context lists the searches.
    memoriesUsed = [...memoriesUsed, ...trace.memories.filter((m) => !memoriesUsed.some((u) => u.memoryId === m.memoryId))];
    // Set by onAssembled, inside a callback: the compiler cannot see it.
    const assembledContext = context as PromptContext | null;
    forgets.push(...trace.forgets);
    if (assembledContext) context = { ...assembledContext, tools: { offered: assembledContext.tools.offered, searches: trace.searches, refused: trace.refused }, replyCap, forgets };
    if (result && promptEstimate > 0 && result.promptTokens) calibrator.observe(promptEstimate, result.promptTokens);
    const looped = loops.content !== null || loops.thinking !== null;
    const stopped = looped || result?.doneReason === 'aborted' || failure?.code === 'ABORTED';
    const finalContent = (loops.content !== null ? content.slice(0, loops.content) : (result?.content ?? content)).trim();
    const finalThinking = loops.thinking !== null ? thinking.slice(0, loops.thinking).trim() : (result?.thinking ?? thinking);
    const status: Message['status'] = stopped ? 'stopped' : failure ? 'error' : result?.doneReason === 'length' ? 'truncated' : 'complete';

    const finished = messages.transaction(() => {
      const message = messages.finish(
        assistant.id,
        threadId,
        {
          content: finalContent,
          thinking: finalThinking,
          status,
          errorCode: looped ? REPEATING : stopped ? null : (failure?.code ?? null),
          estimatedTokens: estimateTokens(finalContent),
          promptTokens: result?.promptTokens ?? null,
          completionTokens: result?.completionTokens ?? null,
          totalDurationMs: result?.totalDurationMs ?? null,
          loadDurationMs: result?.loadDurationMs ?? null,
          evalDurationMs: result?.evalDurationMs ?? null,
        },
        clock.now(),
      );
      // Kept for a failed answer too: what the model was sent is how the user understands the failure.
      if (context) deps.promptContexts.save(message.id, context);
      if (status === 'error') return message;
      if (memoriesUsed.length > 0) deps.memory().recordUse(message.id, memoriesUsed);
      // A request to forget is never learned from: the sentence is not a fact, and what it named is in the trash.
      enqueueFollowUps(threadId, incognito, userMessage, message, forgets.length === 0);
      return message;
    });
    events.emit('message.completed', {
      message: finished,
      memoriesUsed,
      ...(trace.searches.length > 0 ? { toolSearches: trace.searches } : {}),
      ...(forgets.length > 0 ? { forgets } : {}),
      ...(context && context.recalled.episodes.length > 0 ? { recalled: context.recalled.episodes } : {}),
    });

    if (failure && failure.code !== 'ABORTED') throw failure;
    return { threadId, userMessage, assistantMessage: finished, memoriesUsed };
  }

  /** Inside the reply's transaction: a crash can neither lose these jobs nor run them for a reply that was not stored. */
  function enqueueFollowUps(threadId: number, incognito: boolean, user: Message, reply: Message, learn: boolean): void {
    const settings = deps.settings();
    if (learn && !incognito && settings.memoryMode !== 'off' && reply.content) {
      queue.enqueue({
        kind: 'extract',
        idempotencyKey: `extract:${reply.id}:${EXTRACTOR_VERSION}`,
        threadId,
        messageId: reply.id,
        payload: { userMessageId: user.id, assistantMessageId: reply.id },
      });
    }
    if (reply.content && deps.threadRows.needsTitle(threadId)) {
      queue.enqueue({ kind: 'title', idempotencyKey: `title:${threadId}`, threadId, payload: { userMessageId: user.id, assistantMessageId: reply.id } });
    }
    if (reply.content) deps.workingMemory.afterExchange(threadId, reply.id);
    if (summaryIsDue(deps.summaries, messages.branches, threadId, settings.summary)) {
      queue.enqueue({ kind: 'summarize', idempotencyKey: `summarize:${threadId}:${reply.id}`, threadId, payload: { upToMessageId: reply.id } });
    }
  }

  return {
    send,
    retry,
    edit,
    regenerate,
    switchBranch,
    showMessage,
    stop(threadId: number): boolean {
      const c = active.get(threadId);
      if (!c) return false;
      c.abort();
      return true;
    },
    stopAll(): void {
      for (const c of active.values()) c.abort();
    },
    hasActive: () => active.size > 0,
    /** At start: replies left unfinished by processes that ended are marked stopped (reply-writer.ts). */
    recoverInterrupted: () => writers.recoverInterrupted(),
  };
}

export type ChatService = ReturnType<typeof createChatService>;
