/**
 * Prompt assembly for a new message in a long thread (issue: 10,000 messages) with a large long-term store (100,000
 * memories): Mnemo's assemblePrompt (system text, memories through the memory retrieval port, newest messages read
 * in pages with their stored token estimates) beside a naive assembly that does the same except that it loads every
 * message of the thread and re-counts each with estimateTokens every time, then selects newest first.
 * The query's embedding is excluded: the embedder hands back a precomputed vector. No thread summary, so Mnemo reads
 * as many pages as the conversation share needs. Both carry custom instructions at their longest, global (English)
 * and per thread (Chinese), together more than the system share, so each prompt also cuts them to fit. The question
 * carries an attached file at the size limit (ATTACHMENT_LIMITS.maxTextChars of English and Chinese text, as a PDF's
 * extracted text would be), which each prompt cuts to the attachment share keeping both ends (attachment-text.ts).
 * The user's messages are sentences, as in a chat: the query's two topic words inside common words the stored memories
 * also contain (the, user, likes, with, about, ...), so the keyword half pays for common terms as it would in use.
 * Quality beside speed: the memories each Mnemo prompt carries are compared (untimed) with those the same service
 * picks when forced to the exact float KNN, so a faster approximate vector pass cannot go unnoticed.
 */
import { ATTACHMENT_LIMITS, type Message, type MessageAttachment, type Settings } from '../../shared/contract';
import { fitUserContent } from '../../electron/core/conversation/attachment-text';
import { computeBudget, planConversation, type HistoryMessage } from '../../electron/core/llm/context-budget';
import { composeSystemText } from '../../electron/core/chat/custom-instructions';
import type { MemoryRetrievalPort } from '../../electron/core/ports/memory-retrieval.port';
import { createMessagesStore } from '../../electron/core/conversation/messages.store';
import { assemblePrompt, ATTACHMENT_SHARE_OF_CONVERSATION, PROFILE_SHARE_OF_MEMORIES, systemPrompt } from '../../electron/core/chat/prompt-assembly';
import { createSummaryStore } from '../../electron/core/conversation/summary.store';
import { isReadable } from '../../electron/core/conversation/readable-message';
import type { Sqlite } from '../../electron/core/db/open-database';
import { formatProfileForPrompt } from '../../electron/core/memory/memory-prompt';
import { formatWorkingMemoryForPrompt, WORKING_MEMORY_SHARE_OF_CONVERSATION } from '../../electron/core/chat/working-memory-prompt';
import { applyModelUpdate, EMPTY_STATE, liveState, type FocusState } from '../../electron/core/focus/focus-rules';
import { createFocusStore } from '../../electron/core/focus/focus.store';
import { writeTransaction } from '../../electron/core/db/write-transaction';
import { memoryRetrievalPort } from '../../electron/core/memory/memory.service';
import { createTokenCalibrator, estimateTokens } from '../../electron/core/text/token-estimate';
import { recallAt } from '../../test/fixtures/clustered-vectors';
import { fmt, summarize, type SuiteResult } from '../harness';
import { FIXTURE_NOW, memoryFixture, openFixture, seedThread } from '../memory-fixture';

const CONTEXT_WINDOW = 8192;

/** A profile as the background model writes one (about 150 words), in every prompt as in use. */
const PROFILE = [
  '## Name', '- Ana Ribeiro (goes by Ana)',
  '## Language', '- Portuguese and English; learning Mandarin (学习中文两年)',
  '## Location', '- Porto, Portugal; moved from Lisbon in 2025',
  '## Work', '- Product designer at a small studio; works on a garden planner app in TypeScript and React',
  '## Preferences', '- Green tea over coffee; vegetarian since 2019', '- Runs every morning; plays chess on Sundays', '- Likes short answers with examples',
  '## Instructions for the assistant', '- Answer briefly, with code in TypeScript', '- Use metric units and 24-hour times',
].join('\n');
const WORKING_UPDATE = {
  focus: 'Building the garden planner app: the watering schedule screen, due Friday',
  tasks: [
    { text: 'Design the watering schedule screen', state: 'in_progress' as const, importance: 'high' as const },
    { text: 'Write tests for the frost warning', importance: 'normal' as const },
    { text: 'Ask Rui about the sensor API', importance: 'normal' as const },
    { text: '把提醒文案翻译成中文', importance: 'low' as const },
    { text: 'Fix the date picker on Safari', importance: 'high' as const },
    { text: 'Review the pull request on plant icons', importance: 'normal' as const },
    { text: 'Update the README screenshots', importance: 'low' as const },
    { text: 'Plan the release notes', state: 'done' as const, importance: 'normal' as const },
  ],
};
/** Custom instructions of the longest allowed length (INSTRUCTIONS_MAX_CHARS), global in English, the thread's in Chinese. */
const GLOBAL_INSTRUCTIONS = 'Answer briefly, in a friendly tone, with bullet points for lists and code in fenced blocks. '.repeat(44).slice(0, 4000);
const THREAD_INSTRUCTIONS = '请用简体中文回答，语气友好，先给结论再解释原因，列表用项目符号，代码放在代码块里。'.repeat(110).slice(0, 4000);

