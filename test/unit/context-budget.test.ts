import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeBudget, cost, fitToTokens, MIN_REPLY_TOKENS, planConversation, RECENT_MESSAGES_KEPT, replyTokenCap, type HistoryMessage } from '../../electron/core/llm/context-budget';
import { estimateTokens } from '../../electron/core/text/token-estimate';

const shares = { system: 0.15, memories: 0.15, conversation: 0.5, reply: 0.2 };

describe('computeBudget', () => {
  it('splits the context window by the shares', () => {
    expect(computeBudget(10_000, shares)).toEqual({ contextWindow: 10_000, system: 1500, memories: 1500, conversation: 5000, reply: 2000 });
  });
});

describe('replyTokenCap', () => {
  it('is what the window leaves after the prompt, never unbounded, never beyond the window; at least MIN_REPLY_TOKENS (property)', () => {
    expect(replyTokenCap(4096, 1000)).toBe(3096);
    expect(replyTokenCap(4096, 4090)).toBe(MIN_REPLY_TOKENS);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.double({ min: 0, max: 2_000_000, noNaN: true }), (window, prompt) => {
        const cap = replyTokenCap(window, prompt);
        expect(Number.isInteger(cap)).toBe(true);
        expect(cap).toBeGreaterThanOrEqual(1);
        expect(cap).toBeLessThanOrEqual(window);
        // Within the window whenever the prompt leaves the minimum; the minimum (or the whole window, if smaller) otherwise.
        if (window - prompt >= MIN_REPLY_TOKENS) expect(cap + prompt).toBeLessThanOrEqual(window);
        else expect(cap).toBe(Math.min(MIN_REPLY_TOKENS, window));
      }),
    );
  });

  it('a prompt within its shares leaves at least the reply reserve (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 512, max: 200_000 }), fc.double({ min: 0, max: 1, noNaN: true }), (window, fill) => {
        const budget = computeBudget(window, shares);
        const prompt = Math.floor((budget.system + budget.memories + budget.conversation) * fill);
        expect(replyTokenCap(window, prompt)).toBeGreaterThanOrEqual(budget.reply);
      }),
    );
  });
});

const historyArb = fc.array(
  fc.record({ role: fc.constantFrom<'user' | 'assistant'>('user', 'assistant'), content: fc.string({ maxLength: 40 }), estimatedTokens: fc.integer({ min: 0, max: 300 }) }),
  { maxLength: 60 },
);

