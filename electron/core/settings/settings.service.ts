/**
 * Settings live one key per row (JSON values) so a future version can add keys without a migration. Reads fill in
 * defaults and drop unknown or invalid stored values (logged) rather than failing the whole app. Writes check the
 * rules across fields too (StorableSettings). The model server's API key is not a setting (api-key.ts). The rows:
 * settings.store.ts.
 */
import { Settings, StorableSettings } from '../../../shared/contract';
import { MnemoError } from '../../../shared/errors';
import type { EventBus } from '../runtime/event-bus';
import type { Clock } from '../ports/clock.port';
import type { Logger } from '../ports/logger.port';
import type { SettingsStore } from './settings.store';

export interface SettingsService {
  get(): Settings;
  update(patch: DeepPartial<Settings>): Settings;
  /**
   * Whether the setting was ever written (by the user, or by Mnemo on their behalf, like the automatic model choice).
   * update() writes only the keys a patch names, so a key without a row still follows its default: that is how
   * "not chosen yet" is told from "chose the default" (models/models.service.ts).
   */
  isStored(key: keyof Settings): boolean;
}

export function createSettingsService(deps: { store: SettingsStore; clock: Clock; events: EventBus; logger: Logger }): SettingsService {
  const { store, clock, events, logger } = deps;
  const shape = Settings.shape;

  function get(): Settings {
    const stored: Record<string, unknown> = {};
    for (const row of store.all()) {
      if (!(row.key in shape)) continue;
      try {
        const value = JSON.parse(row.value) as unknown;
        const field = shape[row.key as keyof typeof shape];
        if (field.safeParse(value).success) stored[row.key] = value;
        else logger.warn('ignoring an invalid stored setting', { key: row.key });
      } catch {
        logger.warn('ignoring an unreadable stored setting', { key: row.key });
      }
    }
    return Settings.parse(stored);
  }

  function update(patch: Partial<Settings>): Settings {
    const current = get();
    const merged: Record<string, unknown> = { ...current };
    for (const [key, value] of Object.entries(patch)) {
      const before = (current as Record<string, unknown>)[key];
      // Nested groups (retrieval, summary, budget) merge field by field.
      merged[key] = isPlainObject(before) && isPlainObject(value) ? { ...before, ...value } : value;
    }
    const parsed = StorableSettings.safeParse(merged);
    // A patch is refused for what it makes wrong or writes, not for a stored value a newer rule refuses (an address
    // stored before its confirmation was asked for): that one stays refused where it is used, and a theme can still change.
    const before = parsed.success ? [] : refusals(current);
    const issue = parsed.success ? undefined : parsed.error.issues.find((i) => !before.includes(refusalKey(i)) || String(i.path[0]) in patch);
    if (issue) {
      const path = ['patch', ...issue.path.map(String)].join('.');
      throw new MnemoError('INVALID_INPUT', `Invalid setting at "${path}": ${issue.message}.`, { path });
    }
    const next = parsed.success ? parsed.data : Settings.parse(merged);
    const keys = Object.keys(patch) as Array<keyof Settings>;
    const now = clock.now();
    store.write(
      keys.map((key) => [key, JSON.stringify(next[key])] as const),
      now,
    );
    events.emit('settings.changed', { keys });
    return next;
  }

  /** Only a row get() would use counts: an unreadable one leaves the default in force, so the key is not chosen. */
  function isStored(key: keyof Settings): boolean {
    const value = store.value(key);
    if (value === undefined) return false;
    try {
      return shape[key].safeParse(JSON.parse(value)).success;
    } catch {
      return false;
    }
  }

  return { get, update, isStored };
}

/** The cross-field rules the stored settings fail already, each as path and message. */
function refusals(settings: Settings): string[] {
  const checked = StorableSettings.safeParse(settings);
  return checked.success ? [] : checked.error.issues.map(refusalKey);
}

function refusalKey(issue: { path: PropertyKey[]; message: string }): string {
  return `${issue.path.map(String).join('.')}\n${issue.message}`;
}

type DeepPartial<T> = { [K in keyof T]?: T[K] extends Record<string, unknown> ? Partial<T[K]> : T[K] };

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
