/**
 * The terminal's lines about one answer: `thread context` shows the output cap the request carried and says when
 * semantic search was given up for time; `chat` names earlier answers among a conversation search's results.
 */
import { describe, expect, it } from 'vitest';
import { PromptContext, ToolSearch } from '../../shared/contract';
import { formatPromptContext } from '../../electron/cli/commands/thread-settings.commands';
import { describeSearch } from '../../electron/cli/commands/chat.commands';

const recorded = {
  model: 'llama3.2',
  budget: { contextWindow: 4096, system: 614, memories: 614, conversation: 2048, reply: 819 },
  system: { text: 'You are Mnemo.', tokens: 10, globalInstructions: null, threadInstructions: null },
  memories: { ids: [], tokens: 0 },
  summary: { included: false, tokens: 0 },
  recent: { count: 0, tokens: 0, fromMessageId: null },
  question: { tokens: 5 },
  conversationCut: false,
};

/** The CLI's local time, in UTC here. */
const utcDay = (at: number) => new Date(at).toISOString().replace('T', ' ').slice(0, 16);

describe('thread context', () => {
  it('shows the cap the request carried against the reserve, and a semantic search given up for time', () => {
    const text = formatPromptContext(PromptContext.parse({ ...recorded, replyCap: 4070, retrieval: { semanticTimedOut: true } }), utcDay);
    expect(text).toMatch(/room for the answer \(up to; budget: reserve\) +4070 +819/);
    expect(text).toContain('Semantic search took too long; keyword results only');
  });

  it('an answer recorded before caps shows the reserve, and no note; a record from before recall by time carries no episodes', () => {
    const old = PromptContext.parse(recorded);
    expect(old.recalled).toEqual({ episodes: [], forgotten: 0 });
    const text = formatPromptContext(old, utcDay);
    expect(text).toMatch(/reserved for the answer +819 +819/);
    expect(text).not.toContain('Semantic search took too long');
    expect(text).not.toContain('earlier conversations');
  });

  it('lists the episodes of the time asked about that the prompt carried, with their day and thread, and those deleted since', () => {
    const recalled = { episodes: [{ episodeId: 7, threadId: 3, threadTitle: 'Lisbon', title: 'Lisbon trip in May', startedAt: Date.UTC(2026, 0, 7, 2) }], forgotten: 1 };
    const text = formatPromptContext(PromptContext.parse({ ...recorded, recalled }), utcDay);
    expect(text).toContain(['(earlier conversations from the time asked about, in the prompt: 2)', '  2026-01-07, in “Lisbon” (thread 3): Lisbon trip in May', '  1 more, deleted forever since'].join('\n'));
  });
});

describe('describeSearch', () => {
  const search = (roles: Array<'user' | 'assistant'>) =>
    ToolSearch.parse({
      tool: 'search_conversations',
      query: 'knee',
      memoryIds: [],
      messages: roles.map((role, i) => ({ messageId: i + 1, threadId: 1, threadTitle: 'Knee', role, createdAt: 0 })),
      problem: null,
      tokens: 10,
      cut: false,
    });

  it('names earlier answers among the past messages found', () => {
    expect(describeSearch(search(['user']))).toBe('(searched conversations: “knee” → 1)');
    expect(describeSearch(search(['assistant']))).toBe('(searched conversations: “knee” → 1 (an earlier answer))');
    expect(describeSearch(search(['user', 'assistant', 'assistant']))).toBe('(searched conversations: “knee” → 3 (2 of them earlier answers))');
  });

  it('names the memories found that the prompt already held, so such a search never reads as nothing found', () => {
    const memories = (ids: number[], inPrompt: number) => ToolSearch.parse({ tool: 'search_memory', query: 'dentist', memoryIds: ids, inPrompt, messages: [], problem: null, tokens: 10, cut: false });
    expect(describeSearch(memories([3], 1))).toBe('(searched memories: “dentist” → 1 (already in the prompt))');
    expect(describeSearch(memories([3, 4], 2))).toBe('(searched memories: “dentist” → 2 (all already in the prompt))');
    expect(describeSearch(memories([3, 4, 5], 1))).toBe('(searched memories: “dentist” → 3 (1 already in the prompt))');
    expect(describeSearch(memories([3], 0))).toBe('(searched memories: “dentist” → 1)');
  });
});
