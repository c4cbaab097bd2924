/** The user's settings as the core holds them; every change goes through settings.update and comes back validated. */
import { create } from 'zustand';
import type { Settings } from '../../../shared/contract';
import type { Client } from '../../../shared/client';
import type { Result } from '../../../shared/errors';
import { systemTimeZone, userTimeZone } from '../../../shared/time-zone';

type Patch = Partial<Settings>;

interface SettingsState {
  client: Client | null;
  settings: Settings | null;
  init(client: Client): Promise<void>;
  load(): Promise<void>;
  update(patch: Patch): Promise<Result<Settings>>;
}

const notReady: Result<Settings> = { ok: false, error: { code: 'SHUTTING_DOWN', message: 'Mnemo is not connected yet.' } };

export const useSettingsStore = create<SettingsState>((set, get) => ({
  client: null,
  settings: null,

  async init(client) {
    set({ client });
    // Another window (or the CLI) may change settings too.
    client.on('settings.changed', () => void get().load());
    await get().load();
  },

  async load() {
    const client = get().client;
    if (!client) return;
    const result = await client.call('settings.get', {});
    if (result.ok) set({ settings: result.value });
  },

  async update(patch) {
    const client = get().client;
    if (!client) return notReady;
    // Shown at once (a theme or language change must not wait for the round trip, and a radio button that
    // snapped back until then would look refused); put back if the core refuses it.
    const before = get().settings;
    if (before) set({ settings: { ...before, ...patch } });
    const result = await client.call('settings.update', { patch });
    if (result.ok) set({ settings: result.value });
    else if (before) set({ settings: before });
    return result;
  },
}));

export const selectLanguage = (s: SettingsState) => s.settings?.language ?? 'en';
export const selectTheme = (s: SettingsState) => s.settings?.theme ?? 'system';

/** The browser's own zone, read once: asking Intl costs a formatter, and every date shown asks. */
export const browserTimeZone = systemTimeZone();
/** The zone the user's days and times are shown in: the setting, else the machine's (as the core counts them). */
export const selectTimeZone = (s: SettingsState) => userTimeZone(s.settings?.timeZone ?? '', browserTimeZone);
/** The same, outside a component (formatters, stores): read when called, so a settings change applies at once. */
export const currentTimeZone = () => selectTimeZone(useSettingsStore.getState());
