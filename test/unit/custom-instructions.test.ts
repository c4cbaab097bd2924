import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planConversation } from '../../electron/core/llm/context-budget';
import { composeSystemText, CUT_MARK, GLOBAL_INSTRUCTIONS_HEADING, shareRoom, THREAD_INSTRUCTIONS_HEADING } from '../../electron/core/chat/custom-instructions';
import { systemPrompt } from '../../electron/core/chat/prompt-assembly';
import { estimateTokens } from '../../electron/core/text/token-estimate';

const base = systemPrompt(Date.UTC(2026, 5, 15, 9), 'UTC');
const compose = (globalInstructions: string, threadInstructions: string | null, budgetTokens: number) =>
  composeSystemText({ base, globalInstructions, threadInstructions, budgetTokens, estimate: estimateTokens });

describe('composeSystemText', () => {
  it('puts both instructions whole after Mnemo’s lines, global first, when they fit', () => {
    const s = compose('Answer in a formal tone.', '用中文回答，简短一些。', 600);
    expect(s.text).toBe(`${base}\n\n${GLOBAL_INSTRUCTIONS_HEADING}\nAnswer in a formal tone.\n\n${THREAD_INSTRUCTIONS_HEADING}\n用中文回答，简短一些。`);
    expect(s.globalInstructions).toEqual({ tokens: estimateTokens('Answer in a formal tone.'), cut: false });
    expect(s.threadInstructions).toEqual({ tokens: estimateTokens('用中文回答，简短一些。'), cut: false });
    expect(s.tokens).toBe(estimateTokens(s.text));
  });

  it('leaves out empty or blank instructions (no heading) and reports them as absent', () => {
    const s = compose('   ', null, 600);
    expect(s.text).toBe(base);
    expect(s.globalInstructions).toBeNull();
    expect(s.threadInstructions).toBeNull();
    expect(compose('', '  \n ', 600).threadInstructions).toBeNull();
  });

  it('cuts Chinese instructions that exceed the system share, keeping the beginning and marking the cut', () => {
    const longChinese = '请始终用简体中文回答，并在结尾列出要点。'.repeat(200);
    const budget = 300;
    const s = compose('', longChinese, budget);
    expect(s.tokens).toBeLessThanOrEqual(budget);
    expect(s.threadInstructions?.cut).toBe(true);
    expect(s.text.endsWith(CUT_MARK)).toBe(true);
    const body = s.text.slice(s.text.indexOf(THREAD_INSTRUCTIONS_HEADING) + THREAD_INSTRUCTIONS_HEADING.length + 1, -CUT_MARK.length);
    expect(body.length).toBeGreaterThan(100);
    expect(longChinese.startsWith(body)).toBe(true);
  });

  it('never cuts a short thread prompt because the global one is long: the global one gets what the other leaves', () => {
    const s = compose('Be thorough. '.repeat(500), 'Reply in French.', 400);
    expect(s.threadInstructions).toEqual({ tokens: estimateTokens('Reply in French.'), cut: false });
    expect(s.globalInstructions?.cut).toBe(true);
    // More than its half: the room the short thread prompt left went to it.
    expect(s.globalInstructions!.tokens).toBeGreaterThan((400 - estimateTokens(base)) / 2);
    expect(s.text).toContain(`${THREAD_INSTRUCTIONS_HEADING}\nReply in French.`);
    expect(s.tokens).toBeLessThanOrEqual(400);
  });

  it('stays within the system share for any instructions, English, Chinese or mixed, and keeps Mnemo’s lines (property)', () => {
    const text = fc.oneof(fc.string({ maxLength: 3000 }), fc.stringMatching(/^[\u4e00-\u9fff，。a-z ]{0,3000}$/), fc.constant('回答要简洁 keep it short。'.repeat(150)));
    fc.assert(
      fc.property(text, fc.option(text), fc.integer({ min: estimateTokens(base), max: 2000 }), (g, th, budget) => {
        const s = compose(g, th, budget);
        expect(s.tokens).toBeLessThanOrEqual(budget);
        expect(s.text.startsWith(base)).toBe(true);
        for (const [placed, body] of [
          [s.globalInstructions, g],
          [s.threadInstructions, th ?? ''],
        ] as const) {
          if (!body.trim()) expect(placed).toBeNull();
          else if (placed && !placed.cut) expect(s.text).toContain(body.trim());
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('shareRoom', () => {
  it('gives both whole when they fit, halves when both want more, and a half one does not need to the other', () => {
    expect(shareRoom([10, 20], 100)).toEqual([10, 20]);
    expect(shareRoom([200, 300], 100)).toEqual([50, 50]);
    expect(shareRoom([10, 300], 100)).toEqual([10, 90]);
    expect(shareRoom([300, 10], 100)).toEqual([90, 10]);
  });
});

describe('planConversation breakdown', () => {
  it('splits what it used into the question, the summary and the earlier messages', () => {
    const history = [3, 2, 1].map((id) => ({ id, role: 'user' as const, content: 'x', estimatedTokens: 10 }));
    const plan = planConversation({ budgetTokens: 1000, ratio: 1, summary: 'earlier', summaryTokens: 6, summaryCoversUpTo: 0, history, userMessage: { content: 'q', estimatedTokens: 2 } });
    expect(plan.questionTokens).toBe(2 + 4);
    expect(plan.summaryTokens).toBe(6 + 4);
    expect(plan.usedTokens - plan.questionTokens - plan.summaryTokens).toBe(3 * (10 + 4));
  });
});
