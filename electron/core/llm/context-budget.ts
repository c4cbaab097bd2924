/**
 * Prompt assembly under a token budget, as pure functions.
 *
 * The context window (the model's num_ctx, llm-provider.ts) is split into shares (settings.budget): system prompt,
 * long-term memories, conversation (summary + recent messages), and a reserve for the reply. Within the conversation
 * share the new user message comes first (it is never dropped), then the thread summary, then earlier messages newest
 * first until the share is used. Messages the summary covers stand in it, except the last RECENT_MESSAGES_KEPT: the
 * exchanges just before the question are what it most often refers to ("and the second one?"), and a summary written
 * a moment ago would otherwise leave the new message alone with it.
 * Token counts are estimates scaled by a calibration ratio learned from the counts Ollama reports.
 *
 * The reply reserve is enforced on the request (replyTokenCap): every chat request carries an output cap (Ollama's
 * num_predict, an OpenAI-compatible server's max_tokens) of what the context window leaves after that request's
 * prompt, never unbounded: a small local model can loop for minutes without one. The prompt is built to leave at
 * least the reserve, so the cap is at least the reserve unless the estimate was far off.
 */
import type { ChatMessage } from './llm.port';
import { estimateTokens, fitsWithin, maxCharsWithin, prefixWithinTokens } from '../text/token-estimate';

export interface BudgetShares {
  system: number;
  memories: number;
  conversation: number;
  reply: number;
}

export interface Budget {
  contextWindow: number;
  system: number;
  memories: number;
  conversation: number;
  reply: number;
}

/** Per-message overhead of chat templates (role markers, separators), in tokens. */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** The last two exchanges (a question and its answer each) stay verbatim even when the summary covers them. */
export const RECENT_MESSAGES_KEPT = 4;

/** The least a reply may write, should the prompt's estimate leave less (the server then drops the prompt's start). */
export const MIN_REPLY_TOKENS = 64;

/** The output cap of a chat request whose prompt is about `promptTokens` (calibrated) in a `contextWindow`. Pure. */
export function replyTokenCap(contextWindow: number, promptTokens: number): number {
  const left = Math.floor(contextWindow - Math.max(0, promptTokens));
  return Math.max(Math.min(MIN_REPLY_TOKENS, Math.floor(contextWindow)), left);
}

export function computeBudget(contextWindow: number, shares: BudgetShares): Budget {
  return {
    contextWindow,
    system: Math.floor(contextWindow * shares.system),
    memories: Math.floor(contextWindow * shares.memories),
    conversation: Math.floor(contextWindow * shares.conversation),
    reply: Math.floor(contextWindow * shares.reply),
  };
}

export interface HistoryMessage {
  id: number;
  role: 'user' | 'assistant';
  content: string;
  /** Uncalibrated estimate stored with the message (never re-counted). */
  estimatedTokens: number;
}

export interface ConversationInput {
  budgetTokens: number;
  /** Calibration ratio applied to stored estimates. */
  ratio: number;
  summary: string | null;
  summaryTokens: number;
  /** The last message id the summary covers (0: none). Older messages than RECENT_MESSAGES_KEPT up to it are left out. */
  summaryCoversUpTo: number;
  /** Newest first; read lazily, and no further than the plan needs. */
  history: Iterable<HistoryMessage>;
  userMessage: { content: string; estimatedTokens: number };
}

export interface ConversationPlan {
  /** Oldest first, ready to follow the system message. */
  messages: ChatMessage[];
  includedIds: number[];
  usedTokens: number;
  /** The same total before calibration (what the calibrator compares with Ollama's count). */
  rawTokens: number;
  summaryIncluded: boolean;
  /** What the summary and the new user message each cost within usedTokens (the rest is the earlier messages). */
  summaryTokens: number;
  questionTokens: number;
  /** True when an older message did not fit the budget (the summary, if any, stands in for it). */
  truncated: boolean;
}

