/**
 * The time a question asks about: "What did I tell you about the dentist last week?", "What did we talk about
 * yesterday?", 上周我们聊了什么, 三月份我说过什么. Finds the first time phrase in a message and returns the stretch
 * of calendar days it names as a window of milliseconds [from, to), in the user's time zone, and the message without
 * the phrase (its topic). Pure: `now` and the zone are passed in, there is no clock. Retrieval uses it twice: the
 * topic is what the keyword relevance floor weighs (a phrase no memory holds must not count against every memory,
 * search/keyword-query.ts; the whole question still ranks), the window says when a memory was learned or an episode
 * happened (memory-search.ts: first in the prompt; the memory tools: a filter).
 *
 * Conventions (relative-date.ts reads a validity, looking forward; a question looks back, so its conventions differ):
 * - days are the user's calendar days (shared/calendar-day.ts); weeks start on Monday, as in relative-date.ts;
 * - "last week" / 上周 is the previous calendar week (Monday to Sunday), "this week" / 本周 the current one,
 *   "two weeks ago" / 两周前 the calendar week that holds the day fourteen days back; months and years alike;
 * - "in the past week", "the last 3 days", 最近三天, 过去一周: a rolling stretch ending today (today included);
 * - a month without a year ("in March", 三月, 3月份) is the latest such month that has begun: in January, "March"
 *   is last year's; a date without a year (March 14, 3月14日) likewise the latest on or before today;
 * - a weekday ("on Friday", "last Friday", 周五) is the latest such day on or before today; 上周五 / 这周五 are the
 *   day of the previous / current week;
 * - "on weekends", "the weekend", a bare 周末 are habits, not a time ("What do I do on the weekend?"); "last
 *   weekend", 上周末, 这周末 are;
 * - English month names need a preposition or a year ("in May", "May 2025", "May 3"): a bare "may" is a verb;
 *   a Chinese month needs no 个 before 月 (三个月 is a span, not March);
 * - forward phrases ("tomorrow", "next week", 下周, 明年) are found too, so they never count as topic words; their
 *   window lies after now, which a filter on the past reads as "no filter" (inThePast).
 * Phrases this does not read stay in the topic: "recently", 最近 alone (no span), named holidays.
 */
import { addDays, dayOf, isoWeekday, startOfDay, type CalendarDay } from '../../../shared/calendar-day';
import { meaningfulTerms } from '../text/meaningful-terms';
import { addMonths, compareDays, EN_MONTHS, EN_WEEKDAYS, enNumber, validDay, ZH_NUM, ZH_WEEKDAYS, zhNumber } from './date-words';

/** Milliseconds, `from` inclusive, `to` exclusive. */
export interface TimeWindow {
  from: number;
  to: number;
}

export interface QuestionTime {
  window: TimeWindow;
  /** The phrase as the message wrote it (after NFKC). */
  phrase: string;
  /** The message without the phrase: what the question is about. May be empty ("What did we talk about last week?" keeps "What did we talk about?"). */
  topic: string;
}

type Day = CalendarDay;
type Unit = 'day' | 'week' | 'month' | 'year';
/** The first and last day of a stretch, both included. */
interface Span {
  first: Day;
  last: Day;
}

const weekStart = (day: Day, weeksBack = 0): Day => addDays(day, -isoWeekday(day) - 7 * weeksBack);
const monthStart = (day: Day, monthsBack = 0): Day => addMonths({ y: day.y, m: day.m, d: 1 }, -monthsBack);

/** The calendar unit that holds `day`, `back` units before it (negative: ahead). */
function unitOf(day: Day, unit: Unit, back: number): Span {
  if (unit === 'day') {
    const d = addDays(day, -back);
    return { first: d, last: d };
  }
  if (unit === 'week') {
    const first = weekStart(day, back);
    return { first, last: addDays(first, 6) };
  }
  if (unit === 'month') {
    const first = monthStart(day, back);
    return { first, last: addDays(addMonths(first, 1), -1) };
  }
  return { first: { y: day.y - back, m: 0, d: 1 }, last: { y: day.y - back, m: 11, d: 31 } };
}

