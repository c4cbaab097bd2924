import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { transactionWithEffects, type AfterCommit } from '../../electron/core/db/after-commit';
import { openDatabase, sourceMigrationsDir, type OpenedDatabase } from '../../electron/core/db/open-database';
import { useTempDirs } from '../support/temp-dir';

const opened: OpenedDatabase[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

describe('after-commit effects', () => {
  const tempDir = useTempDirs();

  function setup() {
    const db = openDatabase(path.join(tempDir(), 'a.db'), { migrationsDir: sourceMigrationsDir() });
    opened.push(db);
    const write = (key: string) => db.sqlite.prepare('INSERT INTO settings (key, value, updated_at) VALUES (?, 1, 0)').run(key);
    const stored = () => (db.sqlite.prepare('SELECT key FROM settings ORDER BY key').all() as Array<{ key: string }>).map((r) => r.key);
    return { db, write, stored };
  }

  it('run in order once the write is committed, and never when it rolls back', () => {
    const { db, write, stored } = setup();
    const seen: string[][] = [];
    const noErrors = (e: unknown) => expect.fail(String(e));
    expect(() =>
      transactionWithEffects(db.sqlite, (tx) => {
        write('lost');
        tx.afterCommit(() => seen.push(['lost']));
        throw new Error('rolled back');
      }, noErrors),
    ).toThrow('rolled back');
    const result = transactionWithEffects(db.sqlite, (tx) => {
      write('kept');
      tx.afterCommit(() => seen.push(['first', String(db.sqlite.inTransaction), ...stored()]));
      tx.afterCommit(() => seen.push(['second']));
      return 7;
    }, noErrors);
    expect(result).toBe(7);
    expect(seen).toEqual([['first', 'false', 'kept'], ['second']]);
  });

  it('are refused inside another transaction (its commit would not be final) and after theirs ended', () => {
    const { db } = setup();
    const inner = () => transactionWithEffects(db.sqlite, () => 1, () => {});
    expect(() => db.sqlite.transaction(inner)()).toThrow(/cannot run inside another transaction/);
    let kept: AfterCommit | null = null;
    transactionWithEffects(db.sqlite, (tx) => (kept = tx), () => {});
    expect(() => kept!.afterCommit(() => {})).toThrow(/after its transaction ended/);
  });
});