export function cost(estimatedTokens: number, ratio: number): number {
  return Math.ceil(estimatedTokens * ratio) + MESSAGE_OVERHEAD_TOKENS;
}

export function planConversation(input: ConversationInput): ConversationPlan {
  const questionTokens = cost(input.userMessage.estimatedTokens, input.ratio);
  let used = questionTokens;
  let raw = cost(input.userMessage.estimatedTokens, 1);
  const picked: HistoryMessage[] = [];
  let summaryIncluded = false;
  let summaryTokens = 0;
  if (input.summary && input.summary.trim()) {
    const summaryCost = cost(input.summaryTokens, input.ratio);
    if (used + summaryCost <= input.budgetTokens) {
      used += summaryCost;
      summaryTokens = summaryCost;
      raw += cost(input.summaryTokens, 1);
      summaryIncluded = true;
    }
  }
  let truncated = false;
  for (const m of input.history) {
    if (m.id <= input.summaryCoversUpTo && picked.length >= RECENT_MESSAGES_KEPT) break;
    const c = cost(m.estimatedTokens, input.ratio);
    if (used + c > input.budgetTokens) {
      truncated = true;
      break;
    }
    used += c;
    raw += cost(m.estimatedTokens, 1);
    picked.push(m);
  }
  picked.reverse();
  const messages: ChatMessage[] = [];
  if (summaryIncluded) {
    messages.push({ role: 'system', content: `Summary of the earlier part of this conversation:\n${input.summary!.trim()}` });
  }
  for (const m of picked) messages.push({ role: m.role, content: m.content });
  messages.push({ role: 'user', content: input.userMessage.content });
  return { messages, includedIds: picked.map((m) => m.id), usedTokens: used, rawTokens: raw, summaryIncluded, summaryTokens, questionTokens, truncated };
}

/**
 * Cuts text to roughly `maxTokens` keeping its beginning (70 %) and its end, joined by " […] ": where a long message
 * says what it is about and where it asks or concludes. Used where the whole text is evidence (extraction).
 */
export function fitToTokensKeepingEnds(text: string, maxTokens: number, estimate: (s: string) => number): string {
  if (fitsWithin(text, maxTokens, estimate)) return text;
  const marker = ' […] ';
  const room = maxTokens - estimate(marker);
  if (room <= 0) return '';
  const head = fitToTokens(text, Math.floor(room * 0.7), estimate);
  const tailRoom = room - estimate(head);
  // The longest suffix within tailRoom: binary search on its start, which with Mnemo's estimator lies within
  // maxCharsWithin(tailRoom) of the end.
  let lo = estimate === estimateTokens ? Math.max(head.length, text.length - maxCharsWithin(tailRoom)) : head.length;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (fitsWithin(text.slice(mid), tailRoom, estimate)) hi = mid;
    else lo = mid + 1;
  }
  const tail = text.slice(lo).trimStart();
  return tail ? `${head}${marker}${tail}` : head;
}

/** Cuts text to roughly `maxTokens` (by the given estimator), on a line or word boundary when possible. */
export function fitToTokens(text: string, maxTokens: number, estimate: (s: string) => number): string {
  if (maxTokens <= 0) return '';
  if (fitsWithin(text, maxTokens, estimate)) return text;
  // The longest prefix within maxTokens. Mnemo's estimator finds it in one pass (a prompt's instructions are cut
  // this way at every message); any other is searched by halving, as the estimate of a prefix only grows.
  let lo = 0;
  if (estimate === estimateTokens) {
    lo = prefixWithinTokens(text, maxTokens);
  } else {
    let hi = text.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (estimate(text.slice(0, mid)) <= maxTokens) lo = mid;
      else hi = mid - 1;
    }
  }
  const cut = text.slice(0, lo);
  const boundary = Math.max(cut.lastIndexOf('\n'), cut.lastIndexOf(' '));
  return (boundary > lo * 0.8 ? cut.slice(0, boundary) : cut).trimEnd();
}