/** The `n` units back to today, today included ("the past 3 days": today and the three before). */
function rollingBack(today: Day, n: number, unit: Unit): Span | null {
  if (!(n >= 1 && n <= 1200)) return null;
  const first = unit === 'day' ? addDays(today, -n) : unit === 'week' ? addDays(today, -7 * n) : addMonths(today, -(unit === 'month' ? n : 12 * n));
  return { first, last: today };
}

/** The latest such weekday on or before today. */
function latestWeekday(today: Day, weekday: number): Span {
  const d = addDays(today, -((isoWeekday(today) - weekday + 7) % 7));
  return { first: d, last: d };
}

/** The latest month `m` that has begun (this year's when it has, else last year's), or that month of `year`. */
function latestMonth(today: Day, m: number, year?: number): Span | null {
  const y = year ?? (m <= today.m ? today.y : today.y - 1);
  const first = validDay(y, m, 1);
  return first ? { first, last: addDays(addMonths(first, 1), -1) } : null;
}

/** The latest date with this month and day on or before today (Feb 29: the latest leap year's), or that of `year`. */
function latestDate(today: Day, m: number, d: number, year?: number): Span | null {
  if (year !== undefined) {
    const day = validDay(year, m, d);
    return day && { first: day, last: day };
  }
  for (let y = today.y; y >= today.y - 8; y--) {
    const day = validDay(y, m, d);
    if (day && compareDays(day, today) <= 0) return { first: day, last: day };
  }
  return null;
}

const one = (d: Day): Span => ({ first: d, last: d });

const EN_UNIT: Record<string, Unit> = { day: 'day', days: 'day', week: 'week', weeks: 'week', month: 'month', months: 'month', year: 'year', years: 'year' };
const EN_NUM = '(\\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a couple of|a few|couple of|few)';
const EN_UNIT_RE = '(days?|weeks?|months?|years?)';
/** Full names only: "on the sun", "in mar" are rarely dates. */
const EN_WEEKDAY_RE = '(monday|tuesday|wednesday|thursday|friday|saturday|sunday)';
const EN_MONTH_RE = '(january|february|march|april|may|june|july|august|september|october|november|december)';
/** With a day or a year after it, an abbreviated month is a date ("Mar 14", "Sept 2025"). */
const EN_MONTH_ABBR_RE = `(${Object.keys(EN_MONTHS).sort((a, b) => b.length - a.length).join('|')})`;
/** Words that may lead a phrase and go with it out of the topic. */
const EN_LEAD = '(?:(?:earlier |back |sometime |at some point )?(?:in|on|during|over|within|from|since|for|at) (?:the )?)?';

interface Rule {
  re: RegExp;
  span: (m: RegExpExecArray, today: Day) => Span | null;
}

const en = (pattern: string): RegExp => new RegExp(`(?<![\\p{L}\\p{N}])${EN_LEAD}(?:${pattern})(?![\\p{L}\\p{N}])`, 'gu');
const enUnitBack = (word: string): Unit => EN_UNIT[word]!;
const enNum = (text: string): number | null => enNumber(text.replace(/ of$/, ''));

