/**
 * Messages per thread, live: thread.messages for what is stored, then message.created / delta / searchStarted /
 * completed events while replies stream. Also the composer drafts, the last send error per thread (its message is only in the
 * chat.send envelope; the stored reply keeps just the code), and the thread summaries. A thread shows one branch
 * (electron/core/chat/message-branches.ts): an edit or a regenerate cuts the view at the message it replaces, a
 * switch of version reads the thread again in place of what was shown.
 */
import { create } from 'zustand';
import type { EpisodeRef, ForgetNotice, Message, MessageAttachment, ThreadSummary, ToolSearch } from '../../../shared/contract';
import type { Client } from '../../../shared/client';
import type { ErrorInfo, Result } from '../../../shared/errors';
import { useAppStore } from '../app/app.store';
import { applyDelta, branchFrom, mergeOlder, retryableReply, upsertMessage, type MemoryUse } from './chat-merge';
import { createTypingHint } from './typing-hint';
import { useStatusStore } from '../status/status.store';
import { notConnected } from '../app/not-connected';

export interface ThreadChat {
  messages: Message[];
  /** "Memories used" receipts by answer id. */
  receipts: Record<number, MemoryUse[]>;
  /** The searches the model ran with the memory tools, by answer id. */
  searches: Record<number, ToolSearch[]>;
  /** Requests to forget handled for an answer (ForgetNotices.tsx), by answer id. */
  forgets: Record<number, ForgetNotice[]>;
  /** The episodes of the question's time an answer's prompt carried (recall by time), by answer id. */
  recalled: Record<number, EpisodeRef[]>;
  hasMore: boolean;
  loaded: boolean;
  loadingOlder: boolean;
  /** A chat.send or chat.retry of this thread is in flight. */
  sending: boolean;
  /** The text being sent, shown until the stored user message arrives. */
  pendingText: string | null;
  /** The last failure of a send or retry, with the message the core gave. */
  error: ErrorInfo | null;
  /** A memory tool search running for the answer being written (message.searchStarted), until its text goes on. */
  searching?: { messageId: number; tool: 'search_memory' | 'search_conversations'; query: string } | null;
}

const PAGE_SIZE = 200;

/** A thread.messages page's receipts, by answer id: the memories used, the searches run, the forgets handled, the episodes recalled. */
function receiptsOf(page: ReadonlyArray<{ messageId: number; memories: MemoryUse[]; searches?: ToolSearch[] | undefined; forgets?: ForgetNotice[] | undefined; recalled?: EpisodeRef[] | undefined }>) {
  const receipts: Record<number, MemoryUse[]> = {};
  const searches: Record<number, ToolSearch[]> = {};
  const forgets: Record<number, ForgetNotice[]> = {};
  const recalled: Record<number, EpisodeRef[]> = {};
  for (const r of page) {
    if (r.memories.length > 0) receipts[r.messageId] = r.memories;
    if (r.searches && r.searches.length > 0) searches[r.messageId] = r.searches;
    if (r.forgets && r.forgets.length > 0) forgets[r.messageId] = r.forgets;
    if (r.recalled && r.recalled.length > 0) recalled[r.messageId] = r.recalled;
  }
  return { receipts, searches, forgets, recalled };
}

export const emptyThreadChat: ThreadChat = Object.freeze({
  messages: [],
  receipts: {},
  searches: {},
  forgets: {},
  recalled: {},
  hasMore: false,
  loaded: false,
  loadingOlder: false,
  sending: false,
  pendingText: null,
  error: null,
}) as ThreadChat;

