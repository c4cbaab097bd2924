/** An episode's stretch of time as the memory screen writes it: the day once when both ends share it, in each UI language. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatTimeRange } from '../../renderer/src/format/format';
import { useSettingsStore } from '../../renderer/src/settings/settings.store';

type SettingsState = ReturnType<typeof useSettingsStore.getState>;

const at = (day: number, hour: number, minute = 0) => Date.UTC(2026, 10, day, hour, minute);
/** ICU writes narrow and thin spaces around times and dashes; compared as plain spaces. */
const range = (from: number, to: number, language: 'en' | 'zh-CN') => formatTimeRange(from, to, language).replace(/[\u00a0\u2009\u202f]/g, ' ');

describe('formatTimeRange', () => {
  // Times show in the user's zone (the setting): UTC here, so the machine's zone does not change the text.
  const before = useSettingsStore.getState().settings;
  beforeAll(() => useSettingsStore.setState({ settings: { timeZone: 'UTC' } as SettingsState['settings'] }));
  afterAll(() => useSettingsStore.setState({ settings: before }));

  it('writes a same-day range with its date once (en)', () => {
    expect(range(at(24, 10), at(24, 11), 'en')).toBe('Nov 24, 2026, 10:00 – 11:00 AM');
    expect(range(at(24, 10), at(24, 15, 30), 'en')).toBe('Nov 24, 2026, 10:00 AM – 3:30 PM');
  });

  it('writes a same-day range with its date once (zh-CN)', () => {
    expect(range(at(24, 10), at(24, 11), 'zh-CN')).toBe('2026/11/24 10:00–11:00');
  });

  it('writes both dates when the range crosses a day', () => {
    expect(range(at(24, 23), at(25, 1), 'en')).toBe('Nov 24, 2026, 11:00 PM – Nov 25, 2026, 1:00 AM');
    expect(range(at(24, 23), at(25, 1), 'zh-CN')).toBe('2026/11/24 23:00 – 2026/11/25 01:00');
  });

  it('writes one time when both ends are the same, and never a backwards range', () => {
    expect(range(at(24, 10), at(24, 10), 'en')).toBe('Nov 24, 2026, 10:00 AM');
    expect(range(at(24, 10), at(24, 9), 'zh-CN')).toBe('2026年11月24日 10:00');
  });
});
