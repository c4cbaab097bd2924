/**
 * One answer with memory tools: which way memories reach the model, and the rounds of tool calls.
 *
 * The rule (settings.memoryAccess, what the model supports, incognito and memory off) is shared/memory-access.ts's,
 * which Settings uses too to say what the chosen way does; the tools themselves are memory-tools.ts's.
 *
 * The rounds: at most MAX_TOOL_ROUNDS requests offer tools; every call in them is answered by a tool message (bad
 * arguments, unknown tools and a search already run in this answer get one that says so, never an exception); the
 * request after the last round offers none, so the model must answer. Tool messages together stay within the memory
 * share left by the injected memories (at least a quarter of it). Answer text from every round streams as it comes
 * and is joined, so what the user saw is what is stored. Each search that runs is told as it starts (onSearch: the
 * chat says "Searching memories: …" meanwhile); a call refused before running is not.
 *
 * Every request carries an output cap (context-budget.ts replyTokenCap): what the window leaves after that request's
 * prompt, so a later round, whose prompt holds the tool messages, may write less. onReplyCap is told each one sent;
 * the last is what the answer was written under.
 *
 * A server that refuses tools (an HTTP error naming them, before anything streamed) gets the answer again with
 * injected memories, once, logged; that model is not offered tools again in this process.
 */
import type { Settings, ToolSearch } from '../../../shared/contract';
import { MnemoError } from '../../../shared/errors';
import type { ModelRequests } from '../llm/llm-provider';
import { resolveMemoryAccess, type MemoryAccess, type ToolSupport } from '../../../shared/memory-access';

export { resolveMemoryAccess, type MemoryAccess };
import type { ChatChunk, ChatMessage, ChatResult, ToolCall } from '../llm/llm.port';
import type { Logger } from '../ports/logger.port';
import { estimateTokens } from '../text/token-estimate';
import { MESSAGE_OVERHEAD_TOKENS, replyTokenCap, type Budget } from '../llm/context-budget';
import type { RetrievedMemory } from '../ports/memory-retrieval.port';
import type { ForgetNotice } from '../../../shared/contract';
import { forgetNotice } from './forget-in-chat';
import { callKey, MEMORY_TOOL_DEFINITIONS, parseToolCall, runMemoryTool, type MemoryToolSources, type SearchToolName } from './memory-tools';

export const MAX_TOOL_ROUNDS = 3;
/** Calls answered per round; more in one turn get a tool message saying so. */
export const MAX_CALLS_PER_ROUND = 4;
/** Below this many tokens left, a search is not run: the model is told to answer with what it has. */
const MIN_RESULT_TOKENS = 24;

const NO_MORE_ROUNDS = 'No more searches are possible for this answer: answer the user now with what you have.';

/** The room all of one answer's tool messages share: the memory share the injected memories left, at least a quarter of it. */
export function toolResultAllowance(budget: Budget, injectedTokens: number): number {
  return Math.max(budget.memories - injectedTokens, Math.floor(budget.memories / 4));
}

/** What the tools did during one answer; filled as calls run, so a failed answer still shows its searches. */
export class ToolTrace {
  readonly searches: ToolSearch[] = [];
  /** Memories the searches returned, first time each, with the reason the search found it. */
  readonly memories: RetrievedMemory[] = [];
  /** What forget_memory calls did that the user must see: something trashed, or candidates to pick from. */
  readonly forgets: ForgetNotice[] = [];
  refused = false;

  addMemories(items: readonly RetrievedMemory[]): void {
    for (const m of items) {
      if (!this.memories.some((x) => x.memoryId === m.memoryId)) this.memories.push({ memoryId: m.memoryId, score: m.score, reason: m.reason, ...(m.matched ? { matched: m.matched } : {}) });
    }
  }
}

/** What a prompt assembly gives the loop (prompt-assembly.ts AssembledPrompt, narrowed). */
export interface AssembledForTools {
  prompt: ChatMessage[];
  budget: Budget;
  includedMessageIds: number[];
  /** The memories the prompt holds: a search finding them says so rather than repeating them. */
  memoriesUsed: ReadonlyArray<{ memoryId: number }>;
  context: { memories: { tokens: number } };
  /** The prompt's estimate: uncalibrated, and calibrated to the model. */
  rawTokens: number;
  promptTokens: number;
}

export interface AnswerInput<A extends AssembledForTools> {
  model: string;
  settings: Settings;
  threadId: number;
  incognito: boolean;
  /** The question being answered: never returned by search_conversations (it is in the prompt). */
  userMessageId: number;
  timeZone: string;
  /** The question's time: what a date or "last week" in a search means. */
  now: number;
  signal: AbortSignal;
  firstChunkTimeoutMs: number;
  onChunk: (chunk: ChatChunk) => void;
  /** Told when a search the model asked for starts running (after its arguments were read and accepted). */
  onSearch(search: { tool: SearchToolName; query: string }): void;
  /** Builds the prompt for an access; called again (inject, no tools) when the server refuses tools. */
  assemble(access: MemoryAccess): Promise<A>;
  /** Told every prompt built, before it is sent. */
  onAssembled(assembled: A): void;
  /** Told the output cap of each request, as it is sent. */
  onReplyCap(cap: number): void;
  trace: ToolTrace;
  /** The question's request to forget was acted on before the answer: forget_memory is not offered. */
  forgotten?: boolean;
}

