import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { callKey, DEFAULT_RESULTS, fitLines, MAX_RESULTS, parseToolCall, runMemoryTool, type MemoryToolSources } from '../../electron/core/chat/memory-tools';
import { toolResultAllowance } from '../../electron/core/chat/tool-loop';
import { resolveMemoryAccess } from '../../shared/memory-access';
import { estimateTokens } from '../../electron/core/text/token-estimate';
import type { Memory } from '../../shared/contract';

describe('parseToolCall', () => {
  it('reads arguments as Ollama sends them (an object) and as OpenAI-compatible servers do (a JSON string)', () => {
    expect(parseToolCall('search_memory', { query: ' cat ', category: 'preference', limit: 3 })).toEqual({ ok: true, tool: 'search_memory', query: 'cat', category: 'preference', limit: 3 });
    expect(parseToolCall('search_conversations', '{"query":"京都 旅行"}')).toEqual({ ok: true, tool: 'search_conversations', query: '京都 旅行', limit: DEFAULT_RESULTS });
    expect(parseToolCall('search_memory', { query: '咖啡', limit: '2' })).toMatchObject({ ok: true, query: '咖啡', limit: 2 });
    expect(parseToolCall('search_memory', { query: 'x', limit: 99 })).toMatchObject({ ok: true, limit: MAX_RESULTS });
  });

  it('says what is wrong with a bad call, never throws', () => {
    const problem = (name: string, raw: unknown) => {
      const r = parseToolCall(name, raw);
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
        const r = parseToolCall(name, raw);
        expect(typeof r.ok).toBe('boolean');
      }),
    );
  });

  it('the loop key is the same for the same search written differently, different for another', () => {
    const key = (raw: unknown) => callKey(parseToolCall('search_memory', raw) as Extract<ReturnType<typeof parseToolCall>, { ok: true }>);
    expect(key({ query: 'Tea  Time' })).toBe(key({ query: ' tea time ', limit: DEFAULT_RESULTS }));
    expect(key({ query: 'tea' })).not.toBe(key({ query: 'tea', category: 'preference' }));
    expect(key({ query: 'tea' })).not.toBe(key({ query: 'coffee' }));
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
  const context = { threadId: 1, excludeMessageIds: new Set<number>(), timeZone: 'UTC', estimate: estimateTokens };

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
    const run = await runMemoryTool(withEpisodes, { ok: true, tool: 'search_memory', query: 'Kyoto trip', category: null, limit: 10 }, { ...context, maxTokens: 400 });
    expect(asked).toEqual([{ query: 'Kyoto trip', limit: 3 }]);
    expect(run.memories.map((m) => m.memoryId)).toEqual([7]);
    expect(run.episodes.map((e) => e.episodeId)).toEqual([1, 2, 3]);
    expect(run.text.split('\n')).toEqual([
      'Memories matching "Kyoto trip":',
      '- [knowledge] Has a cat named Miso',
      ...[0, 1, 2].map((i) => `- [episode, 2026-04-02, in "京都旅行"] Trip plan ${i}: Planned a Kyoto trip in April with Ana; booked the ryokan.`),
    ]);
    // Cut to fit: the episodes shown are the ones returned.
    const small = await runMemoryTool(withEpisodes, { ok: true, tool: 'search_memory', query: 'Kyoto trip', category: null, limit: 10 }, { ...context, maxTokens: 45 });
    expect(small.cut).toBe(true);
    expect(small.text.split('\n').filter((l) => l.startsWith('- [episode')).length).toBe(small.episodes.length);
    const narrowed = await runMemoryTool(withEpisodes, { ok: true, tool: 'search_memory', query: 'Kyoto trip', category: 'knowledge', limit: 10 }, { ...context, maxTokens: 400 });
    expect(narrowed.episodes).toEqual([]);
    expect(asked).toHaveLength(2);
  });

  it('a tool message stays within its tokens, and the returned memories are only those it shows', async () => {
    const run = await runMemoryTool(sources(10), { ok: true, tool: 'search_memory', query: '记忆', category: null, limit: 10 }, { ...context, maxTokens: 120 });
    expect(estimateTokens(run.text)).toBeLessThanOrEqual(120);
    expect(run.cut).toBe(true);
    expect(run.memories.length).toBeGreaterThan(0);
    expect(run.memories.length).toBeLessThan(10);
    for (const m of run.memories) expect(run.text).toContain(m.content);
  });

  it('quotes a long past message by its beginning, with the thread title and the day', async () => {
    const run = await runMemoryTool(sources(1), { ok: true, tool: 'search_conversations', query: '京都', limit: 5 }, { ...context, maxTokens: 1000 });
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
    const run = await runMemoryTool(both, { ok: true, tool: 'search_conversations', query: 'knee', limit: 5 }, { ...context, maxTokens: 1000 });
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
  const context = { threadId: 1, excludeMessageIds: new Set<number>(), timeZone: 'UTC', estimate: estimateTokens, maxTokens: 400 };

  it('reads its query; without one it says how to call it', () => {
    expect(parseToolCall('forget_memory', { query: ' lives in Berlin ' })).toEqual({ ok: true, tool: 'forget_memory', query: 'lives in Berlin' });
    expect(parseToolCall('forget_memory', {})).toEqual({ ok: false, problem: '"query" is missing or empty. forget_memory needs {"query": "<what to forget>"}.' });
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
