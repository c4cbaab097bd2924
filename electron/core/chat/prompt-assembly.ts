/**
 * Builds the prompt for one answer: system text (Mnemo's lines and the user's custom instructions:
 * custom-instructions.ts), the user's profile and long-term memories (as data, within the memory share), the thread
 * summary and as many recent messages as the conversation share allows, newest first (the last exchanges even when
 * the summary covers them: context-budget.ts). It reads messages in pages from the newest and uses the token estimate
 * stored with each message, so a 10,000-message thread costs the same as a short one. It also says what went in
 * (`context`, minus the model), which the chat service stores with the answer for the "what the model saw" view.
 * A message's attached files go with it (attachment-text.ts): the question's are cut to fit within
 * ATTACHMENT_SHARE_OF_CONVERSATION; earlier messages carry theirs whole, as their stored estimate counts them.
 * History is the question's path only (message-branches.ts): versions the user edited away are not sent.
 */
import { dayOf, isoDate } from '../../../shared/calendar-day';
import type { EpisodeRef, Message, PromptContext, Settings } from '../../../shared/contract';
import { userTimeZone } from '../../../shared/time-zone';
import type { ChatMessage } from '../llm/llm.port';
import { estimateTokens, type TokenCalibrator } from '../text/token-estimate';
import { computeBudget, MESSAGE_OVERHEAD_TOKENS, planConversation, type Budget, type HistoryMessage } from '../llm/context-budget';
import { composeUserContent, fitUserContent } from '../conversation/attachment-text';
import { composeSystemText } from './custom-instructions';
import type { MemoryRetrievalPort, RetrievedMemory } from '../ports/memory-retrieval.port';
import { attachmentsOf, type MessagesStore } from '../conversation/messages.store';
import type { SummaryStore } from '../conversation/summary.store';
import { summaryForPath } from '../conversation/message-branches';
import { fitProfileForPrompt, formatEpisodesForPrompt, profileTokenBudget } from '../memory/memory-prompt';
import { aboutTheTimeItself, findQuestionTime, inThePast } from '../time/time-window';
import { MEMORY_TOOLS_RULE } from './memory-tools';
import type { MemoryAccess } from './tool-loop';
import type { FocusState } from '../focus/focus-rules';
import { formatWorkingMemoryForPrompt, WORKING_MEMORY_SHARE_OF_CONVERSATION } from './working-memory-prompt';

/** timeZone: the user's (userTimeZone): "today" is their calendar day, not UTC's. */
export function systemPrompt(now: number, timeZone: string): string {
  return [
    'You are Mnemo, a helpful personal assistant running locally on the user’s own computer.',
    'Answer in the language the user writes in. Be accurate and concise; say so when you are unsure.',
    `Today is ${isoDate(dayOf(now, timeZone))}.`,
  ].join('\n');
}

export interface AssembledPrompt {
  prompt: ChatMessage[];
  budget: Budget;
  memoriesUsed: RetrievedMemory[];
  /** Uncalibrated estimate of the whole prompt, compared with Ollama's prompt_eval_count to calibrate. */
  rawTokens: number;
  /** The same, calibrated to the model: what the request's output cap leaves room for (context-budget.ts replyTokenCap). */
  promptTokens: number;
  includedMessageIds: number[];
  context: Omit<PromptContext, 'model'>;
}

/** The profile's share of the memory share lives with the profile's rule (memory-prompt.ts). */
export { PROFILE_SHARE_OF_MEMORIES } from '../memory/memory-prompt';

/**
 * The question's files take at most this share of the conversation share, so that a long file still leaves room for
 * the exchanges just before it (what "summarise the file I just sent" and "and the second part?" refer to).
 */
export const ATTACHMENT_SHARE_OF_CONVERSATION = 0.75;

/**
 * A question about a past time ("What did we talk about last week?", 上周我们聊了什么) gets that time's episodes,
 * at most PROMPT_EPISODES, within this share of what the profile leaves of the memory share; memories get the rest.
 */