export function createToolAnswerer(deps: { llm: ModelRequests; logger: Logger; sources: () => MemoryToolSources }) {
  const { llm, logger } = deps;
  /** Models whose server refused tools in this process. */
  const refusedBy = new Set<string>();

  async function answer<A extends AssembledForTools>(input: AnswerInput<A>): Promise<ChatResult> {
    const { model, settings, trace } = input;
    const readable = !input.incognito && settings.memoryMode !== 'off';
    const support: ToolSupport = !readable || settings.memoryAccess === 'inject' ? 'no' : refusedBy.has(model) ? 'no' : await llm.toolSupport(model);
    const access = resolveMemoryAccess(settings.memoryAccess, support, readable);
    const assembled = await input.assemble(access);
    input.onAssembled(assembled);
    if (!access.tools) return plain(input, assembled);
    let streamed = false;
    try {
      return await rounds(input, assembled, () => (streamed = true));
    } catch (e) {
      if (!refusesTools(e) || streamed || trace.searches.length > 0) throw e;
      refusedBy.add(model);
      logger.warn('the model server refused tools; answering with injected memories', { model, code: (e as MnemoError).code });
      trace.refused = true;
      const again = await input.assemble({ inject: true, tools: false });
      input.onAssembled(again);
      return plain(input, again);
    }
  }

  function plain(input: AnswerInput<AssembledForTools>, assembled: AssembledForTools): Promise<ChatResult> {
    const cap = replyTokenCap(assembled.budget.contextWindow, assembled.promptTokens);
    input.onReplyCap(cap);
    return llm.chat({ model: input.model, purpose: 'chat', messages: assembled.prompt, firstChunkTimeoutMs: input.firstChunkTimeoutMs, signal: input.signal, onChunk: input.onChunk, options: { num_predict: cap } });
  }

  async function rounds(input: AnswerInput<AssembledForTools>, assembled: AssembledForTools, onStreamed: () => void): Promise<ChatResult> {
    const messages = [...assembled.prompt];
    const seen = new Set<string>();
    const allowance = toolResultAllowance(assembled.budget, assembled.context.memories.tokens);
    const excludeMessageIds = new Set([...assembled.includedMessageIds, input.userMessageId]);
    // The messages a round adds, estimated as the prompt was (calibrated by the same ratio).
    const ratio = assembled.rawTokens > 0 ? assembled.promptTokens / assembled.rawTokens : 1;
    let promptTokens = assembled.promptTokens;
    const grow = (text: string) => (promptTokens += Math.ceil((estimateTokens(text) + MESSAGE_OVERHEAD_TOKENS) * ratio));
    // The question's own request to forget was done before the answer (forget-in-chat.ts): a second forget of it would
    // find nothing and tell the model so.
    const tools = input.forgotten ? MEMORY_TOOL_DEFINITIONS.filter((t) => t.name !== 'forget_memory') : MEMORY_TOOL_DEFINITIONS;
    const inPromptMemoryIds = new Set(assembled.memoriesUsed.map((m) => m.memoryId));
    let used = 0;
    let content = '';
    let thinking = '';
    const results: ChatResult[] = [];

    for (let round = 1; ; round++) {
      const offer = round <= MAX_TOOL_ROUNDS;
      // Answer text of a later round starts a new paragraph, in the stream as in the stored answer.
      const separator = content && !/\s$/.test(content) ? '\n\n' : '';
      let separated = false;
      const cap = replyTokenCap(assembled.budget.contextWindow, promptTokens);
      input.onReplyCap(cap);
      const r = await llm.chat({
        model: input.model,
        purpose: 'chat',
        messages,
        firstChunkTimeoutMs: input.firstChunkTimeoutMs,
        signal: input.signal,
        options: { num_predict: cap },
        ...(offer ? { tools } : {}),
        onChunk: (chunk) => {
          onStreamed();
          if (chunk.content && separator && !separated) {
            separated = true;
            input.onChunk({ content: separator, thinking: '' });
          }
          input.onChunk(chunk);
        },
      });
      results.push(r);
      if (r.content) content += separator + r.content;
      thinking += r.thinking;
      const calls = offer && r.doneReason !== 'aborted' ? (r.toolCalls ?? []) : [];
      if (calls.length === 0) return combine(results, content, thinking);

      messages.push({ role: 'assistant', content: r.content, toolCalls: calls });
      // The calls go back as the server wrote them: counted by their names and arguments.
      grow(r.content + JSON.stringify(calls.map((c) => [c.name, c.arguments])));
      for (const [i, call] of calls.entries()) {
        const run = await runCall(call, i);
        used += estimateTokens(run);
        messages.push({ role: 'tool', content: run, toolName: call.name, ...(call.id ? { toolCallId: call.id } : {}) });
      }
      if (round === MAX_TOOL_ROUNDS) {
        const last = messages[messages.length - 1]!;
        messages[messages.length - 1] = { ...last, content: `${last.content}\n\n${NO_MORE_ROUNDS}` };
      }
      for (const m of messages.slice(messages.length - calls.length)) grow(m.content);
    }

    async function runCall(call: ToolCall, index: number): Promise<string> {
      const record = (search: Omit<ToolSearch, 'tokens' | 'forgotten'>, text: string): string => {
        input.trace.searches.push({ ...search, forgotten: 0, tokens: estimateTokens(text) });
        return text;
      };
      const parsed = parseToolCall(call.name, call.arguments, { now: input.now, timeZone: input.timeZone });
      const failed = (problem: string, query: string | null) =>
        record({ tool: call.name.slice(0, 200), query, memoryIds: [], inPrompt: 0, episodes: [], messages: [], problem, cut: false }, `Error: ${problem}`);
      if (index >= MAX_CALLS_PER_ROUND) return failed(`Too many searches at once: at most ${MAX_CALLS_PER_ROUND} per turn. Run the most useful ones first.`, parsed.ok ? parsed.query : null);
      if (!parsed.ok) return failed(parsed.problem, null);
      const key = callKey(parsed);
      if (seen.has(key)) return failed(`You already ran ${parsed.tool} with these arguments for this answer; its results are above. Answer with them or search for something else.`, parsed.query);
      seen.add(key);
      const left = allowance - used;
      if (left < MIN_RESULT_TOKENS) return failed('There is no room left for more search results in this answer: answer with what you have.', parsed.query);
      if (parsed.tool !== 'forget_memory') input.onSearch({ tool: parsed.tool, query: parsed.query });
      try {
        const run = await runMemoryTool(deps.sources(), parsed, {
          threadId: input.threadId,
          excludeMessageIds,
          inPromptMemoryIds,
          maxTokens: Math.min(left, Math.max(MIN_RESULT_TOKENS, Math.ceil(allowance / 2))),
          timeZone: input.timeZone,
          estimate: estimateTokens,
        });
        if (run.forgot) {
          // Shown as a forget (the notice with Undo), not as a search. One that found nothing is told to the model
          // only: it answers that nothing matched.
          if (run.forgot.trashed.length + run.forgot.candidates.length > 0) input.trace.forgets.push(forgetNotice('tool', parsed.query, run.forgot));
          return run.text;
        }
        input.trace.addMemories(run.memories);
        return record(
          {
            tool: parsed.tool,
            query: parsed.query,
            memoryIds: run.memories.map((m) => m.memoryId),
            inPrompt: run.inPrompt,
            episodes: run.episodes.map(({ episodeId, threadId, threadTitle, title, startedAt }) => ({ episodeId, threadId, threadTitle, title, startedAt })),
            messages: run.messages.map(({ messageId, threadId, threadTitle, role, createdAt }) => ({ messageId, threadId, threadTitle, role, createdAt })),
            problem: null,
            cut: run.cut,
          },
          run.text,
        );
      } catch (e) {
        // A search that fails (the database, the embedder) costs the answer that search, not the answer.
        if (e instanceof MnemoError && e.code === 'ABORTED') throw e;
        logger.warn('a memory tool failed', { tool: parsed.tool, error: e instanceof Error ? e.name : 'unknown', code: e instanceof MnemoError ? e.code : undefined });
        return failed('The search failed. Answer without it.', parsed.query);
      }
    }
  }

  return { answer };
}