interface ChatState {
  client: Client | null;
  threads: Record<number, ThreadChat>;
  drafts: Record<number, string>;
  summaries: Record<number, ThreadSummary | null>;
  /**
   * Where keyboard focus goes once a version appears (an edit, a regenerate or a switch replaces the message that held
   * it): the ‹ or › button of version `index` among the messages following `parentId` (VersionSwitcher takes it).
   */
  versionFocus: VersionFocus | null;
  setVersionFocus(focus: VersionFocus | null): void;
  init(client: Client): void;
  /** replace: show the page as it is (another branch), instead of merging what is already shown into it. */
  load(threadId: number, opts?: { replace?: boolean }): Promise<void>;
  loadOlder(threadId: number): Promise<void>;
  reloadLoaded(): Promise<void>;
  setDraft(threadId: number, text: string): void;
  /** The user typed `draft` in the composer: a hint to the core, at most once a second (typing-hint.ts). Never fails. */
  typing(draft: string): void;
  /** attachments: files already read as text (renderer/src/attachments/read-attachment.ts). Resolves true when the message was stored. */
  send(threadId: number, text: string, attachments?: MessageAttachment[]): Promise<boolean>;
  retry(threadId: number): Promise<void>;
  /** Sends a new version of one of the user's messages; resolves true when it was stored. */
  edit(threadId: number, messageId: number, text: string): Promise<boolean>;
  /** A new version of an answer; the old one stays as a version. */
  regenerate(threadId: number, messageId: number): Promise<void>;
  /** Shows version `version` (1-based) of a message and what followed it. */
  switchVersion(threadId: number, messageId: number, version: number): Promise<void>;
  /**
   * Makes a message part of the conversation shown before it is opened (a memory's source, a search hit): a message
   * on another version switches the thread to it (thread.showMessage) and the thread is read again.
   */
  reveal(messageId: number): Promise<void>;
  stop(threadId: number): Promise<void>;
  dismissError(threadId: number): void;
  loadSummary(threadId: number): Promise<void>;
  saveSummary(threadId: number, content: string): Promise<Result<ThreadSummary>>;
}

export interface VersionFocus {
  threadId: number;
  parentId: number | null;
  index: number;
  control: 'previous' | 'next';
}

