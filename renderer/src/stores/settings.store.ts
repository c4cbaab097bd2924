/**
 * The user's settings as the core holds them; every change goes through settings.update and comes back validated.
 * The API key of an OpenAI-compatible server is not a setting: it is set and forgotten through its own operations,
 * and only whether one is set comes back (openaiApiKeySet).
 */
import { create } from 'zustand';
import type { OpOutput, Settings } from '../../../shared/contract';
import type { Client } from '../../../shared/client';
import type { Result } from '../../../shared/errors';
import { systemTimeZone, userTimeZone } from '../../../shared/time-zone';

type Patch = Partial<Settings>;
/** The settings and whether an API key is set. */
type StoredSettings = OpOutput<'settings.get'>;

interface SettingsState {
  client: Client | null;
  settings: StoredSettings | null;
  init(client: Client): Promise<void>;
  load(): Promise<void>;
  update(patch: Patch): Promise<Result<StoredSettings>>;
  setApiKey(key: string): Promise<Result<unknown>>;
  clearApiKey(): Promise<Result<unknown>>;
}

const notReady: Result<never> = { ok: false, error: { code: 'SHUTTING_DOWN', message: 'Mnemo is not connected yet.' } };

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

  async setApiKey(key) {
    const client = get().client;
    if (!client) return notReady;
    const result = await client.call('settings.setApiKey', { key });
    if (result.ok) await get().load();
    return result;
  },

  async clearApiKey() {
    const client = get().client;
    if (!client) return notReady;
    const result = await client.call('settings.clearApiKey', {});
    if (result.ok) await get().load();
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
