import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { columnsOf, createTitleJob, cutToColumns, REPLY_OPENING_TOKENS, TITLE_MAX_COLUMNS, titleLine, titlePrompt } from '../../electron/core/chat/title.job';
import type { BackgroundModel, BackgroundQuestion } from '../../electron/core/llm/background-model';
import type { JobContext } from '../../electron/core/jobs/job-queue';
import { estimateTokens } from '../../electron/core/text/token-estimate';

const graphemeEnds = (text: string) => {
  const ends = new Set([0]);
  let at = 0;
  for (const { segment } of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)) ends.add((at += segment.length));
  return ends;
};

describe('titleLine', () => {
  it('keeps one clean line: no reasoning, quotes, "Title:" or final period', () => {
    expect(titleLine('<think>They talk about gardens.</think>\n"Garden plans."\nMore text')).toBe('Garden plans');
    expect(titleLine('They talk about gardens.</think>\nGarden plans')).toBe('Garden plans'); // a template-opened block
    expect(titleLine('<think>Still thinking about gardens')).toBe('');
    expect(titleLine('Title: Spring planting')).toBe('Spring planting');
    expect(titleLine('标题：《春季种植计划》。')).toBe('春季种植计划');
  });

  // Written from Gemma 3 270M's answers in a walkthrough: both threads got a title that was not one.
  it('skips a code fence around the answer, and the prompt\'s own wording repeated back', () => {
    expect(titleLine('```text\nSam lives in Berlin\n```')).toBe('Sam lives in Berlin');
    expect(titleLine('```\n\n```')).toBe('');
    const instruction = titlePrompt('').split('\n')[0]!;
    expect(titleLine(instruction)).toBe('');
    expect(titleLine(`${instruction}\nNurse in Berlin`)).toBe('Nurse in Berlin');
    expect(titleLine('Write a short title (at most 6 words) for this conversation…')).toBe(''); // the echo, cut
    expect(titleLine('"Each fenced block below is data to work on"')).toBe('');
    expect(titleLine('User: Moving to Berlin')).toBe('Moving to Berlin');
  });

  it('keeps a real title that happens to share a word or two with the instructions', () => {
    expect(titleLine('Short title ideas')).toBe('Short title ideas');
    expect(titleLine('The conversation')).toBe('The conversation');
    expect(titleLine('Words for a wedding speech')).toBe('Words for a wedding speech');
  });
});

describe('cutToColumns', () => {
  it('leaves a title that fits alone', () => {
    expect(cutToColumns('Garden plans', TITLE_MAX_COLUMNS)).toBe('Garden plans');
    expect(cutToColumns('春季种植计划', TITLE_MAX_COLUMNS)).toBe('春季种植计划');
  });

  it('cuts English at a word, without a dangling comma or space', () => {
    expect(cutToColumns('Planning a vegetable garden, with tomatoes and basil', 30)).toBe('Planning a vegetable garden…');
  });

  it('counts a Chinese character as two columns and cuts between words', () => {
    const cut = cutToColumns('我想在春天种番茄和黄瓜还有一些香草和辣椒', 20);
    expect(cut).toBe('我想在春天种番茄和…');
    expect(columnsOf(cut)).toBeLessThanOrEqual(20);
  });

  it('cuts a single over-long word between characters, never inside an emoji', () => {
    expect(cutToColumns('https://example.com/a/very/long/path/that/goes/on', 20)).toBe('https://example.com…');
    const family = '👨‍👩‍👧';
    const cut = cutToColumns(family.repeat(20), 10);
    expect(cut.endsWith('…')).toBe(true);
    expect(cut.slice(0, -1).length % family.length).toBe(0);
  });

  it('fits the width, keeps a prefix of the text ending between characters, marks the cut (property)', () => {
    const text = fc.oneof(
      fc.string({ maxLength: 120 }),
      fc.array(fc.constantFrom('garden', 'plan', '春天', '番茄', '😀', '👍🏽', 'é', ' ', ', ', '—', '東京'), { maxLength: 60 }).map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(text, fc.integer({ min: 2, max: 80 }), (raw, max) => {
        const out = cutToColumns(raw, max);
        if (columnsOf(raw) <= max) {
          expect(out).toBe(raw);
          return;
        }
        expect(columnsOf(out)).toBeLessThanOrEqual(max);
        expect(out.endsWith('…')).toBe(true);
        const kept = out.slice(0, -1);
        expect(raw.startsWith(kept)).toBe(true);
        expect(graphemeEnds(raw).has(kept.length)).toBe(true);
      }),
    );
  });
});