describe('planConversation', () => {
  it('never exceeds the share unless the new message alone does; keeps the newest contiguous messages, all those after the summary and the last exchanges before it; ends with the user message (property)', () => {
    fc.assert(
      fc.property(historyArb, fc.integer({ min: 10, max: 4000 }), fc.double({ min: 0.5, max: 2, noNaN: true }), fc.option(fc.string({ minLength: 1, maxLength: 50 })), fc.nat(), (raw, budgetTokens, ratio, summary, coverSeed) => {
        const history: HistoryMessage[] = raw.map((m, i) => ({ ...m, id: raw.length - i })); // newest first
        const summaryCoversUpTo = coverSeed % (raw.length + 1);
        const user = { content: 'now', estimatedTokens: 5 };
        const plan = planConversation({ budgetTokens, ratio, summary, summaryTokens: 20, summaryCoversUpTo, history, userMessage: user });
        const userCost = cost(user.estimatedTokens, ratio);
        if (userCost <= budgetTokens) expect(plan.usedTokens).toBeLessThanOrEqual(budgetTokens);
        expect(plan.messages.at(-1)).toEqual({ role: 'user', content: 'now' });
        // The included ids are exactly the newest k messages, oldest first.
        const k = plan.includedIds.length;
        expect(plan.includedIds).toEqual(history.slice(0, k).map((m) => m.id).reverse());
        const recount = userCost + (plan.summaryIncluded ? cost(20, ratio) : 0) + history.slice(0, k).reduce((n, m) => n + cost(m.estimatedTokens, ratio), 0);
        expect(plan.usedTokens).toBe(recount);
        // Wanted: every message after the summary, and at least the last RECENT_MESSAGES_KEPT whatever it covers.
        const wanted = Math.max(history.filter((m) => m.id > summaryCoversUpTo).length, Math.min(RECENT_MESSAGES_KEPT, history.length));
        expect(k).toBeLessThanOrEqual(wanted);
        expect(plan.truncated).toBe(k < wanted);
        // Only the budget stops it short: the next wanted message did not fit.
        if (plan.truncated) expect(plan.usedTokens + cost(history[k]!.estimatedTokens, ratio)).toBeGreaterThan(budgetTokens);
      }),
    );
  });

  it('puts the summary before the recent messages', () => {
    const plan = planConversation({
      budgetTokens: 1000,
      ratio: 1,
      summary: 'They planned a trip.',
      summaryTokens: 6,
      summaryCoversUpTo: 1,
      history: [{ id: 2, role: 'assistant', content: 'ok', estimatedTokens: 1 }],
      userMessage: { content: 'go on', estimatedTokens: 2 },
    });
    expect(plan.messages.map((m) => m.role)).toEqual(['system', 'assistant', 'user']);
    expect(plan.messages[0]!.content).toContain('They planned a trip.');
  });

  const thread = (n: number): HistoryMessage[] =>
    Array.from({ length: n }, (_, i) => ({ id: n - i, role: (n - i) % 2 === 1 ? 'user' : 'assistant', content: `message ${n - i}`, estimatedTokens: 3 }) as const);

  it('after a summary of the whole thread, still carries the last two exchanges verbatim', () => {
    const plan = planConversation({ budgetTokens: 1000, ratio: 1, summary: 'Tomatoes, south-facing garden.', summaryTokens: 8, summaryCoversUpTo: 8, history: thread(8), userMessage: { content: 'and next to them?', estimatedTokens: 5 } });
    expect(plan.includedIds).toEqual([5, 6, 7, 8]);
    expect(plan.messages.map((m) => m.content)).toEqual([expect.stringContaining('Tomatoes'), 'message 5', 'message 6', 'message 7', 'message 8', 'and next to them?']);
    expect(plan.truncated).toBe(false);
  });

  it('leaves out what the summary covers once the messages after it are more than the last two exchanges', () => {
    const plan = planConversation({ budgetTokens: 1000, ratio: 1, summary: 'Earlier.', summaryTokens: 3, summaryCoversUpTo: 3, history: thread(9), userMessage: { content: 'q', estimatedTokens: 1 } });
    expect(plan.includedIds).toEqual([4, 5, 6, 7, 8, 9]);
  });

  it('keeps the recent exchanges within the budget only, the newest first', () => {
    const plan = planConversation({ budgetTokens: 5 + 4 + 2 * 7, ratio: 1, summary: null, summaryTokens: 0, summaryCoversUpTo: 8, history: thread(8), userMessage: { content: 'q', estimatedTokens: 1 } });
    expect(plan.includedIds).toEqual([7, 8]);
    expect(plan.truncated).toBe(true);
  });
});

describe('fitToTokens', () => {
  it('returns text within the limit, a prefix of the input (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), fc.integer({ min: 0, max: 200 }), (text, max) => {
        const out = fitToTokens(text, max, estimateTokens);
        expect(estimateTokens(out)).toBeLessThanOrEqual(Math.max(0, max));
        expect(text.startsWith(out.trimEnd()) || text.trimEnd().startsWith(out)).toBe(true);
      }),
    );
  });
  it('leaves text that fits alone, cuts CJK text too', () => {
    expect(fitToTokens('short', 100, estimateTokens)).toBe('short');
    const zh = '我喜欢在山里徒步旅行'.repeat(50);
    const cut = fitToTokens(zh, 30, estimateTokens);
    expect(estimateTokens(cut)).toBeLessThanOrEqual(30);
    expect(cut.length).toBeGreaterThan(10);
  });
});
