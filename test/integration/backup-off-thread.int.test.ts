/**
 * A backup of a big database is copied and verified in a worker thread (database-copy.ts), and "delete forever"
 * rewrites big backups in one (backup-scrub.ts), so the thread that answers calls keeps turning meanwhile (issue 11 item 12: a 30,000-memory database took about 5 s of VACUUM INTO and
 * integrity_check on that thread). The size from which it moves off-thread is lowered here so a small database takes
 * the worker path; counted without clocks, by the event-loop turns that happen while the backup runs.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import { MnemoError } from '../../shared/errors';
import { createBackupScrubber } from '../../electron/core/backup/backup-scrub';
import { createBackupService } from '../../electron/core/backup/backup.service';
import { copyDatabaseOffThread } from '../../electron/core/db/database-copy';
import { inspectDatabaseFile } from '../../electron/core/db/inspect-database-file';
import { openDatabase } from '../../electron/core/db/open-database';
import { createEventBus } from '../../electron/core/runtime/event-bus';
import { silentLogger } from '../../electron/core/ports/logger.port';
import { derivePaths } from '../../electron/core/ports/paths.port';
import { createTestClock } from '../support/memory-harness';
import { turnsDuring } from '../support/event-loop-turns';
import { createTestCore } from '../support/test-core';
import { useTempDirs } from '../support/temp-dir';

describe('backups off the thread that answers calls', () => {
  const tempDir = useTempDirs();

  it('copies and verifies in a worker thread while the event loop keeps turning; the copy is complete', async () => {
    const dir = tempDir();
    const { core, client } = createTestCore(dir, { startQueue: false });
    for (let i = 0; i < 20; i++) unwrap(await client.call('memory.create', { content: `Remembered thing number ${i}`, category: 'knowledge' }));
    const paths = derivePaths(dir);
    const db = openDatabase(paths.dbFile, { migrationsDir: paths.migrationsDir });
    try {
      const backups = (offThreadFromBytes: number) =>
        createBackupService({ paths, clock: createTestClock(), events: createEventBus(silentLogger), logger: silentLogger, offThreadFromBytes });
      const offThread = await turnsDuring(() => backups(0).backup('manual'));
      expect(offThread.turns).toBeGreaterThan(1);
      expect(inspectDatabaseFile(offThread.value.path, paths.migrationsDir)).toMatchObject({ memories: 20 });
      expect(fs.readdirSync(paths.backupsDir).filter((f) => f.endsWith('.partial'))).toEqual([]);
      // The same service below the size copies on the calling thread: no turn is given (what every backup did before).
      const inline = await turnsDuring(() => backups(Number.MAX_SAFE_INTEGER).backup('manual'));
      expect(inline.turns).toBeLessThanOrEqual(1);
    } finally {
      db.close();
      await core.dispose();
    }
  }, 60_000);

  it('"delete forever" rewrites big backups in a worker thread while the event loop keeps turning', async () => {
    const dir = tempDir();
    const { core, client } = createTestCore(dir, { startQueue: false });
    const kept = unwrap(await client.call('memory.create', { content: 'Keeps a blue notebook', category: 'knowledge' }));
    const gone = unwrap(await client.call('memory.create', { content: 'Owns a red bicycle', category: 'knowledge' }));
    const backup = unwrap(await client.call('db.backup', {}));
    await core.dispose();
    const paths = derivePaths(dir);
    const held = () => {
      const db = new Database(backup.path, { readonly: true });
      try {
        return db.prepare('SELECT content FROM memories ORDER BY id').pluck().all();
      } finally {
        db.close();
      }
    };
    const scrubber = (offThreadFromBytes: number) => createBackupScrubber({ paths, logger: silentLogger, offThreadFromBytes });

    const offThread = await turnsDuring(() => scrubber(0).eraseMemories([{ id: gone.id, createdAt: gone.createdAt }]));
    expect(offThread.value).toEqual({ clean: 1, erased: 1, remaining: [] });
    expect(offThread.turns).toBeGreaterThan(1);
    expect(held()).toEqual([kept.content]);
    // Below the size, on the calling thread: no turn is given (what every purge did before).
    const inline = await turnsDuring(() => scrubber(Number.MAX_SAFE_INTEGER).eraseMemories([{ id: kept.id, createdAt: kept.createdAt }]));
    expect(inline.value).toEqual({ clean: 1, erased: 1, remaining: [] });
    expect(inline.turns).toBeLessThanOrEqual(1);
    expect(held()).toEqual([]);
  }, 60_000);

  it("passes the worker's failure on: SQLite's code for a file that is not a database, a MnemoError for a bad copy", async () => {
    const dir = tempDir();
    const notADatabase = path.join(dir, 'notes.txt');
    fs.writeFileSync(notADatabase, 'just some text, not SQLite '.repeat(100));
    const paths = derivePaths(dir);
    await expect(copyDatabaseOffThread({ source: notADatabase, target: path.join(dir, 'copy.sqlite'), migrationsDir: paths.migrationsDir }, 0)).rejects.toMatchObject({
      code: 'SQLITE_NOTADB',
    });
    // A SQLite database that is not Mnemo's copies fine but fails verification, as a MnemoError.
    const foreign = path.join(dir, 'foreign.sqlite');
    const other = openForeign(foreign);
    other.close();
    const failure = await copyDatabaseOffThread({ source: foreign, target: path.join(dir, 'copy2.sqlite'), migrationsDir: paths.migrationsDir }, 0).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(MnemoError);
    expect(failure).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('not a Mnemo database') });
  }, 60_000);
});

function openForeign(file: string): Database.Database {
  const db = new Database(file);
  db.exec('CREATE TABLE recipes (id INTEGER PRIMARY KEY, name TEXT)');
  return db;
}
