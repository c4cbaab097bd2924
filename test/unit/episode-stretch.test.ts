import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleanEpisode, stretchTranscript } from '../../electron/core/episodes/episode-prompt';
import { stretchesOf } from '../../electron/core/episodes/episode-stretch';
import { stretchFrom } from '../../electron/core/episodes/episode.job';
import { estimateTokens } from '../../electron/core/text/token-estimate';

/** Messages in thread order: ids and times increasing (several may share a time). */
const thread = fc
  .array(fc.integer({ min: 0, max: 5_000 }), { maxLength: 60 })
  .map((gaps) => gaps.reduce<Array<{ id: number; createdAt: number }>>((out, gap, i) => [...out, { id: i + 1, createdAt: (out.at(-1)?.createdAt ?? 0) + gap }], []));

describe('stretches of a thread', () => {
  it('partition its messages in order, no gap inside a stretch exceeds the quiet time, every gap between two does', () => {
    fc.assert(
      fc.property(thread, fc.integer({ min: 0, max: 5_000 }), (messages, quiet) => {
        const stretches = stretchesOf(messages, quiet);
        expect(stretches.flat()).toEqual(messages);
        for (const s of stretches) {
          expect(s.length).toBeGreaterThan(0);
          for (let i = 1; i < s.length; i++) expect(s[i]!.createdAt - s[i - 1]!.createdAt).toBeLessThanOrEqual(quiet);
        }
        for (let k = 1; k < stretches.length; k++) expect(stretches[k]![0]!.createdAt - stretches[k - 1]!.at(-1)!.createdAt).toBeGreaterThan(quiet);
      }),
    );
  });

  it('a gap of exactly the quiet time keeps one stretch; a longer one starts a new stretch', () => {
    const at = (id: number, createdAt: number) => ({ id, createdAt });
    expect(stretchesOf([at(1, 0), at(2, 30), at(3, 61)], 30).map((s) => s.map((m) => m.id))).toEqual([[1, 2], [3]]);
  });

  it('a stretch is found again from its first message after it grew, and the next one from a later message', () => {
    fc.assert(
      fc.property(thread, fc.integer({ min: 1, max: 5_000 }), (messages, quiet) => {
        for (const s of stretchesOf(messages, quiet)) expect(stretchFrom(messages, quiet, s[0]!.id)).toEqual(s);
      }),
    );
  });
});

describe('the transcript of a stretch within a budget', () => {
  const rows = fc.array(
    fc.record({ role: fc.constantFrom('user', 'assistant'), content: fc.string({ minLength: 1, maxLength: 400 }) }),
    { minLength: 1, maxLength: 40 },
  );

  it('is all of it when it fits; else the first user message, a count of what is left out, and the newest messages, within the budget', () => {
    fc.assert(
      fc.property(rows, fc.integer({ min: 64, max: 2_000 }), (raw, budget) => {
        const messages = raw.map((r, i) => ({ id: i + 1, ...r }));
        const { text, omitted } = stretchTranscript(messages, budget);
        expect(estimateTokens(text)).toBeLessThanOrEqual(budget + 8);
        const firstUser = messages.find((m) => m.role === 'user') ?? messages[0]!;
        if (omitted === 0) {
          expect(text).toBe(messages.map((m) => `${m.role === 'user' ? 'User' : 'Assistant'}: ${m.content}`).join('\n\n'));
        } else {
          expect(text.startsWith(firstUser.role === 'user' ? 'User: ' : 'Assistant: ')).toBe(true);
          expect(text).toContain(`[${omitted} messages left out here]`);
        }
      }),
    );
  });

  it('keeps the newest message whole when it fits', () => {
    const messages = [
      { id: 1, role: 'user', content: 'Plan a trip to Lisbon in May. ' + 'word '.repeat(400) },
      ...Array.from({ length: 30 }, (_, i) => ({ id: i + 2, role: i % 2 ? 'user' : 'assistant', content: `middle ${i} ` + 'filler '.repeat(40) })),
      { id: 40, role: 'assistant', content: 'Booked: the train on 12 May.' },
    ];
    const { text, omitted } = stretchTranscript(messages, 400);
    expect(text.startsWith('User: Plan a trip to Lisbon')).toBe(true);
    expect(text.endsWith('Assistant: Booked: the train on 12 May.')).toBe(true);
    expect(omitted).toBeGreaterThan(0);
  });
});

describe('cleaning the model’s episode', () => {
  const noSecret = () => false;
  it('drops thinking, an announcement and a fence, and takes the first line as the headline', () => {
    expect(cleanEpisode('<think>The user wants a summary…</think>Here is the episode:\n```markdown\n# Trip to Lisbon\nWanted: a plan.\nTools: Mnemo\n```', noSecret)).toEqual({
      title: 'Trip to Lisbon',
      content: 'Wanted: a plan.\nTools: Mnemo',
    });
    expect(cleanEpisode('好的，以下是记录：\n标题：去里斯本旅行\n用户想要一个计划。', noSecret)).toEqual({ title: '去里斯本旅行', content: '用户想要一个计划。' });
  });

  it('drops the lines that hold a secret, and gives nothing for an answer that is only thinking', () => {
    expect(cleanEpisode('Set up the server\nThe password is hunter22\nChose nginx.', (l) => l.includes('hunter22'))).toEqual({ title: 'Set up the server', content: 'Chose nginx.' });
    expect(cleanEpisode('<think>only thinking', noSecret)).toBeNull();
  });
});
