/**
 * The user's settings as the core holds them, and the one model the settings UI edits them through: every change goes
 * through settings.update and comes back validated. The form's draft of raw input strings is checked by
 * settings-form.ts (each field by the contract's schema) and sent as one patch by submit(); a setting saved the moment
 * it changes (a switch, the learning schedule) goes through saveNow(), which keeps its last refusal beside it.
 * The API key of an OpenAI-compatible server is not a setting: it is set and forgotten through its own operations,
 * and only whether one is set comes back (openaiApiKeySet).
 */
import { create } from 'zustand';
import type { OpOutput, Settings } from '../../../shared/contract';
import type { Client } from '../../../shared/client';
import type { Result } from '../../../shared/errors';
import { systemTimeZone, userTimeZone } from '../../../shared/time-zone';
import { notConnected } from '../app/not-connected';
import type { CoreFailure } from '../i18n/error-text';
import { buildPatch, isDirty, validateDraft, type Draft, type FieldPath } from './settings-form';

type Patch = Partial<Settings>;
/** The settings and whether an API key is set. */
type StoredSettings = OpOutput<'settings.get'>;

/** A refused save keeps the core's error: the form says it in the UI's language by its code (CoreError), the core's words folded. */
export type SaveState = { kind: 'idle' } | { kind: 'saving' } | { kind: 'saved' } | { kind: 'error'; error: CoreFailure; path: string | undefined };

interface SettingsState {
  client: Client | null;
  settings: StoredSettings | null;
  /** The form's edits not saved yet, as typed. */
  draft: Draft;
  save: SaveState;
  /** Each setting saved at once, with its last refusal (cleared when it is changed again). */
  instantErrors: Partial<Record<keyof Settings, CoreFailure>>;
  init(client: Client): Promise<void>;
  load(): Promise<void>;
  update(patch: Patch): Promise<Result<StoredSettings>>;
  edit(path: FieldPath, value: string): void;
  /** The draft dropped (Discard); closeForm() also forgets the last save's outcome (the form left the screen). */
  discard(): void;
  closeForm(): void;
  /** The draft as one settings.update, when it is valid and changes something. */
  submit(): Promise<void>;
  /** "Saved" shown long enough: back to idle. */
  settleSaved(): void;
  saveNow(patch: Patch): Promise<Result<StoredSettings>>;
  setApiKey(key: string): Promise<Result<unknown>>;
  clearApiKey(): Promise<Result<unknown>>;
}


export const useSettingsStore = create<SettingsState>((set, get) => ({
  client: null,
  settings: null,
  draft: {},
  save: { kind: 'idle' },
  instantErrors: {},

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
    if (!client) return notConnected;
    // Shown at once (a theme or language change must not wait for the round trip, and a radio button that
    // snapped back until then would look refused); put back if the core refuses it.
    const before = get().settings;
    if (before) set({ settings: { ...before, ...patch } });
    const result = await client.call('settings.update', { patch });
    if (result.ok) set({ settings: result.value });
    else if (before) set({ settings: before });
    return result;
  },

  edit(path, value) {
    set((s) => ({ draft: { ...s.draft, [path]: value }, ...(s.save.kind === 'saving' ? {} : { save: { kind: 'idle' } }) }));
  },

  discard() {
    set({ draft: {} });
  },

  closeForm() {
    set({ draft: {}, save: { kind: 'idle' }, instantErrors: {} });
  },

  async submit() {
    const { settings, draft, save } = get();
    if (!settings || save.kind === 'saving' || !isDirty(settings, draft) || !validateDraft(settings, draft).valid) return;
    set({ save: { kind: 'saving' } });
    const result = await get().update(buildPatch(settings, draft));
    set(result.ok ? { draft: {}, save: { kind: 'saved' } } : { save: { kind: 'error', error: result.error, path: result.error.path } });
  },

  settleSaved() {
    if (get().save.kind === 'saved') set({ save: { kind: 'idle' } });
  },

  async saveNow(patch) {
    const keys = Object.keys(patch) as Array<keyof Settings>;
    const without = () => Object.fromEntries(Object.entries(get().instantErrors).filter(([key]) => !keys.includes(key as keyof Settings)));
    set({ instantErrors: without() });
    const result = await get().update(patch);
    if (!result.ok) set({ instantErrors: { ...without(), ...Object.fromEntries(keys.map((key) => [key, result.error])) } });
    return result;
  },

  async setApiKey(key) {
    const client = get().client;
    if (!client) return notConnected;
    const result = await client.call('settings.setApiKey', { key });
    if (result.ok) await get().load();
    return result;
  },

  async clearApiKey() {
    const client = get().client;
    if (!client) return notConnected;
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
