/**
 * Prompt assembly for a new message in a long thread (issue: 10,000 messages) with a large long-term store (100,000
 * memories): Mnemo's assemblePrompt (system text, memories through the memory retrieval port, newest messages read
 * in pages with their stored token estimates) beside a naive assembly that does the same except that it loads every
 * message of the thread and re-counts each with estimateTokens every time, then selects newest first.
 * The query's embedding is excluded: the embedder hands back a precomputed vector. No thread summary, so Mnemo reads
 * as many pages as the conversation share needs.
 */
import type { Message, Settings } from '../../shared/contract';
import { computeBudget, fitToTokens, planConversation, type HistoryMessage } from '../../electron/core/chat/context-budget';
import type { MemoryRetrievalPort } from '../../electron/core/chat/memory-retrieval.port';
import { createMessagesRepo } from '../../electron/core/chat/messages.repo';
import { assemblePrompt, systemPrompt } from '../../electron/core/chat/prompt-assembly';
import { loadSummary } from '../../electron/core/chat/summary.job';
import type { Sqlite } from '../../electron/core/db/open-database';
import { memoryRetrievalPort } from '../../electron/core/memory/memory.service';
import { createTokenCalibrator, estimateTokens } from '../../electron/core/text/token-estimate';
import { fmt, summarize, type SuiteResult } from '../harness';
import { FIXTURE_NOW, memoryFixture, openFixture, seedThread } from '../memory-fixture';

const CONTEXT_WINDOW = 8192;

export async function promptBench(memoryCount: number, messageCount: number, iterations: number): Promise<SuiteResult> {
  const fixture = await memoryFixture(memoryCount);
  const open = await openFixture(fixture);
  try {
    const { sqlite } = open.db;
    const { threadId, lastUserMessageId } = seedThread(open.db, messageCount, [fixture.queries[0]!.text]);
    const messages = createMessagesRepo(sqlite);
    const last = messages.get(lastUserMessageId)!;
    const memory = memoryRetrievalPort(open.memories);
    const calibrator = createTokenCalibrator();
    const settings = open.settings.get();
    // Each iteration asks about something else, so retrieval is not answered from one warm set of pages.
    const userMessage = (i: number): Message => ({ ...last, content: fixture.queries[i % fixture.queries.length]!.text });

    const mnemo = (i: number) =>
      assemblePrompt(
        { sqlite, messages, memory, calibrator },
        { threadId, userMessage: userMessage(i), incognito: false, contextWindow: CONTEXT_WINDOW, settings, now: FIXTURE_NOW },
      );
    const naive = (i: number) => naiveAssemble(sqlite, memory, threadId, userMessage(i), settings, calibrator.ratio);

    let included = { mnemo: 0, naive: 0 };
    for (let i = 0; i < 10; i++) {
      included = { mnemo: (await mnemo(i)).includedMessageIds.length, naive: (await naive(i)).includedIds.length };
    }
    if (included.mnemo !== included.naive) throw new Error(`prompt bench: Mnemo kept ${included.mnemo} messages, the baseline ${included.naive}`);
    const samples = { mnemo: [] as number[], naive: [] as number[] };
    // Interleaved, each going first every other time: the second to retrieve for a query finds its pages warmer.
    for (let i = 0; i < iterations; i++) {
      for (const which of i % 2 === 0 ? (['mnemo', 'naive'] as const) : (['naive', 'mnemo'] as const)) {
        const t0 = performance.now();
        await (which === 'mnemo' ? mnemo(i) : naive(i));
        samples[which].push(performance.now() - t0);
      }
    }
    const m = summarize(samples.mnemo);
    const n = summarize(samples.naive);
    const label = `${memoryCount.toLocaleString('en')} memories, ${messageCount.toLocaleString('en')} messages`;
    return {
      suite: `Prompt assembly (${label}; context ${CONTEXT_WINDOW} tokens; query embedding excluded)`,
      rows: [
        { variant: 'Mnemo assemblePrompt', 'p50 ms': fmt(m.p50), 'p95 ms': fmt(m.p95), 'messages kept': included.mnemo },
        { variant: 'baseline: all messages loaded and re-counted', 'p50 ms': fmt(n.p50), 'p95 ms': fmt(n.p95), 'messages kept': included.naive },
      ],
      notes: [
        `ratio baseline / Mnemo: p50 ${(n.p50 / m.p50).toFixed(1)}x, p95 ${(n.p95 / m.p95).toFixed(1)}x (${iterations} prompts each, interleaved)`,
        'both include the same long-term memory retrieval (hybrid search over the store, formatted within the memory share)',
      ],
    };
  } finally {
    await open.close();
  }
}

/** assemblePrompt's work with the naive conversation part: the whole thread read and every message re-counted. */
async function naiveAssemble(sqlite: Sqlite, memory: MemoryRetrievalPort, threadId: number, userMessage: Message, settings: Settings, ratio: number) {
  const budget = computeBudget(CONTEXT_WINDOW, settings.budget);
  const system = fitToTokens(systemPrompt(FIXTURE_NOW), budget.system, estimateTokens);
  const retrieved = await memory.retrieveForPrompt({ query: userMessage.content, threadId, tokenBudget: budget.memories, estimateTokens });
  const summary = loadSummary(sqlite, threadId);
  const all = sqlite.prepare('SELECT * FROM messages WHERE thread_id = ? ORDER BY id').all(threadId) as Array<{ id: number; role: string; content: string; status: string }>;
  const history: HistoryMessage[] = all
    .filter((r) => r.id > (summary?.toMessageId ?? 0) && r.id < userMessage.id && r.status !== 'error' && r.role !== 'system' && r.content !== '')
    .map((r) => ({ id: r.id, role: r.role as 'user' | 'assistant', content: r.content, estimatedTokens: estimateTokens(r.content) }))
    .reverse();
  const plan = planConversation({
    budgetTokens: budget.conversation,
    ratio,
    summary: summary?.content ?? null,
    summaryTokens: summary ? estimateTokens(summary.content) : 0,
    history,
    userMessage: { content: userMessage.content, estimatedTokens: estimateTokens(userMessage.content) },
  });
  return { system: retrieved.text ? `${system}\n\n${retrieved.text}` : system, ...plan };
}
