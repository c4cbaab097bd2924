/**
 * Resolves the validity a model copied from the user's words ("next Friday", "until 2025-06-30", "下周五", "3天后",
 * "7d", "until September") into an expiry: the END of that day (its last millisecond) in the user's time zone, in
 * milliseconds, or null when the expression is not understood. Pure: the base (the message's time) and the zone are
 * passed in, there is no clock. Days are the user's calendar days (shared/calendar-day.ts): at 07:00 in Shanghai
 * "today" ends at 23:59:59.999 Shanghai time, not at the end of the UTC day that is still yesterday.
 *
 * Conventions (chosen so an expiry errs on the late side rather than forgetting too early):
 * - weeks start on Monday; "this week", "weekend", "本周", "周末" end on that week's Sunday;
 * - "next <weekday>" and 下周X are that weekday in NEXT week (Monday -> "next Friday" is 11 days later, like 下周五);
 * - a bare or "this" weekday (English) and 周X are the first such day on or after the base day;
 *   这周X / 本周X are the day of the current week, even if it has passed (then the result is before base);
 * - "in N months" keeps the day of the month, clamped to the month's length (Jan 31 + 1 month = Feb 28/29);
 * - a month and day without a year is the next such date on or after the base day;
 * - a month without a day ("until September", "九月", "到9月底") is the END of that month, the next such month on or
 *   after the base day's month (in September, "until September" is the end of this September);
 * - durations ("7d", "24h", "for two weeks", "两周", "3 hours") count from the base; a span shorter than a day still
 *   lasts until the end of the day it ends on;
 * - "this session" / "this conversation" / 本次会话: Mnemo has no sessions that end (a thread stays open for days),
 *   so it is the end of the base day, like "today".
 * Every supported relative expression except 这周X / 本周X and explicit past dates resolves to >= base.
 *
 * Hand-written, not chrono-node (2.10, compared on the phrases above with the base at Monday 07:00 in Shanghai): it
 * takes "next Friday" for this week's, ends "until September" and 九月 on a day inside September instead of its
 * last, does not read 本周末, and its Chinese parser ignores the user's zone: 今天 comes out as the UTC date, Sunday.
 */
import { addDays, dayOf, daysInMonth, endOfDay, isoWeekday, type CalendarDay } from '../../../shared/calendar-day';
import { addMonths, compareDays, EN_MONTHS, EN_WEEKDAYS, enNumber, validDay, ZH_NUM, ZH_WEEKDAYS, zhNumber } from './date-words';

type Day = CalendarDay;

function endOfMonth(day: Day, plusMonths = 0): Day {
  const first = addMonths({ y: day.y, m: day.m, d: 1 }, plusMonths);
  return { ...first, d: daysInMonth(first.y, first.m) };
}

/** The given weekday (0 = Monday) of the week `weeksAhead` after the base day's week. */
function weekdayOfWeek(base: Day, weekday: number, weeksAhead: number): Day {
  return addDays(base, weeksAhead * 7 + weekday - isoWeekday(base));
}

function upcomingWeekday(base: Day, weekday: number): Day {
  return addDays(base, (weekday - isoWeekday(base) + 7) % 7);
}

/** Month and day without a year: the next such date on or after the base day. */
function nextMonthDay(base: Day, m: number, d: number): Day | null {
  const thisYear = validDay(base.y, m, d);
  if (thisYear && compareDays(thisYear, base) >= 0) return thisYear;
  // Feb 29 may not exist next year; look a few years ahead.
  for (let y = base.y + 1; y <= base.y + 8; y++) {
    const day = validDay(y, m, d);
    if (day) return day;
  }
  return null;
}

/** A month without a day: its last day, in the given year, or else the next such month on or after the base's. */
function monthEnd(base: Day, m: number, year?: number): Day | null {
  if (m < 0 || m > 11) return null;
  const y = year ?? (m >= base.m ? base.y : base.y + 1);
  return validDay(y, m, 1) ? endOfMonth({ y, m, d: 1 }) : null;
}

type Unit = 'day' | 'week' | 'month' | 'year';

/** Bounds "in N units" to ~100 years: anything larger is noise, not a validity. */
const MAX_DAYS_AHEAD = 36_600;

function addUnits(base: Day, n: number, unit: Unit): Day | null {
  if (!Number.isFinite(n) || n < 0) return null;
  const days = unit === 'day' ? n : unit === 'week' ? n * 7 : unit === 'month' ? n * 31 : n * 366;
  if (days > MAX_DAYS_AHEAD) return null;
  if (unit === 'day') return addDays(base, n);
  if (unit === 'week') return addDays(base, n * 7);
  if (unit === 'month') return Number.isInteger(n) ? addMonths(base, n) : addDays(base, Math.round(n * 30));
  return Number.isInteger(n) ? addMonths(base, n * 12) : addDays(base, Math.round(n * 365));
}

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