const ENGLISH: Rule[] = [
  { re: en('(?:the )?day before yesterday'), span: (_, t) => one(addDays(t, -2)) },
  { re: en('yesterday(?: (?:morning|afternoon|evening|night))?|last night'), span: (_, t) => one(addDays(t, -1)) },
  { re: en('today|tonight|this (?:morning|afternoon|evening)'), span: (_, t) => one(t) },
  { re: en('(?:the )?day after tomorrow'), span: (_, t) => one(addDays(t, 2)) },
  { re: en('tomorrow(?: (?:morning|afternoon|evening|night))?'), span: (_, t) => one(addDays(t, 1)) },
  { re: en('(?:the )?(week|month|year) before last'), span: (m, t) => unitOf(t, enUnitBack(m[1]!), 2) },
  { re: en(`(?:the )?(?:last|past|previous) ${EN_NUM} ${EN_UNIT_RE}`), span: (m, t) => { const n = enNum(m[1]!); return n === null ? null : rollingBack(t, n, enUnitBack(m[2]!)); } },
  { re: en('(?:the )?past (day|week|month|year)'), span: (_m, t) => rollingBack(t, 1, enUnitBack(_m[1]!)) },
  { re: en('(?:the )?last few (days|weeks|months)'), span: (m, t) => rollingBack(t, 3, enUnitBack(m[1]!)) },
  { re: en('(?:last|previous) (week|month|year)'), span: (m, t) => unitOf(t, enUnitBack(m[1]!), 1) },
  { re: en('this (week|month|year)'), span: (m, t) => unitOf(t, enUnitBack(m[1]!), 0) },
  { re: en('next (week|month|year)'), span: (m, t) => unitOf(t, enUnitBack(m[1]!), -1) },
  { re: en(`${EN_NUM} ${EN_UNIT_RE} ago`), span: (m, t) => { const n = enNum(m[1]!); return n === null || n > 1200 ? null : unitOf(t, enUnitBack(m[2]!), n); } },
  { re: en('(?:last|this past) weekend'), span: (_, t) => { const first = addDays(weekStart(t, 1), 5); return { first, last: addDays(first, 1) }; } },
  { re: en('this weekend'), span: (_, t) => { const first = addDays(weekStart(t), 5); return { first, last: addDays(first, 1) }; } },
  { re: en(`(?:last|this past|previous) ${EN_WEEKDAY_RE}`), span: (m, t) => latestWeekday(addDays(t, -1), EN_WEEKDAYS[m[1]!]!) },
  { re: en(`next ${EN_WEEKDAY_RE}`), span: (m, t) => one(addDays(weekStart(t, -1), EN_WEEKDAYS[m[1]!]!)) },
  // "on Friday": EN_LEAD must have supplied "on"; checked in the span (a bare weekday is too often not a date).
  { re: en(`${EN_WEEKDAY_RE}`), span: (m, t) => (/^on /.test(m[0]) ? latestWeekday(t, EN_WEEKDAYS[m[1]!]!) : null) },
  { re: new RegExp(`(?<![\\p{L}\\p{N}])(?:on )?(\\d{4})-(\\d{1,2})-(\\d{1,2})(?![\\p{L}\\p{N}])`, 'gu'), span: (m) => { const d = validDay(Number(m[1]), Number(m[2]) - 1, Number(m[3])); return d && one(d); } },
  { re: en(`${EN_MONTH_ABBR_RE}\\.? (\\d{1,2})(?:st|nd|rd|th)?(?:,? (\\d{4}))?`), span: (m, t) => latestDate(t, EN_MONTHS[m[1]!]!, Number(m[2]), m[3] ? Number(m[3]) : undefined) },
  { re: en(`(\\d{1,2})(?:st|nd|rd|th)? (?:of )?${EN_MONTH_ABBR_RE}(?:,? (\\d{4}))?`), span: (m, t) => latestDate(t, EN_MONTHS[m[2]!]!, Number(m[1]), m[3] ? Number(m[3]) : undefined) },
  { re: en(`${EN_MONTH_ABBR_RE},? (\\d{4})`), span: (m, t) => latestMonth(t, EN_MONTHS[m[1]!]!, Number(m[2])) },
  { re: en(`(?:last|this past) ${EN_MONTH_RE}`), span: (m, t) => latestMonth(t, EN_MONTHS[m[1]!]!) },
  // "in March": a month name only after a preposition (EN_LEAD), checked in the span.
  { re: en(EN_MONTH_RE), span: (m, t) => (/^(?:earlier |back |sometime |at some point )?(?:in|during|since|over|from) /.test(m[0]) ? latestMonth(t, EN_MONTHS[m[1]!]!) : null) },
];

const zh = (pattern: string): RegExp => new RegExp(`(?:在|于|从)?(?:${pattern})(?:的时候|时|里|内|期间)?`, 'gu');
const ZH_UNIT_OF: Record<string, Unit> = { 天: 'day', 日: 'day', 周: 'week', 星期: 'week', 个星期: 'week', 礼拜: 'week', 个礼拜: 'week', 个月: 'month', 月: 'month', 年: 'year' };
const ZH_WEEK = '(?:周|星期|礼拜)';
const ZH_THIS = '(?:这|本|这个|这一)';
const ZH_LAST = '(?:上|上个|上一)';
const zhNum = (text: string): number | null => zhNumber(text);

