// The system's zone is the process's: run this file in Shanghai. Vitest runs each test file in its own process, and
// Node applies a TZ set at runtime.
process.env.TZ = 'Asia/Shanghai';

import { describe, expect, it } from 'vitest';
import { buildPatch, validateDraft } from '../../renderer/src/settings/settings-form';
import { Settings, SettingsPatch } from '../../shared/contract';
import { canonicalTimeZone, systemTimeZone, userTimeZone } from '../../shared/time-zone';

describe('the user\'s time zone', () => {
  it('follows the system when the setting is empty, and the setting when it names a zone', () => {
    expect(systemTimeZone()).toBe('Asia/Shanghai');
    expect(userTimeZone('')).toBe('Asia/Shanghai');
    expect(userTimeZone('America/Los_Angeles')).toBe('America/Los_Angeles');
    expect(userTimeZone('', 'Europe/Berlin')).toBe('Europe/Berlin');
    // A stored name this platform no longer knows falls back to the system rather than failing every date.
    expect(userTimeZone('Mars/Olympus_Mons')).toBe('Asia/Shanghai');
  });

  it('knows IANA names in any case, and refuses offsets, paths and made-up names', () => {
    expect(canonicalTimeZone('asia/shanghai')).toBe('Asia/Shanghai');
    expect(canonicalTimeZone('UTC')).toBe('UTC');
    expect(canonicalTimeZone('Etc/GMT-8')).toBe('Etc/GMT-8');
    for (const bad of ['', '+08:00', '-07:00', 'GMT+8 ', '../etc/passwd', 'Mars/Olympus_Mons', 'x'.repeat(200)]) expect(canonicalTimeZone(bad)).toBeNull();
  });

  it('is a setting the contract validates: empty by default, stored canonical, an unknown name refused with a way out', () => {
    expect(Settings.parse({}).timeZone).toBe('');
    expect(SettingsPatch.parse({ timeZone: ' america/los_angeles ' })).toEqual({ timeZone: 'America/Los_Angeles' });
    const refused = SettingsPatch.safeParse({ timeZone: 'Asia/Shangai' });
    expect(refused.success).toBe(false);
    expect(refused.error!.issues[0]).toMatchObject({ path: ['timeZone'], message: expect.stringMatching(/Unknown time zone.*IANA name.*empty/) });
    expect(SettingsPatch.safeParse({ timeZone: '+08:00' }).success).toBe(false);
  });

  it('is checked in the settings form by the same rule before anything is sent', () => {
    const settings = Settings.parse({});
    expect(validateDraft(settings, { timeZone: 'Asia/Shangai' }).errors.timeZone).toEqual({ key: 'settings.error.timeZone' });
    expect(validateDraft(settings, { timeZone: '+08:00' }).valid).toBe(false);
    for (const ok of ['', '  ', 'Asia/Shanghai', 'america/los_angeles']) expect(validateDraft(settings, { timeZone: ok }).valid).toBe(true);
    expect(buildPatch(settings, { timeZone: ' Asia/Shanghai ' })).toEqual({ timeZone: 'Asia/Shanghai' });
  });
});
