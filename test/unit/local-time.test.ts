/**
 * The user's calendar day everywhere a day is computed (issue #17, "Local time"), at a UTC+8 morning and a UTC−7
 * evening: the date the model is told, the expiries read from its answer, the exported profile, the timeline's days.
 * The resolution itself is tested in extract-relative-date.test.ts and calendar-day.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { systemPrompt } from '../../electron/core/chat/prompt-assembly';
import { parseExtraction } from '../../electron/core/extraction/extract-parse';
import { buildExtractionRequest } from '../../electron/core/extraction/extract-prompt';
import { parseTextImport } from '../../electron/core/memory/import-parse';
import { renderMarkdownExport } from '../../electron/core/memory/memory-export';
import { activityEdges } from '../../renderer/src/timeline/activity-chart';
import { groupByDay } from '../../renderer/src/timeline/timeline-format';
import type { TimelineEvent } from '../../shared/contract';

const SHANGHAI = 'Asia/Shanghai';
const LOS_ANGELES = 'America/Los_Angeles';
/** Monday 2026-06-15, 07:00 in Shanghai (UTC+8); Sunday 2026-06-14, 23:00 in UTC. */
const SHANGHAI_MONDAY_MORNING = Date.UTC(2026, 5, 14, 23);
/** Sunday 2026-07-19, 20:00 in Los Angeles (UTC−7, summer time); Monday 2026-07-20, 03:00 in UTC. */
const LA_SUNDAY_EVENING = Date.UTC(2026, 6, 20, 3);
const HOUR = 3_600_000;

const systemTurn = (req: { messages: Array<{ content: string }> }) => req.messages[0]!.content;

describe('the date the model is told', () => {
  it('is the user\'s day and weekday in the extraction prompt, in both languages', () => {
    const en = buildExtractionRequest({ userText: 'I have a dentist appointment this week.', messageDate: SHANGHAI_MONDAY_MORNING, timeZone: SHANGHAI });
    expect(systemTurn(en)).toContain('The message was written on 2026-06-15 (Monday).');
    const zh = buildExtractionRequest({ userText: '我这周要去看牙医', messageDate: SHANGHAI_MONDAY_MORNING, timeZone: SHANGHAI });
    expect(systemTurn(zh)).toContain('这条消息写于 2026-06-15（星期一）。');
    const la = buildExtractionRequest({ userText: 'I have a dentist appointment tomorrow.', messageDate: LA_SUNDAY_EVENING, timeZone: LOS_ANGELES });
    expect(systemTurn(la)).toContain('The message was written on 2026-07-19 (Sunday).');
  });

  it('is the user\'s day in the chat system prompt', () => {
    expect(systemPrompt(SHANGHAI_MONDAY_MORNING, SHANGHAI)).toContain('Today is 2026-06-15.');
    expect(systemPrompt(LA_SUNDAY_EVENING, LOS_ANGELES)).toContain('Today is 2026-07-19.');
    // The UTC day is the wrong one at both moments.
    expect(systemPrompt(SHANGHAI_MONDAY_MORNING, 'UTC')).toContain('Today is 2026-06-14.');
    expect(systemPrompt(LA_SUNDAY_EVENING, 'UTC')).toContain('Today is 2026-07-20.');
  });
});

