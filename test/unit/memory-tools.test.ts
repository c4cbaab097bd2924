import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { callKey, DEFAULT_RESULTS, fitLines, MAX_RESULTS, parseToolCall, runMemoryTool, type MemoryToolSources } from '../../electron/core/chat/memory-tools';
import { toolResultAllowance } from '../../electron/core/chat/tool-loop';
import { resolveMemoryAccess } from '../../shared/memory-access';
import { estimateTokens } from '../../electron/core/text/token-estimate';
import type { Memory } from '../../shared/contract';

/** Wednesday 2026-01-14, 10:00 UTC. */
const TIME = { now: Date.UTC(2026, 0, 14, 10), timeZone: 'UTC' };

describe('parseToolCall', () => {
  it('reads arguments as Ollama sends them (an object) and as OpenAI-compatible servers do (a JSON string)', () => {
    expect(parseToolCall('search_memory', { query: ' cat ', category: 'preference', limit: 3 }, TIME)).toEqual({ ok: true, tool: 'search_memory', query: 'cat', topic: 'cat', window: null, windowOnly: false, category: 'preference', limit: 3 });
    expect(parseToolCall('search_conversations', '{"query":"京都 旅行"}', TIME)).toEqual({ ok: true, tool: 'search_conversations', query: '京都 旅行', topic: '京都 旅行', window: null, windowOnly: false, limit: DEFAULT_RESULTS });
    expect(parseToolCall('search_memory', { query: '咖啡', limit: '2' }, TIME)).toMatchObject({ ok: true, query: '咖啡', limit: 2 });
    expect(parseToolCall('search_memory', { query: 'x', limit: 99 }, TIME)).toMatchObject({ ok: true, limit: MAX_RESULTS });
  });

  it('says what is wrong with a bad call, never throws', () => {
    const problem = (name: string, raw: unknown) => {
      const r = parseToolCall(name, raw, TIME);
      return r.ok ? null : r.problem;
    };
    expect(problem('search_memory', 'not json')).toMatch(/must be a JSON object/);
    expect(problem('search_memory', '[1,2]')).toMatch(/must be a JSON object/);
    expect(problem('search_memory', null)).toMatch(/must be a JSON object/);
    expect(problem('search_memory', {})).toMatch(/"query" is missing or empty/);
    expect(problem('search_memory', { query: '   ' })).toMatch(/"query" is missing or empty/);
    expect(problem('search_memory', { query: 42 })).toMatch(/"query" is missing or empty/);
    expect(problem('search_memory', { query: 'a', limit: 0 })).toMatch(/"limit" must be a whole number/);
    expect(problem('search_memory', { query: 'a', limit: 2.5 })).toMatch(/"limit" must be a whole number/);
    expect(problem('search_memory', { query: 'a', category: 'secrets' })).toMatch(/"category" must be one of knowledge, preference, project, skill/);
    expect(problem('rm_rf', { query: 'a' })).toMatch(/There is no tool named "rm_rf"\. The tools are: search_memory, search_conversations/);
  });

  it('never throws on any input (property)', () => {
    fc.assert(
      fc.property(fc.string(), fc.anything(), (name, raw) => {
        const r = parseToolCall(name, raw, TIME);
        expect(typeof r.ok).toBe('boolean');
        if (typeof raw === 'object' && raw !== null) expect(typeof parseToolCall('search_memory', { ...raw, query: 'x' }, TIME).ok).toBe('boolean');
      }),
    );
  });

  it('reads a date range (days of the user zone, both included), and a time phrase in the query when no range is given', () => {
    const day = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d);
    expect(parseToolCall('search_memory', { query: 'dentist', from: '2026-01-05', to: '2026-01-11' }, TIME)).toMatchObject({ ok: true, topic: 'dentist', window: { from: day(2026, 1, 5), to: day(2026, 1, 12) }, windowOnly: true });
    expect(parseToolCall('search_conversations', { query: '', from: '2026-01-05' }, TIME)).toMatchObject({ ok: true, topic: '', window: { from: day(2026, 1, 5), to: Number.MAX_SAFE_INTEGER } });
    expect(parseToolCall('search_memory', { query: 'dentist last week' }, TIME)).toMatchObject({ ok: true, query: 'dentist last week', topic: 'dentist', window: { from: day(2026, 1, 5), to: day(2026, 1, 12) }, windowOnly: false });
    expect(parseToolCall('search_conversations', { query: '上周 牙医' }, { ...TIME, timeZone: 'Asia/Shanghai' })).toMatchObject({ ok: true, topic: '牙医', window: { from: day(2026, 1, 5) - 8 * 3_600_000 } });
    // An explicit range wins over the phrase, whose words then stay in the topic.
    expect(parseToolCall('search_memory', { query: 'dentist last week', from: '2025-12-01', to: '2025-12-31' }, TIME)).toMatchObject({ topic: 'dentist last week', window: { from: day(2025, 12, 1), to: day(2026, 1, 1) } });
    const problem = (raw: unknown) => {
      const r = parseToolCall('search_memory', raw, TIME);
      return r.ok ? null : r.problem;
    };
    expect(problem({ query: 'a', from: 'last week' })).toMatch(/"from" must be a day written YYYY-MM-DD/);
    expect(problem({ query: 'a', to: '2026-02-30' })).toMatch(/"to" must be a day written YYYY-MM-DD/);
    expect(problem({ query: 'a', from: '2026-02-03', to: '2026-02-01' })).toMatch(/"from" must not be after "to"/);
    expect(problem({ query: '' })).toMatch(/"query" is missing or empty/);
  });

  it('the loop key is the same for the same search written differently, different for another', () => {
    const key = (raw: unknown) => callKey(parseToolCall('search_memory', raw, TIME) as Extract<ReturnType<typeof parseToolCall>, { ok: true }>);
    expect(key({ query: 'Tea  Time' })).toBe(key({ query: ' tea time ', limit: DEFAULT_RESULTS }));
    expect(key({ query: 'tea' })).not.toBe(key({ query: 'tea', category: 'preference' }));
    expect(key({ query: 'tea' })).not.toBe(key({ query: 'coffee' }));
    expect(key({ query: 'tea', from: '2026-01-01' })).not.toBe(key({ query: 'tea', from: '2026-01-02' }));
  });
});

