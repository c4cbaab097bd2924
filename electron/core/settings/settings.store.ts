/**
 * The settings table: one JSON value per key. Read all rows, read one, write several keys in one transaction. Which
 * keys and values are valid, defaults and cross-field rules are settings.service.ts's.
 */
import type { Sqlite } from '../db/open-database';
import { writeTransaction } from '../db/write-transaction';

export function createSettingsStore(sqlite: Sqlite) {
  const selectAll = sqlite.prepare('SELECT key, value FROM settings');
  const selectKey = sqlite.prepare('SELECT value FROM settings WHERE key = ?').pluck();
  const upsert = sqlite.prepare(
    'INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
  );
  return {
    /** Every stored row, its value as stored (JSON text). */
    all: () => selectAll.all() as Array<{ key: string; value: string }>,
    /** One key's stored JSON text, or undefined without a row. */
    value: (key: string) => selectKey.get(key) as string | undefined,
    /** Writes these keys' JSON texts, all or none. */
    write(entries: ReadonlyArray<readonly [key: string, json: string]>, now: number): void {
      writeTransaction(sqlite, () => {
        for (const [key, json] of entries) upsert.run(key, json, now);
      });
    },
  };
}

export type SettingsStore = ReturnType<typeof createSettingsStore>;