export const useChatStore = create<ChatState>((set, get) => {
  /**
   * Deltas are applied at most once per animation frame: a fast model sends dozens per second and each one would
   * otherwise re-render the whole answer's markdown.
   */
  const pendingDeltas = new Map<number, { threadId: number; content: string; thinking: string }>();
  let flushScheduled = false;

  function flushDeltas(): void {
    flushScheduled = false;
    if (pendingDeltas.size === 0) return;
    const deltas = [...pendingDeltas.entries()];
    pendingDeltas.clear();
    set((s) => {
      const threads = { ...s.threads };
      for (const [messageId, d] of deltas) {
        const chat = threads[d.threadId];
        if (chat) threads[d.threadId] = { ...chat, messages: applyDelta(chat.messages, messageId, d.content, d.thinking) };
      }
      return { threads };
    });
  }

  function scheduleFlush(): void {
    if (flushScheduled) return;
    flushScheduled = true;
    if (typeof requestAnimationFrame === 'function' && document.visibilityState === 'visible') requestAnimationFrame(flushDeltas);
    else setTimeout(flushDeltas, 50);
  }

  function patch(threadId: number, update: (chat: ThreadChat) => Partial<ThreadChat>): void {
    set((s) => {
      const chat = s.threads[threadId] ?? emptyThreadChat;
      return { threads: { ...s.threads, [threadId]: { ...chat, ...update(chat) } } };
    });
  }

  function absorb(message: Message, memoriesUsed?: MemoryUse[], toolSearches?: ToolSearch[], forgets?: ForgetNotice[], recalled?: EpisodeRef[]): void {
    if (!get().threads[message.threadId]) return; // not shown: loaded fresh when opened
    // Buffered text of this message is older than a finished message; applied text would double it.
    if (message.status !== 'streaming') pendingDeltas.delete(message.id);
    patch(message.threadId, (chat) => ({
      messages: upsertMessage(chat.messages, message),
      ...(message.status !== 'streaming' && chat.searching?.messageId === message.id ? { searching: null } : {}),
      ...(message.role === 'user' && chat.pendingText !== null ? { pendingText: null } : {}),
      ...(memoriesUsed && memoriesUsed.length > 0 ? { receipts: { ...chat.receipts, [message.id]: memoriesUsed } } : {}),
      ...(toolSearches && toolSearches.length > 0 ? { searches: { ...chat.searches, [message.id]: toolSearches } } : {}),
      ...(forgets && forgets.length > 0 ? { forgets: { ...chat.forgets, [message.id]: forgets } } : {}),
      ...(recalled && recalled.length > 0 ? { recalled: { ...chat.recalled, [message.id]: recalled } } : {}),
    }));
  }

  type ExchangeResult = Result<{ userMessage: Message; assistantMessage: Message; memoriesUsed: MemoryUse[] }>;

  async function exchange(threadId: number, call: () => Promise<ExchangeResult>): Promise<void> {
    patch(threadId, () => ({ sending: true, error: null }));
    const result = await call();
    if (result.ok) {
      absorb(result.value.userMessage);
      absorb(result.value.assistantMessage, result.value.memoriesUsed);
      patch(threadId, () => ({ sending: false, pendingText: null }));
      return;
    }
    patch(threadId, (chat) => ({
      sending: false,
      error: result.error,
      // The text comes back to the composer when the core did not even store the question.
      ...(chat.pendingText !== null ? { pendingText: null } : {}),
    }));
    // The status bar follows: a failure before the reply existed has no message.completed (status.store.ts).
    useStatusStore.getState().recheckAfterFailure(result.error.code);
  }

  return {
    client: null,
    threads: {},
    drafts: {},
    summaries: {},
    versionFocus: null,
    setVersionFocus: (versionFocus) => set({ versionFocus }),

    init(client) {
      set({ client });
      client.on('message.created', ({ message }) => absorb(message));
      client.on('message.delta', ({ threadId, messageId, content, thinking }) => {
        if (!get().threads[threadId]) return;
        // The answer goes on: the search it waited for is done.
        if (content && get().threads[threadId]?.searching) patch(threadId, () => ({ searching: null }));
        const buffered = pendingDeltas.get(messageId);
        pendingDeltas.set(messageId, { threadId, content: (buffered?.content ?? '') + content, thinking: (buffered?.thinking ?? '') + thinking });
        scheduleFlush();
      });
      client.on('message.searchStarted', ({ threadId, messageId, tool, query }) => {
        if (get().threads[threadId]) patch(threadId, () => ({ searching: { messageId, tool, query } }));
      });
      client.on('message.completed', ({ message, memoriesUsed, toolSearches, forgets, recalled }) => absorb(message, memoriesUsed, toolSearches, forgets, recalled));
      client.on('thread.branchSwitched', ({ threadId }) => {
        if (get().threads[threadId]) void get().load(threadId, { replace: true });
      });
      client.on('summary.updated', ({ summary }) => set((s) => ({ summaries: { ...s.summaries, [summary.threadId]: summary } })));
      client.on('thread.deleted', ({ threadId }) =>
        set((s) => {
          const { [threadId]: _gone, ...threads } = s.threads;
          return { threads };
        }),
      );
    },

    async load(threadId, opts = {}) {
      const client = get().client;
      if (!client) return;
      const result = await client.call('thread.messages', { threadId, limit: PAGE_SIZE });
      if (!result.ok) {
        if (result.error.code !== 'NOT_FOUND') useAppStore.getState().showError(result.error);
        return;
      }
      const { receipts, searches, forgets, recalled } = receiptsOf(result.value.receipts);
      patch(threadId, (chat) => {
        // Replies that finished while the page was loading are newer than the page: keep them.
        let messages = result.value.messages;
        if (!opts.replace) for (const m of chat.messages) if (m.status !== 'streaming') messages = upsertMessage(messages, m);
        return {
          messages,
          receipts: { ...chat.receipts, ...receipts },
          searches: { ...chat.searches, ...searches },
          forgets: { ...chat.forgets, ...forgets },
          recalled: { ...chat.recalled, ...recalled },
          hasMore: result.value.hasMore,
          loaded: true,
        };
      });
    },

    async loadOlder(threadId) {
      const client = get().client;
      const chat = get().threads[threadId];
      const first = chat?.messages[0];
      if (!client || !chat || !first || chat.loadingOlder) return;
      patch(threadId, () => ({ loadingOlder: true }));
      const result = await client.call('thread.messages', { threadId, beforeId: first.id, limit: PAGE_SIZE });
      if (!result.ok) {
        patch(threadId, () => ({ loadingOlder: false }));
        return useAppStore.getState().showError(result.error);
      }
      const { receipts, searches, forgets, recalled } = receiptsOf(result.value.receipts);
      patch(threadId, (c) => ({
        messages: mergeOlder(result.value.messages, c.messages),
        receipts: { ...receipts, ...c.receipts },
        searches: { ...searches, ...c.searches },
        forgets: { ...forgets, ...c.forgets },
        recalled: { ...recalled, ...c.recalled },
        hasMore: result.value.hasMore,
        loadingOlder: false,
      }));
    },

    async reloadLoaded() {
      await Promise.all(Object.keys(get().threads).map((id) => get().load(Number(id))));
    },

    setDraft: (threadId, text) => set((s) => ({ drafts: { ...s.drafts, [threadId]: text } })),

    // Only a hint: a refusal or a lost connection changes nothing for the user, so its answer is not looked at.
    typing: createTypingHint(() => void get().client?.call('chat.typing', {}).catch(() => {})),

    async send(threadId, text, attachments = []) {
      const client = get().client;
      const chat = get().threads[threadId];
      if (!client || text.trim() === '' || chat?.sending) return false;
      patch(threadId, () => ({ pendingText: text }));
      set((s) => ({ drafts: { ...s.drafts, [threadId]: '' } }));
      await exchange(threadId, () => client.call('chat.send', { threadId, text, ...(attachments.length > 0 ? { attachments } : {}) }));
      // Not stored (refused before the question was saved): give the text back rather than lose it.
      const after = get().threads[threadId];
      const stored = after?.messages.some((m) => m.role === 'user' && m.content === text.trim());
      if (after?.error && !stored && !get().drafts[threadId]) set((s) => ({ drafts: { ...s.drafts, [threadId]: text } }));
      return stored ?? false;
    },

    async retry(threadId) {
      const client = get().client;
      const chat = get().threads[threadId];
      if (!client || !chat || chat.sending) return;
      // The core replaces the failed reply; it sends no event for the removal.
      const replaced = retryableReply(chat.messages);
      if (replaced) patch(threadId, (c) => ({ messages: c.messages.filter((m) => m.id !== replaced.id) }));
      await exchange(threadId, () => client.call('chat.retry', { threadId }));
      // Whether the core removed the old reply depends on where it failed: read the thread again.
      if (get().threads[threadId]?.error) await get().load(threadId);
    },

    async edit(threadId, messageId, text) {
      const client = get().client;
      const chat = get().threads[threadId];
      if (!client || text.trim() === '' || !chat || chat.sending) return false;
      patch(threadId, (c) => ({ messages: branchFrom(c.messages, messageId), pendingText: text }));
      await exchange(threadId, () => client.call('chat.edit', { messageId, text }));
      const failed = get().threads[threadId]?.error;
      // Refused before anything was stored: show the thread as it is again (the old version is still the one shown).
      if (failed) await get().load(threadId, { replace: true });
      return !failed;
    },

    async regenerate(threadId, messageId) {
      const client = get().client;
      const chat = get().threads[threadId];
      if (!client || !chat || chat.sending) return;
      patch(threadId, (c) => ({ messages: branchFrom(c.messages, messageId) }));
      await exchange(threadId, () => client.call('chat.regenerate', { messageId }));
      if (get().threads[threadId]?.error) await get().load(threadId, { replace: true });
    },

    async switchVersion(threadId, messageId, version) {
      const client = get().client;
      const chat = get().threads[threadId];
      if (!client || !chat || chat.sending) return;
      const result = await client.call('thread.switchBranch', { messageId, version });
      if (!result.ok) return useAppStore.getState().showError(result.error);
      await get().load(threadId, { replace: true });
    },

    async reveal(messageId) {
      const client = get().client;
      if (!client) return;
      const result = await client.call('thread.showMessage', { messageId });
      // A message that is gone leaves the thread as it is: it is opened and shows what there is.
      if (!result.ok) return result.error.code === 'NOT_FOUND' ? undefined : useAppStore.getState().showError(result.error);
      if (result.value.switched && get().threads[result.value.threadId]) await get().load(result.value.threadId, { replace: true });
    },

    async stop(threadId) {
      const client = get().client;
      if (!client) return;
      await client.call('chat.stop', { threadId });
    },

    dismissError: (threadId) => patch(threadId, () => ({ error: null })),

    async loadSummary(threadId) {
      const client = get().client;
      if (!client) return;
      const result = await client.call('summary.get', { threadId });
      if (result.ok) set((s) => ({ summaries: { ...s.summaries, [threadId]: result.value } }));
    },

    async saveSummary(threadId, content) {
      const client = get().client;
      if (!client) return notConnected;
      const result = await client.call('summary.update', { threadId, content });
      if (result.ok) set((s) => ({ summaries: { ...s.summaries, [threadId]: result.value } }));
      return result;
    },
  };
});