export type ToolAnswerer = ReturnType<typeof createToolAnswerer>;

/**
 * One result for the whole answer: the last round's reason and model, the joined text, the first round's prompt
 * tokens (the assembled prompt, what the calibrator compares with its estimate) and the rounds' generation summed.
 */
function combine(results: readonly ChatResult[], content: string, thinking: string): ChatResult {
  const first = results[0]!;
  const last = results[results.length - 1]!;
  const sum = (pick: (r: ChatResult) => number | null) => (results.every((r) => pick(r) !== null) ? results.reduce((n, r) => n + pick(r)!, 0) : pick(last));
  return {
    content,
    thinking,
    doneReason: last.doneReason,
    model: last.model,
    promptTokens: first.promptTokens,
    completionTokens: sum((r) => r.completionTokens),
    totalDurationMs: sum((r) => r.totalDurationMs),
    loadDurationMs: first.loadDurationMs,
    promptEvalDurationMs: sum((r) => r.promptEvalDurationMs),
    evalDurationMs: sum((r) => r.evalDurationMs),
  };
}

/** An HTTP error from the server that names tools: the model or server does not take them. */
function refusesTools(e: unknown): boolean {
  return e instanceof MnemoError && e.code === 'LLM_HTTP_ERROR' && /tool/i.test(e.message);
}