export const PROMPT_EPISODES = 5;
export const EPISODE_SHARE_OF_MEMORIES = 1 / 3;

export async function assemblePrompt(
  /** profile: the user's profile while it is on (profile.service.ts), else null. */
  /** workingMemory: the thread's focus and tasks for the path ending at pathEndId while working memory is on (focus/focus.service.ts), else null. */
  deps: { summaries: SummaryStore; messages: MessagesStore; memory: MemoryRetrievalPort; calibrator: TokenCalibrator; profile: () => string | null; workingMemory?: (threadId: number, pathEndId: number | null) => FocusState | null },
  /** contextWindow: the num_ctx the request will carry (LlmProvider.contextWindow), which the shares divide. */
  /** threadInstructions: the thread's own system prompt (null: none); the global one is settings.instructions. */
  /** access: whether retrieved memories go in and memory tools are offered (tool-loop.ts); default: inject, no tools. */
  /** note: what Mnemo did for this question that the model must know (a forget: forget-in-chat.ts), after the memories. */
  input: { threadId: number; userMessage: Message; incognito: boolean; threadInstructions: string | null; contextWindow: number; settings: Settings; now: number; access?: MemoryAccess; note?: string | null },
): Promise<AssembledPrompt> {
  const access = input.access ?? { inject: true, tools: false };
  const { settings, threadId, userMessage } = input;
  const budget = computeBudget(input.contextWindow, settings.budget);
  const system = composeSystemText({
    base: systemPrompt(input.now, userTimeZone(settings.timeZone)) + (access.tools ? `\n${MEMORY_TOOLS_RULE}` : ''),
    globalInstructions: settings.instructions,
    threadInstructions: input.threadInstructions,
    budgetTokens: budget.system,
    estimate: estimateTokens,
  });
  let memoriesUsed: RetrievedMemory[] = [];
  let memoryText = '';
  let profileText = '';
  let profileCut: { lines: number; ofLines: number } | null = null;
  let semanticTimedOut = false;
  let recalled: EpisodeRef[] = [];
  if (!input.incognito && settings.memoryMode !== 'off') {
    const profile = fitProfileForPrompt(deps.profile(), profileTokenBudget(budget), estimateTokens);
    profileText = profile.text;
    if (profile.cutAt !== null) profileCut = { lines: profile.lines, ofLines: profile.ofLines };
    const profileTokens = profileText ? estimateTokens(profileText) + 1 : 0;
    // A time phrase is a filter, not words to match (time/time-window.ts): retrieval gets the question's window and
    // its topic, and the window's episodes go in beside the memories. A time wholly ahead filters nothing.
    const timeZone = userTimeZone(settings.timeZone);
    const asked = access.inject ? findQuestionTime(userMessage.content, input.now, timeZone) : null;
    const window = asked ? inThePast(asked.window, input.now) : null;
    const room = budget.memories - profileTokens;
    const found = window ? deps.memory.episodesWithin(window, aboutTheTimeItself(asked!.topic) ? '' : asked!.topic, PROMPT_EPISODES) : [];
    const episodes = window
      ? formatEpisodesForPrompt(
          found.map((e) => ({ day: isoDate(dayOf(e.startedAt, timeZone)), threadTitle: e.threadTitle, title: e.title, content: e.content })),
          Math.floor(room * EPISODE_SHARE_OF_MEMORIES),
          estimateTokens,
        )
      : { text: '', included: [] };
    // Only those that fit went to the model, so only those are recorded (and scrubbed when deleted forever).
    recalled = episodes.included.map((i) => found[i]!).map((e) => ({ episodeId: e.episodeId, threadId: e.threadId, threadTitle: e.threadTitle, title: e.title, startedAt: e.startedAt }));
    const episodeTokens = episodes.text ? estimateTokens(episodes.text) + 1 : 0;
    // Without injection only the always-on part goes in: an empty query retrieves the pinned memories alone.
    const query = access.inject ? userMessage.content : '';
    const retrieved = await deps.memory.retrieveForPrompt({ query, ...(window && asked ? { window, topic: asked.topic } : {}), threadId, tokenBudget: room - episodeTokens, estimateTokens });
    memoriesUsed = retrieved.items;
    semanticTimedOut = retrieved.semanticTimedOut ?? false;
    memoryText = [profileText, retrieved.text, episodes.text].filter(Boolean).join('\n\n');
  }
  // Like the summary: only what was derived from this question's own conversation (message-branches.ts appliesToPath).
  const working = formatWorkingMemoryForPrompt(deps.workingMemory?.(threadId, userMessage.parentId ?? null) ?? null, Math.floor(budget.conversation * WORKING_MEMORY_SHARE_OF_CONVERSATION), estimateTokens);
  // A summary of a branch the user left would tell the model about a conversation that, on this path, never happened.
  const summary = summaryForPath(deps.summaries.get(threadId), userMessage.parentId ?? null, deps.messages.branches);
  const history = (function* (): Generator<HistoryMessage> {
    for (const r of deps.messages.historyBefore(userMessage)) {
      const content = r.attachments === null ? r.content : composeUserContent(r.content, attachmentsOf(r.attachments));
      yield { id: r.id, role: r.role as 'user' | 'assistant', content, estimatedTokens: r.estimated_tokens };
    }
  })();
  // Budgets are calibrated tokens; the files are cut on the uncalibrated estimate, so the share is divided back.
  const attachmentRoom = Math.floor((budget.conversation * ATTACHMENT_SHARE_OF_CONVERSATION) / Math.max(deps.calibrator.ratio, 0.01));
  const question = fitUserContent(userMessage.content, userMessage.attachments ?? [], attachmentRoom, estimateTokens);
  const plan = planConversation({
    budgetTokens: budget.conversation - (working.text ? working.context.tokens + 1 : 0),
    ratio: deps.calibrator.ratio,
    summary: summary?.content ?? null,
    summaryTokens: summary ? estimateTokens(summary.content) : 0,
    summaryCoversUpTo: summary?.toMessageId ?? 0,
    history,
    userMessage: { content: question.content, estimatedTokens: estimateTokens(question.content) },
  });
  const systemContent = [system.text, memoryText, working.text, input.note ?? ''].filter(Boolean).join('\n\n');
  const rawTokens = estimateTokens(systemContent) + MESSAGE_OVERHEAD_TOKENS + plan.rawTokens;
  return {
    prompt: [{ role: 'system', content: systemContent }, ...plan.messages],
    budget,
    memoriesUsed,
    rawTokens,
    promptTokens: Math.ceil(rawTokens * deps.calibrator.ratio),
    includedMessageIds: plan.includedIds,
    context: {
      budget,
      system: { text: system.text, tokens: system.tokens, globalInstructions: system.globalInstructions, threadInstructions: system.threadInstructions },
      memories: { ids: memoriesUsed.map((m) => m.memoryId), tokens: memoryText ? estimateTokens(memoryText) : 0, profile: profileText !== '', profileCut },
      summary: { included: plan.summaryIncluded, tokens: plan.summaryTokens },
      recent: { count: plan.includedIds.length, tokens: plan.usedTokens - plan.summaryTokens - plan.questionTokens, fromMessageId: plan.includedIds[0] ?? null },
      question: { tokens: plan.questionTokens },
      attachments: { count: userMessage.attachments?.length ?? 0, tokens: Math.ceil(question.attachmentTokens * deps.calibrator.ratio), cut: question.cut },
      conversationCut: plan.truncated,
      tools: { offered: access.tools, searches: [], refused: false },
      workingMemory: working.context,
      retrieval: { semanticTimedOut },
      // The request's output cap, set by the tool loop as it sends each request (tool-loop.ts).
      replyCap: null,
      forgets: [],
      recalled: { episodes: recalled, forgotten: 0 },
    },
  };
}