/** The day a span counted on the clock ("24h", "90 minutes") ends on, in the user's zone; null when out of range. */
type DayAfter = (ms: number) => Day | null;

function dayAfterBase(baseMs: number, timeZone: string): DayAfter {
  return (ms) => (Number.isFinite(ms) && ms >= 0 && ms <= MAX_DAYS_AHEAD * 24 * HOUR_MS ? dayOf(baseMs + ms, timeZone) : null);
}

function parseIsoDate(text: string): Day | null {
  const m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[t ][\d:.]+(?:z|[+-]\d{2}:?\d{2})?)?$/.exec(text);
  return m ? validDay(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : null;
}

/** "2026-09": the end of that month. */
function parseIsoMonth(text: string): Day | null {
  const m = /^(\d{4})[-/.](\d{1,2})$/.exec(text);
  return m && validDay(Number(m[1]), Number(m[2]) - 1, 1) ? endOfMonth({ y: Number(m[1]), m: Number(m[2]) - 1, d: 1 }) : null;
}

// Prepositions need a following space: "on" must not eat the start of "one week".
const EN_PREFIX = /^(?:(?:valid|good|true|lasts?|expires?|only|just)\s+)*(?:(?:for the next|in the next|over the next|within the next|until|till|til|'til|through|thru|up to|by|before|on|for|within|during|in|at|after)\s+)?/;
const EN_SUFFIX = /(?:\s+(?:only|at the latest|from now|from today|later|or so|time))+$/;

/**
 * Unit words and abbreviations of a span ("3 hrs", "7d", "2 wks", "3mo"). A bare "m" is left out: minutes to some,
 * months to others, and reading months as minutes would forget too early.
 */
const EN_UNITS: Record<string, Unit | 'minute' | 'hour' | 'fortnight'> = {
  min: 'minute', mins: 'minute', minute: 'minute', minutes: 'minute',
  h: 'hour', hr: 'hour', hrs: 'hour', hour: 'hour', hours: 'hour',
  d: 'day', day: 'day', days: 'day',
  w: 'week', wk: 'week', wks: 'week', week: 'week', weeks: 'week',
  mo: 'month', mos: 'month', month: 'month', months: 'month',
  y: 'year', yr: 'year', yrs: 'year', year: 'year', years: 'year',
  fortnight: 'fortnight', fortnights: 'fortnight',
};

function spanDay(base: Day, after: DayAfter, n: number, unit: Unit | 'minute' | 'hour' | 'fortnight'): Day | null {
  if (unit === 'minute') return after(n * MINUTE_MS);
  if (unit === 'hour') return after(n * HOUR_MS);
  return unit === 'fortnight' ? addUnits(base, n * 2, 'week') : addUnits(base, n, unit);
}

function resolveEnglish(text: string, base: Day, after: DayAfter): Day | null {
  const t = text.replace(EN_PREFIX, '').replace(EN_SUFFIX, '').replace(/^the\s+/, '').trim();
  const iso = parseIsoDate(t) ?? parseIsoMonth(t);
  if (iso) return iso;

  switch (t) {
    case 'today': case 'tonight': case 'this evening': case 'this afternoon': case 'this morning': case 'end of day': case 'end of the day': case 'eod':
    case 'rest of the day': case 'rest of today':
    case 'this session': case 'session': case 'current session': case 'this conversation': case 'conversation': case 'this chat':
      return base;
    case 'tomorrow': case 'tomorrow night': case 'tomorrow evening': case 'tomorrow morning':
      return addDays(base, 1);
    case 'day after tomorrow':
      return addDays(base, 2);
    case 'this week': case 'end of the week': case 'end of this week': case 'end of week': case 'this weekend': case 'the weekend': case 'weekend': case 'rest of the week':
      return weekdayOfWeek(base, 6, 0);
    case 'next week': case 'end of next week': case 'next weekend':
      return weekdayOfWeek(base, 6, 1);
    case 'this month': case 'end of the month': case 'end of this month': case 'end of month': case 'month end': case 'the end of the month': case 'rest of the month':
      return endOfMonth(base);
    case 'next month': case 'end of next month':
      return endOfMonth(base, 1);
    case 'this year': case 'end of the year': case 'end of this year': case 'end of year': case 'year end': case 'year-end': case 'rest of the year':
      return { y: base.y, m: 11, d: 31 };
    case 'next year': case 'end of next year':
      return { y: base.y + 1, m: 11, d: 31 };
    case 'a fortnight': case 'fortnight':
      return addDays(base, 14);
  }

  const weekday = /^(this|next|coming|this coming)?\s*([a-z]+)$/.exec(t);
  if (weekday && Object.hasOwn(EN_WEEKDAYS, weekday[2]!)) {
    const wd = EN_WEEKDAYS[weekday[2]!]!;
    return weekday[1] === 'next' ? weekdayOfWeek(base, wd, 1) : upcomingWeekday(base, wd);
  }

  // "3 days", "two weeks", "a couple of months", "next 7 days", "24h", "7d", "90 mins"
  // A numeral may touch its unit ("7d"); a number word may not ("march" is not "marc" hours).
  const span = /^(?:next\s+)?(?:(\d+(?:\.\d+)?)\s*|([a-z]+(?: (?:couple|few))?)(?: of)?\s+)([a-z]+)'?$/.exec(t);
  const spanUnit = span && Object.hasOwn(EN_UNITS, span[3]!) ? EN_UNITS[span[3]!] : undefined;
  if (span && spanUnit) {
    const n = span[1] !== undefined ? Number(span[1]) : enNumber(span[2]!);
    // A one-letter unit only after a numeral: "a d" is not a day.
    if (n === null || (span[3]!.length === 1 && span[1] === undefined)) return null;
    return spanDay(base, after, n, spanUnit);
  }
  const half = /^half (?:a|an) (month|year)$|^(?:a )?half[- ](month|year)$/.exec(t);
  if (half) return addUnits(base, 0.5, (half[1] ?? half[2]) as Unit);

  // "september", "end of september", "sept 2026", "the end of september 2026": the end of that month.
  const month = /^(?:(?:the )?end of )?([a-z]+)\.?(?:,?\s+(\d{4}))?$/.exec(t);
  if (month && Object.hasOwn(EN_MONTHS, month[1]!)) return monthEnd(base, EN_MONTHS[month[1]!]!, month[2] === undefined ? undefined : Number(month[2]));

  // "march 14", "mar 14th", "14 march", "march 14, 2026", "14 march 2026"
  const md = /^([a-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?(?:,?\s+(\d{4}))?$/.exec(t) ?? null;
  const dm = md ? null : /^(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?([a-z]+)\.?(?:,?\s+(\d{4}))?$/.exec(t);
  const parts = md ? { month: md[1]!, day: md[2]!, year: md[3] } : dm ? { month: dm[2]!, day: dm[1]!, year: dm[3] } : null;
  if (parts && Object.hasOwn(EN_MONTHS, parts.month)) {
    const m = EN_MONTHS[parts.month]!;
    return parts.year ? validDay(Number(parts.year), m, Number(parts.day)) : nextMonthDay(base, m, Number(parts.day));
  }
  return null;
}

const ZH_PREFIX = /^(?:有效期?|期限)?(?:直到|一直到|截至到?|截止到?|持续到?|持续|到|至|在|于|为期)?/;
const ZH_SUFFIX = /(?:之前|以前|前|为止|止|结束|截止|有效)*$/;

const ZH_SPAN = new RegExp(`^${ZH_NUM}\\s*(天|日|周|个星期|星期|个礼拜|礼拜|个月|年)(?:后|之后|以后|内|之内|以内)?$`);
const ZH_CLOCK_SPAN = new RegExp(`^${ZH_NUM}\\s*(?:个)?(小时|钟头|分钟|分)(?:后|之后|以后|内|之内|以内)?$`);
// 九月, 9月份, 九月底, 2026年9月: a month without a day. 三个月 (a span) needs 个, so it never reads as March.
const ZH_MONTH = new RegExp(`^(?:(\\d{4})年)?${ZH_NUM}月(?:份)?(?:底|末)?$`);

function resolveChinese(text: string, base: Day, after: DayAfter): Day | null {
  const unprefixed = text.replace(ZH_PREFIX, '');
  const t = unprefixed.replace(ZH_SUFFIX, '');
  // 3天前 is three days AGO, not "before 3 days from now".
  if (/前$/.test(unprefixed) && (ZH_SPAN.test(t) || ZH_CLOCK_SPAN.test(t))) return null;
  const iso = parseIsoDate(t) ?? parseIsoMonth(t);
  if (iso) return iso;

  switch (t) {
    case '今天': case '今日': case '今晚': case '今天晚上': case '当天':
    case '本次会话': case '这次会话': case '当前会话': case '本次对话': case '这次对话': case '本次聊天': case '这次聊天':
      return base;
    case '明天': case '明日': case '明晚': case '明天晚上':
      return addDays(base, 1);
    case '后天':
      return addDays(base, 2);
    case '大后天':
      return addDays(base, 3);
    case '本周': case '这周': case '这个星期': case '这星期': case '本星期': case '周末': case '这周末': case '本周末': case '这个周末':
      return weekdayOfWeek(base, 6, 0);
    case '下周': case '下星期': case '下个星期': case '下礼拜': case '下个礼拜': case '下周末': case '下个周末':
      return weekdayOfWeek(base, 6, 1);
    case '下下周': case '下下个星期':
      return weekdayOfWeek(base, 6, 2);
    case '本月': case '这个月': case '这月': case '月底': case '月末': case '本月底': case '这个月底': case '本月末':
      return endOfMonth(base);
    case '下个月': case '下月': case '下个月底': case '下月底': case '下个月末':
      return endOfMonth(base, 1);
    case '今年': case '年底': case '年末': case '今年年底': case '今年底': case '本年底':
      return { y: base.y, m: 11, d: 31 };
    case '明年': case '明年年底': case '明年底':
      return { y: base.y + 1, m: 11, d: 31 };
    case '半个月': case '半个月后': case '半个月内':
      return addDays(base, 15);
    case '半年': case '半年后': case '半年内':
      return addUnits(base, 0.5, 'year');
  }

  const weekday = /^(下下|下|这|本|这个|下个)?(?:周|星期|礼拜)([一二三四五六日天1-7])$/.exec(t);
  if (weekday) {
    const wd = ZH_WEEKDAYS[weekday[2]!]!;
    const which = weekday[1];
    if (which === '下' || which === '下个') return weekdayOfWeek(base, wd, 1);
    if (which === '下下') return weekdayOfWeek(base, wd, 2);
    if (which === '这' || which === '本' || which === '这个') return weekdayOfWeek(base, wd, 0);
    return upcomingWeekday(base, wd);
  }

  // 3小时后, 两个钟头内, 30分钟
  const clock = ZH_CLOCK_SPAN.exec(t);
  if (clock) {
    const n = zhNumber(clock[1]!);
    return n === null ? null : after(n * (clock[2] === '分钟' || clock[2] === '分' ? MINUTE_MS : HOUR_MS));
  }

  // 3天后, 两周内, 三个月之后, 十天, 2个星期, 一年后.
  const span = ZH_SPAN.exec(t);
  if (span) {
    const n = zhNumber(span[1]!);
    if (n === null) return null;
    const unit: Unit = span[2] === '天' || span[2] === '日' ? 'day' : span[2] === '个月' ? 'month' : span[2] === '年' ? 'year' : 'week';
    return addUnits(base, n, unit);
  }

  const month = ZH_MONTH.exec(t);
  if (month) {
    const m = zhNumber(month[2]!);
    return m === null ? null : monthEnd(base, m - 1, month[1] === undefined ? undefined : Number(month[1]));
  }

  // 2026年3月14日, 3月14日, 3月14号, 三月十四日
  const date = new RegExp(`^(?:(\\d{4})年)?${ZH_NUM}月${ZH_NUM}[日号]?$`).exec(t);
  if (date) {
    const m = zhNumber(date[2]!);
    const d = zhNumber(date[3]!);
    if (m === null || d === null) return null;
    return date[1] ? validDay(Number(date[1]), m - 1, d) : nextMonthDay(base, m - 1, d);
  }
  return null;
}

/**
 * The end of the day an expression designates, in `timeZone` (an IANA name, see userTimeZone), relative to `base`
 * (ms), or null when it is not understood. "permanent" and the like are NOT handled here: they mean "no expiry",
 * which the caller decides.
 */
export function resolveRelativeDate(expr: string, base: number, timeZone: string): number | null {
  if (!Number.isFinite(base)) return null;
  const text = expr
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[“”"'‘’。.!！?？,，]+$/u, '')
    .replace(/^[“”"'‘’]+/u, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (text === '' || text.length > 60) return null;
  const baseDay = dayOf(base, timeZone);
  const after = dayAfterBase(base, timeZone);
  const day = /\p{scx=Han}/u.test(text) ? resolveChinese(text.replace(/\s+/g, ''), baseDay, after) : resolveEnglish(text, baseDay, after);
  return day ? endOfDay(day, timeZone) : null;
}
