/**
 * The working memory's answer cap (focus.job.ts FOCUS_ANSWER_TOKENS): a full legitimate update fits in it in both
 * languages, and a small model's loop stops well before the old 600-token cap. What the parser and the rules make of a
 * looped answer cut at the cap.
 */
import { describe, expect, it } from 'vitest';
import { parseFocusUpdate } from '../../electron/core/focus/focus-parse';
import { applyModelUpdate, EMPTY_STATE, type FocusState } from '../../electron/core/focus/focus-rules';
import { FOCUS_ANSWER_TOKENS, focusPrompt, UPDATE_LIMITS, withoutShapeExample } from '../../electron/core/focus/focus.job';
import { estimateTokens, prefixWithinTokens } from '../../electron/core/text/token-estimate';

const T0 = Date.UTC(2026, 10, 28, 9);
const noSecret = () => false;

/** The first `n` characters of `text`, which must be that long: a text at its limit, never padding. */
function atLimit(text: string, n: number): string {
  expect(text.length).toBeGreaterThanOrEqual(n);
  return text.slice(0, n).trimEnd();
}

const CHINESE = {
  focus: '正在准备下周去波尔图的旅行，要订好河边的酒店、安排每天的行程、确认签证材料是否齐全，并且和安娜商量每天的预算、出行时间以及周末去杜罗河谷品酒的安排，还要提前查好当地的天气和交通情况，免得临时手忙脚乱。',
  tasks: [
    '预订波尔图河边的酒店，确认入住和退房日期，并把订单确认邮件转发给安娜一份以便核对',
    '把签证材料按清单整理好，补打银行流水和在职证明，周五之前交到签证中心并预约取件时间',
    '和安娜商量每天的预算上限，把餐饮、门票和交通分开记账，出发前在共享表格里定下来',
    '查好从机场到酒店的地铁线路和末班车时间，下载离线地图，准备一些零钱和交通卡备用',
    '预约周六去杜罗河谷的品酒一日游，确认接送地点和时间，问清楚是否包含午餐和保险费用',
  ],
};

const ENGLISH = {
  focus:
    'Getting ready for next week’s trip to Porto: booking a hotel by the river, planning each day, checking the visa papers, and agreeing with Ana on a daily budget and the Douro valley wine tour on Saturday.',
  tasks: [
    'Book the riverside hotel in Porto, confirm the dates and forward the confirmation to Ana',
    'Put the visa papers in order, print the bank statements and hand them in before Friday',
    'Agree on a daily budget with Ana and split food, tickets and transport in the shared sheet',
    'Look up the metro from the airport to the hotel and the last train, download offline maps',
    'Book the Saturday wine tour in the Douro valley and ask whether lunch and insurance are included',
  ],
};

/** A full update as a model writes it: every field, the longest state and importance words, ids of seven digits. */
function fullUpdate(texts: { focus: string; tasks: string[] }, focusChars: number, taskChars: number): string {
  const focus = atLimit(texts.focus, focusChars);
  const tasks = texts.tasks.slice(0, UPDATE_LIMITS.tasks).map((t, i) => `{"id": ${1_000_000 + i}, "text": "${atLimit(t, taskChars)}", "state": "in_progress", "importance": "normal"}`);
  expect(tasks).toHaveLength(UPDATE_LIMITS.tasks);
  return `{"focus": "${focus}", "tasks": [${tasks.join(', ')}]}`;
}

