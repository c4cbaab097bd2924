/**
 * The settings table's store (settings/settings.store.ts) on real SQLite: one JSON text per key, written several at
 * once, overwritten in place, read back one or all.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, sourceMigrationsDir, type OpenedDatabase } from '../../electron/core/db/open-database';
import { createSettingsStore } from '../../electron/core/settings/settings.store';
import { useTempDirs } from '../support/temp-dir';

const opened: OpenedDatabase[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

describe('the settings store', () => {
  const tempDir = useTempDirs();

  it('writes keys together, overwrites a key in place, and tells a missing key from a stored one', () => {
    const db = openDatabase(path.join(tempDir(), 'mnemo.db'), { migrationsDir: sourceMigrationsDir(), now: () => 0 });
    opened.push(db);
    const store = createSettingsStore(db.sqlite);
    expect(store.value('theme')).toBeUndefined();
    store.write([['theme', '"dark"'], ['language', '"zh"']], 1);
    store.write([['theme', '"light"']], 2);
    expect(store.value('theme')).toBe('"light"');
    expect(store.all().sort((a, b) => a.key.localeCompare(b.key))).toEqual([
      { key: 'language', value: '"zh"' },
      { key: 'theme', value: '"light"' },
    ]);
    expect(db.sqlite.prepare('SELECT updated_at FROM settings WHERE key = ?').pluck().get('theme')).toBe(2);
  });

  it('writes all of a batch or none of it', () => {
    const db = openDatabase(path.join(tempDir(), 'mnemo.db'), { migrationsDir: sourceMigrationsDir(), now: () => 0 });
    opened.push(db);
    const store = createSettingsStore(db.sqlite);
    // A NULL value breaks the table's NOT NULL rule on the second key: the first one must not stay written.
    expect(() => store.write([['theme', '"dark"'], ['language', null as unknown as string]], 1)).toThrow();
    expect(store.all()).toEqual([]);
  });
});