/** The largest file a message can carry: a year's report in English with Chinese notes, to the character limit. */
const ATTACHMENT: MessageAttachment = {
  name: 'annual-report.pdf',
  text: 'Quarterly revenue grew in every region; the garden planner shipped on time. 第三季度收入增长，花园规划应用按时发布。\n'
    .repeat(Math.ceil(ATTACHMENT_LIMITS.maxTextChars / 80))
    .slice(0, ATTACHMENT_LIMITS.maxTextChars),
};

/** Chat messages around a query's topic words, made of words the fixture's memories use (clustered-vectors.ts, COMMON). */
const MESSAGES = [
  (words: string) => `what does the user think about ${words} and the rest of it?`,
  (words: string) => `the user likes ${words} with a friend every weekend, any ideas on that?`,
  (words: string) => `remind me what the user prefers about ${words}`,
  (words: string) => `has the user worked on ${words} and who with?`,
];

export async function promptBench(memoryCount: number, messageCount: number, iterations: number): Promise<SuiteResult> {
  const built = await memoryFixture(memoryCount);
  const fixture = { ...built, queries: built.queries.map((q, i) => ({ text: MESSAGES[i % MESSAGES.length]!(q.text), vector: q.vector })) };
  const open = await openFixture(fixture);
  const exactService = await openFixture(fixture, { exactBelow: Number.POSITIVE_INFINITY });
  try {
    const { sqlite } = open.db;
    const { threadId, lastUserMessageId } = seedThread(open.db, messageCount, [fixture.queries[0]!.text]);
    const messages = createMessagesStore(sqlite);
    const summaries = createSummaryStore(sqlite);
    const last = messages.get(lastUserMessageId)!;
    // The thread's working memory as the background model keeps it: a focus and eight tasks, read from its tables each time.
    const focusStore = createFocusStore(sqlite, messages.branches);
    writeTransaction(sqlite, () => focusStore.save(threadId, applyModelUpdate(EMPTY_STATE, WORKING_UPDATE, FIXTURE_NOW, () => false), FIXTURE_NOW));
    const workingMemory = (id: number) => liveState(focusStore.read(id).state, FIXTURE_NOW);
    const memory = memoryRetrievalPort(open.memories, () => [], () => []);
    const calibrator = createTokenCalibrator();
    const settings: Settings = { ...open.settings.get(), instructions: GLOBAL_INSTRUCTIONS };
    // Each iteration asks about something else, so retrieval is not answered from one warm set of pages.
    const userMessage = (i: number): Message => ({ ...last, content: fixture.queries[i % fixture.queries.length]!.text, attachments: [ATTACHMENT] });

    const mnemo = (i: number) =>
      assemblePrompt(
        { summaries, messages, memory, calibrator, profile: () => PROFILE, workingMemory },
        { threadId, userMessage: userMessage(i), incognito: false, threadInstructions: THREAD_INSTRUCTIONS, contextWindow: CONTEXT_WINDOW, settings, now: FIXTURE_NOW },
      );
    const naive = (i: number) => naiveAssemble(sqlite, memory, threadId, userMessage(i), settings, calibrator.ratio, workingMemory(threadId));

    let included = { mnemo: 0, naive: 0 };
    for (let i = 0; i < 10; i++) {
      included = { mnemo: (await mnemo(i)).includedMessageIds.length, naive: (await naive(i)).includedIds.length };
    }
    if (included.mnemo !== included.naive) throw new Error(`prompt bench: Mnemo kept ${included.mnemo} messages, the baseline ${included.naive}`);
    const exactMemory = memoryRetrievalPort(exactService.memories, () => [], () => []);
    const budget = computeBudget(CONTEXT_WINDOW, settings.budget).memories - profileTokens(settings);
    const exactIds = async (i: number) =>
      (await exactMemory.retrieveForPrompt({ query: userMessage(i).content, threadId, tokenBudget: budget, estimateTokens })).items.map((m) => m.memoryId);
    const samples = { mnemo: [] as number[], naive: [] as number[] };
    let agreement = 0;
    // Interleaved, each going first every other time: the second to retrieve for a query finds its pages warmer.
    for (let i = 0; i < iterations; i++) {
      for (const which of i % 2 === 0 ? (['mnemo', 'naive'] as const) : (['naive', 'mnemo'] as const)) {
        const t0 = performance.now();
        const used = which === 'mnemo' ? (await mnemo(i)).memoriesUsed : (await naive(i), null);
        samples[which].push(performance.now() - t0);
        if (used) agreement += recallAt(used.map((m) => m.memoryId), await exactIds(i));
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
        `both carry an attached file of ${ATTACHMENT_LIMITS.maxTextChars.toLocaleString('en')} characters (the limit), cut to the attachment share keeping both ends`,
        'both include the same working memory (a focus and eight tasks, read from its tables), the same profile (about 150 words) and long-term memory retrieval (hybrid search over the store, formatted within the rest of the memory share)',
        `memories in Mnemo's prompts that the same retrieval with the exact float KNN also picks: ${(agreement / iterations).toFixed(3)} (mean overlap, untimed)`,
      ],
    };
  } finally {
    await open.close();
    await exactService.close();
  }
}

