import { describe, expect, it } from 'vitest';
import { sessionTime } from '../../bench/locomo';

describe('LoCoMo session times (bench/locomo.ts, for the dated rows)', () => {
  it('reads "h:mm am/pm on D Month, YYYY" as UTC, noon and midnight included', () => {
    expect(sessionTime('1:56 pm on 8 May, 2023')).toBe(Date.UTC(2023, 4, 8, 13, 56));
    expect(sessionTime('10:04 am on 19 December, 2023')).toBe(Date.UTC(2023, 11, 19, 10, 4));
    expect(sessionTime('12:09 am on 13 September, 2023')).toBe(Date.UTC(2023, 8, 13, 0, 9));
    expect(sessionTime('12:30 pm on 1 June 2022')).toBe(Date.UTC(2022, 5, 1, 12, 30));
  });

  it('gives null for what does not read so', () => {
    expect(sessionTime('')).toBeNull();
    expect(sessionTime('8 May, 2023')).toBeNull();
    expect(sessionTime('1:56 pm on 8 Mayo, 2023')).toBeNull();
  });
});
