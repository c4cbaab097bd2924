/**
 * The words of dates, in English and Chinese, and the month arithmetic on calendar days (shared/calendar-day.ts),
 * shared by the two readers of time phrases: relative-date.ts (a validity the model copied: when a memory expires,
 * looking forward) and time-window.ts (a question's time: which stretch of the past it asks about). One vocabulary,
 * so "Sept", 两, 礼拜 or 十五 mean the same to both.
 */
import { daysInMonth, type CalendarDay } from '../../../shared/calendar-day';

export const EN_WEEKDAYS: Record<string, number> = {
  monday: 0, mon: 0,
  tuesday: 1, tue: 1, tues: 1,
  wednesday: 2, wed: 2,
  thursday: 3, thu: 3, thur: 3, thurs: 3,
  friday: 4, fri: 4,
  saturday: 5, sat: 5,
  sunday: 6, sun: 6,
};

export const EN_MONTHS: Record<string, number> = {
  january: 0, jan: 0, february: 1, feb: 1, march: 2, mar: 2, april: 3, apr: 3, may: 4, june: 5, jun: 5,
  july: 6, jul: 6, august: 7, aug: 7, september: 8, sep: 8, sept: 8, october: 9, oct: 9, november: 10, nov: 10,
  december: 11, dec: 11,
};

const EN_NUMBERS: Record<string, number> = {
  a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18,
  nineteen: 19, twenty: 20, thirty: 30, 'a couple of': 2, 'a couple': 2, couple: 2, 'a few': 3, few: 3,
};

/** 0 = Monday. */
export const ZH_WEEKDAYS: Record<string, number> = { 一: 0, 二: 1, 三: 2, 四: 3, 五: 4, 六: 5, 日: 6, 天: 6, '1': 0, '2': 1, '3': 2, '4': 3, '5': 4, '6': 5, '7': 6 };

const ZH_DIGITS: Record<string, number> = { 零: 0, 〇: 0, 一: 1, 二: 2, 两: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };

/** A Chinese or Arabic number as a regular-expression group (zhNumber reads it). */
export const ZH_NUM = '(\\d+|[零〇一二两三四五六七八九十]+)';

/** 3, 三, 十五, 二十, 二十五, 两 (up to 99). */
export function zhNumber(text: string): number | null {
  if (/^\d+$/.test(text)) return Number(text);
  const tens = /^([一二三四五六七八九两]?)十([一二三四五六七八九]?)$/.exec(text);
  if (tens) return (tens[1] ? ZH_DIGITS[tens[1]]! : 1) * 10 + (tens[2] ? ZH_DIGITS[tens[2]]! : 0);
  if (text.length === 1 && text in ZH_DIGITS) return ZH_DIGITS[text]!;
  return null;
}

/** "3", "three", "a couple of", "a few". */
export function enNumber(text: string): number | null {
  if (/^\d+$/.test(text)) return Number(text);
  return EN_NUMBERS[text] ?? null;
}

export function compareDays(a: CalendarDay, b: CalendarDay): number {
  return a.y - b.y || a.m - b.m || a.d - b.d;
}

/** The same day of the month n months later (or earlier), clamped to the month's length (Jan 31 + 1 month = Feb 28/29). */
export function addMonths(day: CalendarDay, n: number): CalendarDay {
  const total = day.y * 12 + day.m + n;
  const y = Math.floor(total / 12);
  const m = total - y * 12;
  return { y, m, d: Math.min(day.d, daysInMonth(y, m)) };
}

export function validDay(y: number, m: number, d: number): CalendarDay | null {
  if (!Number.isInteger(y) || y < 1970 || y > 9999 || m < 0 || m > 11 || d < 1 || d > daysInMonth(y, m)) return null;
  return { y, m, d };
}