const CHINESE: Rule[] = [
  { re: zh('大前天'), span: (_, t) => one(addDays(t, -3)) },
  { re: zh('前天'), span: (_, t) => one(addDays(t, -2)) },
  { re: zh('昨天(?:早上|上午|下午|晚上)?|昨日|昨晚|昨儿'), span: (_, t) => one(addDays(t, -1)) },
  { re: zh('今天(?:早上|上午|下午|晚上)?|今日|今早|今晚|今儿'), span: (_, t) => one(t) },
  { re: zh('大后天'), span: (_, t) => one(addDays(t, 3)) },
  { re: zh('后天'), span: (_, t) => one(addDays(t, 2)) },
  { re: zh('明天|明日|明晚'), span: (_, t) => one(addDays(t, 1)) },
  // Weekdays of a named week first: 上周五 is a day, not last week.
  { re: zh(`(上上|上上个|${ZH_LAST}|${ZH_THIS}|下|下个)?${ZH_WEEK}([一二三四五六日天1-7])`), span: (m, t) => {
    const wd = ZH_WEEKDAYS[m[2]!]!;
    const which = m[1];
    if (which === undefined) return latestWeekday(t, wd);
    const back = which.startsWith('上上') ? 2 : which.startsWith('上') ? 1 : which.startsWith('下') ? -1 : 0;
    return one(addDays(weekStart(t, back), wd));
  } },
  // A bare 周末 is habitual (我周末练什么): only a named weekend is a time.
  { re: zh(`(上上|上上个|${ZH_LAST}|${ZH_THIS}|下|下个)周末`), span: (m, t) => {
    const which = m[1]!;
    const back = which.startsWith('上上') ? 2 : which.startsWith('上') ? 1 : which.startsWith('下') ? -1 : 0;
    const first = addDays(weekStart(t, back), 5);
    return { first, last: addDays(first, 1) };
  } },
  { re: zh(`(?:最近|过去|近|这)的?${ZH_NUM}(天|日|周|个星期|星期|个礼拜|礼拜|个月|年)(?:来|以来)?`), span: (m, t) => { const n = zhNum(m[1]!); return n === null ? null : rollingBack(t, n, ZH_UNIT_OF[m[2]!]!); } },
  { re: zh(`${ZH_NUM}(天|日|周|个星期|星期|个礼拜|礼拜|个月|年)(?:前|之前|以前)`), span: (m, t) => { const n = zhNum(m[1]!); return n === null || n > 1200 ? null : unitOf(t, ZH_UNIT_OF[m[2]!]!, n); } },
  { re: zh('上上(?:个)?(?:周|星期|礼拜)'), span: (_, t) => unitOf(t, 'week', 2) },
  { re: zh(`${ZH_LAST}(?:周|星期|礼拜)`), span: (_, t) => unitOf(t, 'week', 1) },
  { re: zh(`${ZH_THIS}(?:周|星期|礼拜)`), span: (_, t) => unitOf(t, 'week', 0) },
  { re: zh('下(?:个)?(?:周|星期|礼拜)'), span: (_, t) => unitOf(t, 'week', -1) },
  { re: zh('上上个月'), span: (_, t) => unitOf(t, 'month', 2) },
  { re: zh('上个月|上月'), span: (_, t) => unitOf(t, 'month', 1) },
  { re: zh('这个月|本月|这月'), span: (_, t) => unitOf(t, 'month', 0) },
  { re: zh('下个月|下月'), span: (_, t) => unitOf(t, 'month', -1) },
  // A date or a month, with a year word or number before it when there is one: 去年三月, 2025年3月14日.
  { re: zh(`(去年|今年|前年|(\\d{4})年)?${ZH_NUM}月${ZH_NUM}[日号]`), span: (m, t) => {
    const mo = zhNum(m[3]!);
    const d = zhNum(m[4]!);
    return mo === null || d === null ? null : latestDate(t, mo - 1, d, zhYear(m[1], m[2], t));
  } },
  { re: zh(`(去年|今年|前年|(\\d{4})年)?(?<!个)${ZH_NUM}月(?:份)?(?!前|后|内|以)`), span: (m, t) => {
    const mo = zhNum(m[3]!);
    return mo === null ? null : latestMonth(t, mo - 1, zhYear(m[1], m[2], t));
  } },
  { re: zh('前年'), span: (_, t) => unitOf(t, 'year', 2) },
  { re: zh('去年'), span: (_, t) => unitOf(t, 'year', 1) },
  { re: zh('今年'), span: (_, t) => unitOf(t, 'year', 0) },
  { re: zh('明年'), span: (_, t) => unitOf(t, 'year', -1) },
];