/** assemblePrompt's work with the naive conversation part: the whole thread read and every message re-counted. */
/** The profile's cost in the memory share, as assemblePrompt spends it. */
function profileTokens(settings: Settings): number {
  const text = formatProfileForPrompt(PROFILE, Math.floor(computeBudget(CONTEXT_WINDOW, settings.budget).memories * PROFILE_SHARE_OF_MEMORIES), estimateTokens);
  return text ? estimateTokens(text) + 1 : 0;
}

async function naiveAssemble(sqlite: Sqlite, memory: MemoryRetrievalPort, threadId: number, userMessage: Message, settings: Settings, ratio: number, working: FocusState) {
  const budget = computeBudget(CONTEXT_WINDOW, settings.budget);
  const system = composeSystemText({
    base: systemPrompt(FIXTURE_NOW, 'UTC'),
    globalInstructions: settings.instructions,
    threadInstructions: THREAD_INSTRUCTIONS,
    budgetTokens: budget.system,
    estimate: estimateTokens,
  }).text;
  const profile = formatProfileForPrompt(PROFILE, Math.floor(budget.memories * PROFILE_SHARE_OF_MEMORIES), estimateTokens);
  const retrieved = await memory.retrieveForPrompt({ query: userMessage.content, threadId, tokenBudget: budget.memories - profileTokens(settings), estimateTokens });
  const wm = formatWorkingMemoryForPrompt(working, Math.floor(budget.conversation * WORKING_MEMORY_SHARE_OF_CONVERSATION), estimateTokens);
  const summary = createSummaryStore(sqlite).get(threadId);
  const question = fitUserContent(userMessage.content, userMessage.attachments ?? [], Math.floor((budget.conversation * ATTACHMENT_SHARE_OF_CONVERSATION) / Math.max(ratio, 0.01)), estimateTokens);
  const all = sqlite.prepare('SELECT * FROM messages WHERE thread_id = ? ORDER BY id').all(threadId) as Array<{ id: number; role: string; content: string; status: string }>;
  const history: HistoryMessage[] = all
    .filter((r) => r.id < userMessage.id && isReadable(r))
    .map((r) => ({ id: r.id, role: r.role as 'user' | 'assistant', content: r.content, estimatedTokens: estimateTokens(r.content) }))
    .reverse();
  const plan = planConversation({
    budgetTokens: budget.conversation - (wm.text ? wm.context.tokens + 1 : 0),
    ratio,
    summary: summary?.content ?? null,
    summaryTokens: summary ? estimateTokens(summary.content) : 0,
    summaryCoversUpTo: summary?.toMessageId ?? 0,
    history,
    userMessage: { content: question.content, estimatedTokens: estimateTokens(question.content) },
  });
  return { system: [system, profile, retrieved.text, wm.text].filter(Boolean).join('\n\n'), ...plan };
}