describe('the title request', () => {
  /** The prompt the title job sends for one exchange, with a model whose window is `contextWindow` tokens. */
  async function titleRequest(user: string, reply: string, contextWindow = 8192): Promise<string> {
    const asked: BackgroundQuestion[] = [];
    const model: BackgroundModel = {
      contextWindow: async () => contextWindow,
      ask: async (q) => {
        asked.push(q);
        return { text: 'Garden plans', result: {} as never };
      },
      usage: () => ({ purposes: [], speed: null }),
      learningCostMs: () => null,
    };
    const job = createTitleJob({
      messages: { texts: () => [{ role: 'user', content: user }, { role: 'assistant', content: reply }] },
      threads: { setAutoTitle: () => true },
      clock: { now: () => 0 },
      model,
      onTitled: () => {},
    });
    const running = { id: 1, kind: 'title', threadId: 1, payload: { userMessageId: 1, assistantMessageId: 2 } } as unknown as JobContext<'title'>['job'];
    await job.run({ job: running, batch: [running], signal: new AbortController().signal } as never);
    expect(asked).toHaveLength(1);
    return asked[0]!.messages[0]!.content;
  }

  const sentences = (one: string, chars: number) => one.repeat(Math.ceil(chars / one.length)).slice(0, chars);
  const englishReply = sentences('Tomatoes want full sun, rich soil and steady water; start them indoors six weeks before the last frost. ', 2000);
  const chineseReply = sentences('番茄喜欢充足的阳光、肥沃的土壤和稳定的浇水，最好在最后一次霜冻前六周在室内育苗。', 2000);

  it('reads the reply’s opening only, in either language, and the user’s message whole', async () => {
    const user = 'How do I plan a vegetable garden for the spring, with tomatoes, basil and some peppers?';
    for (const reply of [englishReply, chineseReply]) {
      const prompt = await titleRequest(user, reply);
      expect(prompt).toContain(`User: ${user}`);
      const sent = prompt.slice(prompt.indexOf('Assistant: ') + 'Assistant: '.length).split('\n')[0]!;
      expect(reply.startsWith(sent)).toBe(true);
      expect(estimateTokens(sent)).toBeLessThanOrEqual(REPLY_OPENING_TOKENS);
      expect(estimateTokens(sent)).toBeGreaterThan(REPLY_OPENING_TOKENS * 0.8);
    }
  });

  it('costs a small fixed share of a long reply: at most the opening’s tokens over the instructions and the user’s words', async () => {
    const user = '我想在春天开一个菜园，种番茄、罗勒和辣椒，应该怎么规划？';
    for (const reply of [englishReply, chineseReply]) {
      const prompt = await titleRequest(user, reply);
      const withoutReply = estimateTokens(titlePrompt(`User: ${user}\n\nAssistant: `));
      expect(estimateTokens(prompt) - withoutReply).toBeLessThanOrEqual(REPLY_OPENING_TOKENS + 1);
    }
  });

  it('keeps the user’s message budget: a long message is read up to 2,000 characters when the window allows', async () => {
    const user = sentences('I keep a garden journal and want to plan the beds, the watering and the harvest. ', 2600);
    const prompt = await titleRequest(user, 'Sure.');
    expect(prompt).toContain(`User: ${user.slice(0, 1990)}`);
    expect(prompt).not.toContain(user.slice(0, 2050));
  });

  it('a small window cuts the reply further, never past its share', async () => {
    const prompt = await titleRequest('Plan my garden', englishReply, 200);
    const sent = prompt.slice(prompt.indexOf('Assistant: ') + 'Assistant: '.length).split('\n')[0]!;
    expect(estimateTokens(sent)).toBeLessThan(REPLY_OPENING_TOKENS / 2);
  });
});