function zhYear(word: string | undefined, digits: string | undefined, today: Day): number | undefined {
  if (digits !== undefined) return Number(digits);
  if (word === undefined) return undefined;
  return today.y - (word === '去年' ? 1 : word === '前年' ? 2 : 0);
}

/**
 * The first time phrase of `text` (the earliest; at one place, the longest) and its window in `timeZone`, relative
 * to `now` (ms); null when the text names no time this reads.
 */
export function findQuestionTime(text: string, now: number, timeZone: string): QuestionTime | null {
  if (!Number.isFinite(now)) return null;
  const source = text.normalize('NFKC');
  const lower = source.toLowerCase();
  // Lower-casing keeps offsets for every script the rules read; where it would not, phrases are cut from the lower-cased text.
  const base = lower.length === source.length ? source : lower;
  const today = dayOf(now, timeZone);
  let best: { index: number; length: number; span: Span } | null = null;
  for (const rule of [...ENGLISH, ...CHINESE]) {
    rule.re.lastIndex = 0;
    for (let m = rule.re.exec(lower); m !== null; m = rule.re.exec(lower)) {
      if (m[0].length === 0) {
        rule.re.lastIndex++;
        continue;
      }
      if (best && (m.index > best.index || (m.index === best.index && m[0].length <= best.length))) continue;
      const span = rule.span(m, today);
      if (span) best = { index: m.index, length: m[0].length, span };
    }
  }
  if (!best) return null;
  const phrase = base.slice(best.index, best.index + best.length);
  const before = base.slice(0, best.index);
  const after = base.slice(best.index + best.length);
  // Chinese is written without spaces: its two sides join as they are.
  const joint = /\p{scx=Han}$/u.test(before) || /^\p{scx=Han}/u.test(after) ? '' : ' ';
  const topic = `${before}${joint}${after}`.replace(/\s+([?？!！.。,，;；])/gu, '$1').replace(/\s+/g, ' ').trim();
  return { window: { from: startOfDay(best.span.first, timeZone), to: startOfDay(addDays(best.span.last, 1), timeZone) }, phrase: phrase.trim(), topic };
}

/**
 * Words that ask about conversation itself ("What did we talk about?", "What did I tell you?", 我们聊了什么,
 * 我说过什么): with a time, such a question is about that time, not about a subject.
 */
const EN_RECALL = /\b(?:talk(?:ed|ing)?|discuss(?:ed|ing)?|chat(?:ted|ting)?|say|said|tell|told|mention(?:ed)?|speak|spoke|ask(?:ed)?|happen(?:ed)?|do|did|done|doing|learn(?:ed|t)?|write|wrote|written|remember(?:ed)?|conversations?|about|anything|something|else|we|us|you|me|i)\b/giu;
const ZH_RECALL = /聊天|聊了|聊过|聊|说过|说了|说|谈过|谈了|谈|讲过|讲了|讲|提到|提过|讨论|发生|做了|做过|做|学了|学到|告诉|对话|我们|你|我|了|什么|过|的|吗|呢|啊|些|都|哪些/gu;

/**
 * Whether a question's topic (findQuestionTime) names no subject, only the asking: then its time alone says what it
 * wants ("What did we talk about last week?" gets that week's memories and episodes), where "What should I cook
 * tonight?" asks about cooking and gets nothing when nothing is about cooking.
 */
export function aboutTheTimeItself(topic: string): boolean {
  return meaningfulTerms(topic.normalize('NFKC').replace(EN_RECALL, ' ').replace(ZH_RECALL, ' ')).length === 0;
}

/** The part of a window that has happened by `now`; null when it lies wholly ahead (a question about the future filters nothing learned). */
export function inThePast(window: TimeWindow, now: number): TimeWindow | null {
  return window.from > now ? null : { from: window.from, to: Math.min(window.to, now + 1) };
}