describe('expiries read from the model\'s answer', () => {
  const answer = (validity: string, evidence: string, content = 'Has a dentist appointment') =>
    JSON.stringify({ memories: [{ content, category: 'knowledge', importance: 0.5, confidence: 0.9, validity, evidence }] });

  it('"today" at a Shanghai morning holds until the end of the Shanghai day, not 59 minutes', () => {
    const userText = 'I have a dentist appointment today at noon.';
    const [c] = parseExtraction(answer('today', 'dentist appointment today'), { userText, messageDate: SHANGHAI_MONDAY_MORNING, timeZone: SHANGHAI }).candidates;
    expect(c!.expiresAt).toBe(Date.UTC(2026, 5, 15, 16) - 1);
    expect(c!.expiresAt! - SHANGHAI_MONDAY_MORNING).toBe(17 * HOUR - 1);
  });

  it('"下周五" and "tomorrow" are counted from the user\'s day', () => {
    const zh = parseExtraction(answer('下周五', '下周五', '下周五去上海出差'), { userText: '我下周五去上海出差', messageDate: SHANGHAI_MONDAY_MORNING, timeZone: SHANGHAI });
    expect(zh.candidates[0]!.expiresAt).toBe(Date.UTC(2026, 5, 26, 16) - 1); // Friday 26 June, Shanghai
    const la = parseExtraction(answer('tomorrow', 'dentist appointment tomorrow'), { userText: 'I have a dentist appointment tomorrow morning.', messageDate: LA_SUNDAY_EVENING, timeZone: LOS_ANGELES });
    expect(la.candidates[0]!.expiresAt).toBe(Date.UTC(2026, 6, 21, 7) - 1); // Monday 20 July, Los Angeles
  });

  it('a date that is today for a Los Angeles evening is kept as the expiry, not taken for a past date (and the fact for permanent)', () => {
    const userText = 'My car is at the mechanic until 2026-07-19.';
    const c = parseExtraction(answer('2026-07-19', 'car is at the mechanic until 2026-07-19', 'Car is at the mechanic'), { userText, messageDate: LA_SUNDAY_EVENING, timeZone: LOS_ANGELES }).candidates[0]!;
    expect(c.expiresAt).toBe(Date.UTC(2026, 6, 20, 7) - 1);
  });
});

describe('the exported profile', () => {
  it('names the user\'s days, and its expiry day reads back as the end of that day', () => {
    const expiresAt = Date.UTC(2026, 5, 15, 16) - 1; // end of Monday 15 June in Shanghai (08:00 UTC would say nothing else)
    const md = renderMarkdownExport([{ id: 1, content: 'Has a dentist appointment', category: 'knowledge', importance: 0.5, pinned: 0, expires_at: expiresAt }], {
      at: SHANGHAI_MONDAY_MORNING,
      language: 'en',
      timeZone: SHANGHAI,
    });
    expect(md).toContain('(2026-06-15, 1 memory)');
    expect(md).toContain('expires 2026-06-15');
    expect(parseTextImport(md, 'knowledge', SHANGHAI)[0]!.expiresAt).toBe(expiresAt);
    // In UTC both days would be the 14th.
    expect(renderMarkdownExport([], { at: SHANGHAI_MONDAY_MORNING, language: 'en', timeZone: 'UTC' })).toContain('(2026-06-14,');
  });
});

describe('the timeline\'s days', () => {
  const event = (id: number, createdAt: number): TimelineEvent => ({ id, kind: 'learned', memoryId: id, threadId: null, messageId: null, category: 'knowledge', data: {}, createdAt });

  it('groups a Shanghai morning with the rest of that Shanghai day, and a Los Angeles evening with its own', () => {
    const shanghai = [event(3, SHANGHAI_MONDAY_MORNING), event(2, SHANGHAI_MONDAY_MORNING - 6 * HOUR), event(1, SHANGHAI_MONDAY_MORNING - 8 * HOUR)];
    // 07:00 Monday, 01:00 Monday, 23:00 Sunday (Shanghai); all of it Sunday in UTC.
    expect(groupByDay(shanghai, SHANGHAI).map((g) => [g.day, g.events.map((e) => e.id)])).toEqual([
      [Date.UTC(2026, 5, 14, 16), [3, 2]],
      [Date.UTC(2026, 5, 13, 16), [1]],
    ]);
    expect(groupByDay(shanghai, 'UTC')).toHaveLength(1);
    const la = [event(2, LA_SUNDAY_EVENING + 3 * HOUR), event(1, LA_SUNDAY_EVENING)]; // 23:00 and 20:00 Sunday in Los Angeles
    expect(groupByDay(la, LOS_ANGELES).map((g) => [g.day, g.events.map((e) => e.id)])).toEqual([[Date.UTC(2026, 6, 19, 7), [2, 1]]]);
  });

  it('the activity chart\'s last day is the user\'s today, from their midnight to the next', () => {
    for (const [now, zone, midnight] of [
      [SHANGHAI_MONDAY_MORNING, SHANGHAI, Date.UTC(2026, 5, 14, 16)],
      [LA_SUNDAY_EVENING, LOS_ANGELES, Date.UTC(2026, 6, 19, 7)],
    ] as const) {
      const edges = activityEdges(now, 'day', zone);
      expect(edges[83]).toBe(midnight);
      expect(edges[84]).toBe(midnight + 24 * HOUR);
    }
  });
});
