import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeBudget, cost, fitToTokens, planConversation, type HistoryMessage } from '../../electron/core/chat/context-budget';
import { estimateTokens } from '../../electron/core/text/token-estimate';

const shares = { system: 0.15, memories: 0.15, conversation: 0.5, reply: 0.2 };

describe('computeBudget', () => {
  it('splits the context window by the shares, 8192 when unknown', () => {
    expect(computeBudget(10_000, shares)).toEqual({ contextWindow: 10_000, system: 1500, memories: 1500, conversation: 5000, reply: 2000 });
    expect(computeBudget(null, shares).contextWindow).toBe(8192);
    expect(computeBudget(0, shares).contextWindow).toBe(8192);
  });
});

const historyArb = fc.array(
  fc.record({ role: fc.constantFrom<'user' | 'assistant'>('user', 'assistant'), content: fc.string({ maxLength: 40 }), estimatedTokens: fc.integer({ min: 0, max: 300 }) }),
  { maxLength: 60 },
);

describe('planConversation', () => {
  it('never exceeds the share unless the new message alone does; keeps the newest contiguous messages; ends with the user message (property)', () => {
    fc.assert(
      fc.property(historyArb, fc.integer({ min: 10, max: 4000 }), fc.double({ min: 0.5, max: 2, noNaN: true }), fc.option(fc.string({ minLength: 1, maxLength: 50 })), (raw, budgetTokens, ratio, summary) => {
        const history: HistoryMessage[] = raw.map((m, i) => ({ ...m, id: raw.length - i })); // newest first
        const user = { content: 'now', estimatedTokens: 5 };
        const plan = planConversation({ budgetTokens, ratio, summary, summaryTokens: 20, history, userMessage: user });
        const userCost = cost(user.estimatedTokens, ratio);
        if (userCost <= budgetTokens) expect(plan.usedTokens).toBeLessThanOrEqual(budgetTokens);
        expect(plan.messages.at(-1)).toEqual({ role: 'user', content: 'now' });
        // The included ids are exactly the newest k messages, oldest first.
        const k = plan.includedIds.length;
        expect(plan.includedIds).toEqual(history.slice(0, k).map((m) => m.id).reverse());
        const recount = userCost + (plan.summaryIncluded ? cost(20, ratio) : 0) + history.slice(0, k).reduce((n, m) => n + cost(m.estimatedTokens, ratio), 0);
        expect(plan.usedTokens).toBe(recount);
        expect(plan.truncated).toBe(k < history.length);
      }),
    );
  });

  it('puts the summary before the recent messages', () => {
    const plan = planConversation({
      budgetTokens: 1000,
      ratio: 1,
      summary: 'They planned a trip.',
      summaryTokens: 6,
      history: [{ id: 2, role: 'assistant', content: 'ok', estimatedTokens: 1 }],
      userMessage: { content: 'go on', estimatedTokens: 2 },
    });
    expect(plan.messages.map((m) => m.role)).toEqual(['system', 'assistant', 'user']);
    expect(plan.messages[0]!.content).toContain('They planned a trip.');
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