describe('fitLines', () => {
  it('keeps whole lines within the allowance and says how many were left out (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 80 }), { maxLength: 20 }), fc.integer({ min: 20, max: 400 }), (lines, max) => {
        const { text, kept } = fitLines('Head:', lines, max, estimateTokens);
        expect(estimateTokens(text)).toBeLessThanOrEqual(max);
        expect(kept).toBeLessThanOrEqual(lines.length);
        if (kept < lines.length && estimateTokens(text) + 12 < max) expect(text).toContain(`(${lines.length - kept} more left out`);
      }),
    );
  });
});

describe('runMemoryTool', () => {
  const sources = (n: number): MemoryToolSources => ({
    searchMemories: async () => Array.from({ length: n }, (_, i) => ({ memoryId: i + 1, score: 1, reason: 'keyword' as const, content: `记忆 ${i} `.repeat(20), category: 'knowledge' as const })),
    searchConversations: () =>
      Array.from({ length: n }, (_, i) => ({ messageId: i + 1, threadId: 9, threadTitle: '旅行', role: 'user' as const, createdAt: Date.UTC(2026, 2, 1), content: '我下个月要去京都 '.repeat(100) })),
    searchEpisodes: () => [],
    forgetMemories: async () => ({ trashed: [], candidates: [] }),
  });
  const context = { threadId: 1, excludeMessageIds: new Set<number>(), inPromptMemoryIds: new Set<number>(), timeZone: 'UTC', estimate: estimateTokens };
  const call = (query: string, extra: { category?: 'knowledge' | null; limit?: number } = {}) =>
    ({ ok: true as const, tool: 'search_memory' as const, query, topic: query, window: null, windowOnly: false, category: extra.category ?? null, limit: extra.limit ?? 10 });

  it('search_memory also brings episodes (after the memories, at most 3, dated and named by thread); a category leaves them out', async () => {
    const asked: Array<{ query: string; limit: number }> = [];
    const withEpisodes: MemoryToolSources = {
      ...sources(1),
      searchMemories: async () => [{ memoryId: 7, score: 1, reason: 'keyword' as const, content: 'Has a cat named Miso', category: 'knowledge' as const }],
      searchEpisodes: (input) => {
        asked.push(input);
        return Array.from({ length: input.limit }, (_, i) => ({
          episodeId: i + 1, threadId: 4, threadTitle: '京都旅行', title: `Trip plan ${i}`, content: 'Planned a Kyoto trip in April with Ana; booked the ryokan.', startedAt: Date.UTC(2026, 3, 2),
        }));
      },
    };
    const run = await runMemoryTool(withEpisodes, call('Kyoto trip'), { ...context, maxTokens: 400 });
    expect(asked).toEqual([{ query: 'Kyoto trip', limit: 3, window: null, windowOnly: false }]);
    expect(run.memories.map((m) => m.memoryId)).toEqual([7]);
    expect(run.episodes.map((e) => e.episodeId)).toEqual([1, 2, 3]);
    expect(run.text.split('\n')).toEqual([
      'Memories matching "Kyoto trip":',
      '- [knowledge] Has a cat named Miso',
      ...[0, 1, 2].map((i) => `- [episode, 2026-04-02, in "京都旅行"] Trip plan ${i}: Planned a Kyoto trip in April with Ana; booked the ryokan.`),
    ]);
    // Cut to fit: the episodes shown are the ones returned.
    const small = await runMemoryTool(withEpisodes, call('Kyoto trip'), { ...context, maxTokens: 45 });
    expect(small.cut).toBe(true);
    expect(small.text.split('\n').filter((l) => l.startsWith('- [episode')).length).toBe(small.episodes.length);
    const narrowed = await runMemoryTool(withEpisodes, call('Kyoto trip', { category: 'knowledge' }), { ...context, maxTokens: 400 });
    expect(narrowed.episodes).toEqual([]);
    expect(asked).toHaveLength(2);
  });

  it('a tool message stays within its tokens, and the returned memories are only those it shows', async () => {
    const run = await runMemoryTool(sources(10), call('记忆'), { ...context, maxTokens: 120 });
    expect(estimateTokens(run.text)).toBeLessThanOrEqual(120);
    expect(run.cut).toBe(true);
    expect(run.memories.length).toBeGreaterThan(0);
    expect(run.memories.length).toBeLessThan(10);
    for (const m of run.memories) expect(run.text).toContain(m.content);
  });

  it('a search whose matches are already in the prompt says so, to the model and in what it returns, without repeating them', async () => {
    const found = [
      { memoryId: 3, score: 1, reason: 'keyword' as const, content: 'Dentist said to floss daily', category: 'knowledge' as const },
      { memoryId: 4, score: 1, reason: 'keyword' as const, content: 'Dentist appointment moved to Friday', category: 'knowledge' as const },
    ];
    const src: MemoryToolSources = { ...sources(0), searchMemories: async () => found };
    const all = await runMemoryTool(src, call('dentist'), { ...context, inPromptMemoryIds: new Set([3, 4]), maxTokens: 400 });
    expect(all.text).toBe('Memories matching "dentist": 2 of the matches are already in the long-term memory notes above (not repeated here).');
    expect(all.memories.map((m) => m.memoryId)).toEqual([3, 4]);
    expect(all.inPrompt).toBe(2);
    const one = await runMemoryTool(src, call('dentist'), { ...context, inPromptMemoryIds: new Set([3]), maxTokens: 400 });
    expect(one.text.split('\n')).toEqual(['Memories matching "dentist": 1 of the matches is already in the long-term memory notes above (not repeated here); the others:', '- [knowledge] Dentist appointment moved to Friday']);
    expect(one.inPrompt).toBe(1);
    const none = await runMemoryTool(src, call('dentist'), { ...context, maxTokens: 400 });
    expect(none.inPrompt).toBe(0);
    expect(none.text).not.toContain('already');
  });

  it('a search with a window names its days to the model and passes the window to every source', async () => {
    const seen: unknown[] = [];
    const src: MemoryToolSources = {
      ...sources(0),
      searchMemories: async (input) => (seen.push(input.window), []),
      searchEpisodes: (input) => (seen.push(input.window), []),
      searchConversations: (input) => (seen.push(input.window), []),
    };
    const window = { from: Date.UTC(2026, 0, 5), to: Date.UTC(2026, 0, 12) };
    const memory = await runMemoryTool(src, { ...call('last week'), topic: '', window }, { ...context, maxTokens: 400 });
    expect(memory.text).toBe('No memory matches "last week" (2026-01-05 to 2026-01-11 first).');
    const conversations = await runMemoryTool(src, { ok: true, tool: 'search_conversations', query: 'yesterday', topic: '', window: { from: Date.UTC(2026, 0, 13), to: Date.UTC(2026, 0, 14) }, windowOnly: true, limit: 5 }, { ...context, maxTokens: 400 });
    expect(conversations.text).toBe('Nothing in other conversations matches "yesterday" (on 2026-01-13).');
    expect(seen).toEqual([window, window, { from: Date.UTC(2026, 0, 13), to: Date.UTC(2026, 0, 14) }]);
  });

  it('quotes a long past message by its beginning, with the thread title and the day', async () => {
    const run = await runMemoryTool(sources(1), { ok: true, tool: 'search_conversations', query: '京都', topic: '京都', window: null, windowOnly: false, limit: 5 }, { ...context, maxTokens: 1000 });
    expect(run.text).toContain('- 2026-03-01, in "旅行", the user wrote: 我下个月要去京都');
    expect(run.text).toContain('[…]');
    expect(estimateTokens(run.text)).toBeLessThan(250);
  });

  it('says whose words each past message is: the user’s, or an earlier answer of the assistant', async () => {
    const both: MemoryToolSources = {
      ...sources(0),
      searchConversations: () => [
        { messageId: 3, threadId: 2, threadTitle: 'Knee', role: 'user', createdAt: Date.UTC(2026, 9, 1), content: 'My knee hurts after running.' },
        { messageId: 4, threadId: 2, threadTitle: 'Knee', role: 'assistant', createdAt: Date.UTC(2026, 9, 1), content: 'I recommend quad sets and rest.' },
      ],
    };
    const run = await runMemoryTool(both, { ok: true, tool: 'search_conversations', query: 'knee', topic: 'knee', window: null, windowOnly: false, limit: 5 }, { ...context, maxTokens: 1000 });
    expect(run.text.split('\n')).toEqual([
      'Earlier conversations matching "knee" (what the user wrote and what you answered):',
      '- 2026-10-01, in "Knee", the user wrote: My knee hurts after running.',
      '- 2026-10-01, in "Knee", you answered: I recommend quad sets and rest.',
    ]);
    expect(run.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });
});

describe('resolveMemoryAccess', () => {
  it('auto: both for a model that supports tools, inject otherwise; a model without tools is never offered them', () => {
    expect(resolveMemoryAccess('auto', 'yes', true)).toEqual({ inject: true, tools: true });
    expect(resolveMemoryAccess('auto', 'unknown', true)).toEqual({ inject: true, tools: false });
    expect(resolveMemoryAccess('tools', 'no', true)).toEqual({ inject: true, tools: false });
    expect(resolveMemoryAccess('tools', 'unknown', true)).toEqual({ inject: false, tools: true });
    expect(resolveMemoryAccess('both', 'unknown', true)).toEqual({ inject: true, tools: true });
    expect(resolveMemoryAccess('inject', 'yes', true)).toEqual({ inject: true, tools: false });
  });

  it('no tools where memory may not be read (incognito, memory off)', () => {
    for (const setting of ['auto', 'inject', 'tools', 'both'] as const) expect(resolveMemoryAccess(setting, 'yes', false).tools).toBe(false);
  });

  it('tool results get the memory share the injected memories left, at least a quarter of it', () => {
    const budget = { contextWindow: 8000, system: 1200, memories: 1200, conversation: 4000, reply: 1600 };
    expect(toolResultAllowance(budget, 200)).toBe(1000);
    expect(toolResultAllowance(budget, 1200)).toBe(300);
  });
});

describe('forget_memory', () => {
  const memory = (id: number, content: string) => ({ id, content }) as unknown as Memory;
  const context = { threadId: 1, excludeMessageIds: new Set<number>(), inPromptMemoryIds: new Set<number>(), timeZone: 'UTC', estimate: estimateTokens, maxTokens: 400 };

  it('reads its query; without one it says how to call it', () => {
    expect(parseToolCall('forget_memory', { query: ' lives in Berlin ' }, TIME)).toEqual({ ok: true, tool: 'forget_memory', query: 'lives in Berlin' });
    expect(parseToolCall('forget_memory', {}, TIME)).toEqual({ ok: false, problem: '"query" is missing or empty. forget_memory needs {"query": "<what to forget>"}.' });
  });

  it('runs the forget rule and tells the model what it did, as data', async () => {
    const asked: string[] = [];
    const sources: MemoryToolSources = {
      searchMemories: async () => [],
      searchConversations: () => [],
      searchEpisodes: () => [],
      forgetMemories: async ({ query }) => {
        asked.push(query);
        return { trashed: [memory(7, 'Lives in Berlin')], candidates: [] };
      },
    };
    const run = await runMemoryTool(sources, { ok: true, tool: 'forget_memory', query: 'Berlin' }, context);
    expect(asked).toEqual(['Berlin']);
    expect(run.forgot?.trashed.map((m) => m.id)).toEqual([7]);
    expect(run.text).toMatch(/```text\nasked to forget: Berlin\nforgotten: Lives in Berlin\n```/);
    expect(run.memories).toEqual([]);
  });
});