describe('the working memory’s answer cap', () => {
  it('holds a full update at the prompt’s limits, in Chinese and in English, read back whole', () => {
    const chinese = fullUpdate(CHINESE, UPDATE_LIMITS.focusCjkChars, UPDATE_LIMITS.taskCjkChars);
    const english = fullUpdate(ENGLISH, UPDATE_LIMITS.focusChars, UPDATE_LIMITS.taskChars);
    for (const answer of [chinese, english]) {
      expect(estimateTokens(answer)).toBeLessThanOrEqual(FOCUS_ANSWER_TOKENS);
      const update = parseFocusUpdate(answer);
      expect(update.focus).toBeTruthy();
      expect(update.tasks).toHaveLength(UPDATE_LIMITS.tasks);
    }
    // Chinese is the costlier script: its full update is what the cap is sized for, with little to spare.
    expect(estimateTokens(chinese)).toBeGreaterThan(estimateTokens(english));
    expect(estimateTokens(chinese)).toBeGreaterThan(FOCUS_ANSWER_TOKENS * 0.9);
  });

  it('is well under the old 600 tokens: a loop costs at most 40 s of a CPU laptop writing 10 tokens a second', () => {
    expect(FOCUS_ANSWER_TOKENS).toBeLessThanOrEqual(400);
    expect(FOCUS_ANSWER_TOKENS * 100).toBeLessThanOrEqual(40_000);
  });

  it('tells the model the limits the cap is sized for', () => {
    const prompt = focusPrompt({ state: EMPTY_STATE, messages: [{ id: 1, role: 'user', content: 'hi' }] });
    expect(prompt).toContain(`at most ${UPDATE_LIMITS.focusChars} characters (${UPDATE_LIMITS.focusCjkChars} in Chinese`);
    expect(prompt).toContain(`at most ${UPDATE_LIMITS.tasks} (the most important)`);
    expect(prompt).toContain(`At most ${UPDATE_LIMITS.taskChars} characters each (${UPDATE_LIMITS.taskCjkChars} in Chinese`);
  });
});

describe('a looped answer cut at the cap', () => {
  // Written like Gemma 3 270M's loop: a valid start, then the shape line's example task again and again until the cap.
  const start = '{"focus": "Planning the trip to Porto", "tasks": [{"id": 7, "text": "Book the riverside hotel", "state": "in_progress", "importance": "high"}';
  const looped = (id: (i: number) => number) => start + Array.from({ length: 200 }, (_, i) => `, {"id": ${id(i)}, "text": "short task"}`).join('');
  const cut = (raw: string) => raw.slice(0, prefixWithinTokens(raw, FOCUS_ANSWER_TOKENS));

  const known: FocusState = {
    focus: 'Planning the trip to Porto',
    focusEditedByUser: false,
    focusExpiresAt: T0 + 1000,
    tasks: [
      { id: 7, text: 'Book a hotel', state: 'open', importance: 'normal', editedByUser: false, createdAt: T0 - 1000, updatedAt: T0 - 1000, expiresAt: T0 + 3_600_000, finishedAt: null },
      { id: 8, text: 'Pack the bags', state: 'open', importance: 'normal', editedByUser: false, createdAt: T0 - 1000, updatedAt: T0 - 1000, expiresAt: T0 + 3_600_000, finishedAt: null },
    ],
  };

  it.each([
    ['the same known task', () => 8],
    ['new ids counting up', (i: number) => 100 + i],
  ])('keeps the valid start and drops the copies of the example (%s)', (_name, id) => {
    const raw = cut(looped(id));
    expect(raw.length).toBeLessThan(looped(id).length);
    const parsed = parseFocusUpdate(raw);
    // The parser salvages everything complete before the cut: the start and every whole copy of the example.
    expect(parsed.focus).toBe('Planning the trip to Porto');
    expect(parsed.tasks[0]).toEqual({ ref: 7, text: 'Book the riverside hotel', state: 'in_progress', importance: 'high' });
    expect(parsed.tasks.length).toBeGreaterThan(10);
    expect(parsed.tasks.slice(1).every((t) => t.text === 'short task')).toBe(true);
    // Without the filter the copies would rename task 8, or add a task called "short task".
    const next = applyModelUpdate(known, withoutShapeExample(parsed), T0, noSecret);
    expect(next.tasks.map((t) => [t.id, t.text, t.state])).toEqual([
      [7, 'Book the riverside hotel', 'in_progress'],
      [8, 'Pack the bags', 'open'],
    ]);
  });

  it('drops a copied example focus, and keeps an update that only resembles the example', () => {
    expect(withoutShapeExample({ focus: 'One or two sentences', tasks: [{ text: ' Short task ' }] })).toEqual({ tasks: [] });
    const real = { focus: 'Two sentences about the move', tasks: [{ text: 'Write a short task list' }] };
    expect(withoutShapeExample(real)).toEqual(real);
  });
});
