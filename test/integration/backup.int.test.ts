import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { unwrap, type Client } from '../../shared/client';
import { KEEP_AUTOMATIC } from '../../electron/core/backup/backup-rotation';
import { createBackupService } from '../../electron/core/backup/backup.service';
import { createDailyScheduler, DAY_MS } from '../../electron/core/runtime/daily-scheduler';
import { pendingRestorePath } from '../../electron/core/db/staged-restore';
import type { Core } from '../../electron/core/create-core';
import { openDatabase, sourceMigrationsDir } from '../../electron/core/db/open-database';
import { createEventBus } from '../../electron/core/runtime/event-bus';
import { silentLogger } from '../../electron/core/ports/logger.port';
import { derivePaths } from '../../electron/core/ports/paths.port';
import { createTestClock, type TestClock } from '../support/memory-harness';
import { memoriesIn } from '../support/memories-in-file';
import { useTempDirs } from '../support/temp-dir';
import { createTestCore } from '../support/test-core';

describe('backup and restore', () => {
  const tempDir = useTempDirs();
  const open: Core[] = [];
  afterEach(async () => {
    for (const core of open.splice(0)) await core.dispose();
  });

  function start(dir: string, clock: TestClock = createTestClock()): { client: Client; core: Core } {
    const { core, client } = createTestCore(dir, { startQueue: false, embedder: null, clock });
    open.push(core);
    return { core, client };
  }
  async function stop(core: Core): Promise<void> {
    open.splice(open.indexOf(core), 1);
    await core.dispose();
  }
  const contents = async (client: Client) =>
    unwrap(await client.call('memory.list', { statuses: ['active', 'trashed'], limit: 100 }))
      .items.map((m) => m.content)
      .sort();

  it('writes a verified copy in backups/ on demand and lists it', async () => {
    const dir = tempDir();
    const { client, core } = start(dir);
    const backedUp: unknown[] = [];
    core.subscribe((m) => m.event === 'db.backedUp' && backedUp.push(m.payload));
    unwrap(await client.call('memory.create', { content: '我住在上海' }));
    const backup = unwrap(await client.call('db.backup', {}));
    expect(backup).toMatchObject({ kind: 'manual', name: 'mnemo-2026-01-01T00-00-00-000Z.sqlite', createdAt: Date.UTC(2026, 0, 1) });
    expect(path.dirname(backup.path)).toBe(path.join(dir, 'backups'));
    expect(backup.sizeBytes).toBe(fs.statSync(backup.path).size);
    const copy = new Database(backup.path, { readonly: true });
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    copy.close();
    expect(memoriesIn(backup.path)).toEqual(['我住在上海']);
    // Same millisecond: a second name, never an overwrite.
    const second = unwrap(await client.call('db.backup', {}));
    expect(second.name).toBe('mnemo-2026-01-01T00-00-00-000Z-1.sqlite');
    expect(unwrap(await client.call('db.backups', {}))).toMatchObject({
      folder: path.join(dir, 'backups'),
      lastAutomaticAt: null,
      backups: [{ name: second.name }, { name: backup.name }],
    });
    expect(backedUp).toEqual([{ backup }, { backup: second }]);
    expect(fs.readdirSync(path.join(dir, 'backups')).filter((f) => f.endsWith('.partial'))).toEqual([]);
  });

  it('says why a backup cannot be written, and leaves nothing half-written', async () => {
    const dir = tempDir();
    const { client } = start(dir);
    fs.writeFileSync(path.join(dir, 'backups'), 'a file where the backups folder should be');
    const r = await client.call('db.backup', {});
    expect(r).toMatchObject({ ok: false, error: { code: 'BACKUP_FAILED', message: expect.stringMatching(/^The backup could not be written to .*backups \(EEXIST\)\. Check that the disk has space/) } });
    expect(unwrap(await client.call('db.backups', {})).backups).toEqual([]);
  });

  it('backs up daily when due (at start, then after 24 h) and keeps the 7 newest automatic ones, never others', async () => {
    const dir = tempDir();
    const clock = createTestClock();
    const paths = derivePaths(dir);
    const db = openDatabase(paths.dbFile, { migrationsDir: paths.migrationsDir, now: () => clock.now() });
    try {
      const backups = createBackupService({ paths, clock, events: createEventBus(silentLogger), logger: silentLogger });
      const manual = await backups.backup('manual');
      const preMigration = path.join(paths.backupsDir, 'pre-migration-1000.sqlite');
      fs.copyFileSync(manual.path, preMigration);
      const ranMaintenance: number[] = [];
      const scheduler = createDailyScheduler({
        clock,
        logger: silentLogger,
        tasks: [
          { name: 'backup', lastRunAt: () => backups.lastAutomaticAt(), run: () => backups.backup('automatic') },
          { name: 'maintenance', lastRunAt: () => ranMaintenance.at(-1) ?? null, run: () => void ranMaintenance.push(clock.now()) },
        ],
      });
      expect(await scheduler.runDue()).toEqual(['backup', 'maintenance']);
      clock.advance(DAY_MS - 1);
      expect(await scheduler.runDue()).toEqual([]);
      for (let day = 1; day <= 9; day++) {
        clock.set(Date.UTC(2026, 0, 1) + day * DAY_MS);
        expect(await scheduler.runDue()).toEqual(['backup', 'maintenance']);
      }
      const list = backups.list();
      const automatic = list.backups.filter((b) => b.kind === 'automatic');
      expect(automatic).toHaveLength(KEEP_AUTOMATIC);
      expect(automatic.map((b) => b.createdAt)).toEqual(Array.from({ length: 7 }, (_, i) => Date.UTC(2026, 0, 1) + (9 - i) * DAY_MS));
      expect(list.lastAutomaticAt).toBe(Date.UTC(2026, 0, 10));
      expect(list.backups.filter((b) => b.kind !== 'automatic').map((b) => b.name).sort()).toEqual([manual.name, 'pre-migration-1000.sqlite']);
      await scheduler.stop();
      expect(await scheduler.runDue()).toEqual([]);
    } finally {
      db.close();
    }
  });

  describe('rotation never deletes a backup to keep one that holds less', () => {
    /** A database in `dir` whose content (memories + messages, backup-rotation.ts) is set by hand, and its backups. */
    function backedUpDatabase(dir: string, clock: TestClock) {
      const paths = derivePaths(dir);
      let db = openDatabase(paths.dbFile, { migrationsDir: paths.migrationsDir, now: () => clock.now() });
      const service = () => createBackupService({ paths, clock, events: createEventBus(silentLogger), logger: silentLogger });
      let backups = service();
      return {
        paths,
        get backups() {
          return backups;
        },
        /** Exactly n messages (one thread); memories stay as they are. */
        holdMessages(n: number) {
          db.sqlite.exec('DELETE FROM messages; DELETE FROM threads;');
          const thread = db.sqlite.prepare("INSERT INTO threads (title, created_at, updated_at, last_activity_at) VALUES ('t', 1, 1, 1)").run().lastInsertRowid;
          const insert = db.sqlite.prepare("INSERT INTO messages (thread_id, role, content, created_at, updated_at) VALUES (?, 'user', ?, 1, 1)");
          db.sqlite.transaction(() => {
            for (let i = 0; i < n; i++) insert.run(thread, `message ${i}`);
          })();
        },
        /** The database is lost and a new, empty one takes its place (what a 0-byte or deleted mnemo.db became). */
        replaceWithEmpty() {
          db.close();
          for (const suffix of ['', '-wal', '-shm']) fs.rmSync(paths.dbFile + suffix, { force: true });
          db = openDatabase(paths.dbFile, { migrationsDir: paths.migrationsDir, now: () => clock.now() });
          backups = service();
        },
        async dailyBackup(day: number) {
          clock.set(Date.UTC(2026, 0, 1) + day * DAY_MS);
          return backups.backup('automatic');
        },
        close: () => db.close(),
      };
    }
    const messagesIn = (file: string) => {
      const db = new Database(file, { readonly: true });
      try {
        return (db.prepare('SELECT count(*) AS n FROM messages').get() as { n: number }).n;
      } finally {
        db.close();
      }
    };
    const day = (d: number) => Date.UTC(2026, 0, 1) + d * DAY_MS;

    it('a database that went empty: its daily copies are kept aside, and the 7 good ones all stay', async () => {
      const dir = tempDir();
      const d = backedUpDatabase(dir, createTestClock());
      try {
        d.holdMessages(40);
        for (let n = 0; n < 7; n++) await d.dailyBackup(n);
        d.replaceWithEmpty();
        const keptAside: string[] = [];
        for (let n = 7; n < 17; n++) keptAside.push((await d.dailyBackup(n)).path);

        const counted = d.backups.list().backups.filter((b) => b.kind === 'automatic');
        expect(counted.map((b) => b.createdAt)).toEqual([6, 5, 4, 3, 2, 1, 0].map(day));
        expect(counted.map((b) => messagesIn(b.path))).toEqual(Array(7).fill(40));
        // Kept aside, where they say they are: the 7 newest of them (all equally empty).
        const asideDir = path.join(d.paths.backupsDir, 'kept-aside');
        expect(keptAside.every((p) => path.dirname(p) === asideDir)).toBe(true);
        expect(fs.readdirSync(asideDir).sort()).toEqual(keptAside.slice(3).map((p) => path.basename(p)).sort());
        expect(fs.readdirSync(asideDir).map((f) => messagesIn(path.join(asideDir, f)))).toEqual(Array(7).fill(0));
        // The daily backup did run: it is not due again until tomorrow.
        expect(d.backups.lastAutomaticAt()).toBe(day(16));
        expect(d.backups.list().lastAutomaticAt).toBe(day(16));

        // Content comes back (at least half of the fullest copy kept): counted again, and the oldest good one goes.
        d.holdMessages(20);
        const back = await d.dailyBackup(17);
        expect(path.dirname(back.path)).toBe(d.paths.backupsDir);
        expect(d.backups.list().backups.filter((b) => b.kind === 'automatic').map((b) => b.createdAt)).toEqual([17, 6, 5, 4, 3, 2, 1].map(day));
      } finally {
        d.close();
      }
    });

    it('a database shrinking a little each day: each copy is counted, and the fullest is never deleted', async () => {
      const dir = tempDir();
      const d = backedUpDatabase(dir, createTestClock());
      try {
        // 30, 29, ..., 21: never below half of the fullest (30), so all counted; 10 is more than the 7 kept.
        for (let n = 0; n < 10; n++) {
          d.holdMessages(30 - n);
          expect(path.dirname((await d.dailyBackup(n)).path)).toBe(d.paths.backupsDir);
        }
        const counted = d.backups.list().backups.filter((b) => b.kind === 'automatic');
        expect(counted.map((b) => b.createdAt)).toEqual([9, 8, 7, 6, 5, 4, 3, 0].map(day));
        expect(counted.map((b) => messagesIn(b.path))).toEqual([21, 22, 23, 24, 25, 26, 27, 30]);
        expect(fs.existsSync(path.join(d.paths.backupsDir, 'kept-aside'))).toBe(false);
        // Less than half of the fullest (30): kept aside.
        d.holdMessages(14);
        expect(path.dirname((await d.dailyBackup(10)).path)).toBe(path.join(d.paths.backupsDir, 'kept-aside'));
        expect(d.backups.list().backups.filter((b) => b.kind === 'automatic')).toHaveLength(8);
      } finally {
        d.close();
      }
    });
  });

  it('restore round trip: a backup staged now replaces the database at the next start, the replaced one kept', async () => {
    const dir = tempDir();
    const clock = createTestClock();
    const first = start(dir, clock);
    for (const content of ['Prefers tea', '喜欢在周末爬山', 'Works on a birdhouse']) unwrap(await first.client.call('memory.create', { content }));
    const backup = unwrap(await first.client.call('db.backup', {}));
    const ids = unwrap(await first.client.call('memory.list', {})).items.map((m) => m.id);
    // Archived, not purged: a purge would erase them from the backup too (purge-backups.int.test.ts).
    unwrap(await first.client.call('memory.bulk', { action: 'archive', memoryIds: ids }));
    unwrap(await first.client.call('memory.create', { content: 'Added after the backup' }));

    const staged = unwrap(await first.client.call('db.restore', { file: backup.name }));
    expect(staged).toMatchObject({ staged: pendingRestorePath(path.join(dir, 'mnemo.db')), memories: 3, schemaVersion: expect.stringMatching(/^\d{4}_/) });
    expect(staged.message).toMatch(/^Restart Mnemo to finish/);
    // Nothing changes until the restart.
    expect(await contents(first.client)).toEqual(['Added after the backup']);
    await stop(first.core);

    clock.advance(1000);
    const second = start(dir, clock);
    expect(await contents(second.client)).toEqual(['Prefers tea', 'Works on a birdhouse', '喜欢在周末爬山']);
    expect(unwrap(await second.client.call('db.check', {})).integrity).toBe('ok');
    expect(fs.existsSync(staged.staged)).toBe(false);
    const kept = unwrap(await second.client.call('db.backups', {})).backups.find((b) => b.kind === 'pre-restore');
    expect(kept).toBeDefined();
    expect(memoriesIn(kept!.path)).toEqual(['Added after the backup', 'Prefers tea', 'Works on a birdhouse', '喜欢在周末爬山']);
    // The restored database works on: search finds by keyword, writes succeed.
    expect(unwrap(await second.client.call('memory.search', { query: '爬山' })).hits).toHaveLength(1);
    unwrap(await second.client.call('memory.create', { content: 'Written after the restore' }));
  });

  describe('refuses a file that is not a sound Mnemo database, and stages nothing', () => {
    async function refused(make: (dir: string, backup: string) => string) {
      const dir = tempDir();
      const { client } = start(dir);
      for (let i = 0; i < 300; i++) unwrap(await client.call('memory.create', { content: `Fact number ${i} about the long garden wall ${'x'.repeat(200)}` }));
      const backup = unwrap(await client.call('db.backup', {}));
      const file = make(dir, backup.path);
      const r = await client.call('db.restore', { file });
      expect(fs.existsSync(pendingRestorePath(path.join(dir, 'mnemo.db')))).toBe(false);
      expect(fs.readdirSync(dir).filter((f) => f.includes('restore'))).toEqual([]);
      expect(unwrap(await client.call('memory.list', {})).total).toBe(300);
      return r;
    }

    it('a damaged backup', async () => {
      const r = await refused((dir, backup) => {
        const bytes = fs.readFileSync(backup);
        // Overwrite pages in the middle of the file (table and index b-tree pages).
        bytes.fill(0xa5, 8 * 4096, 40 * 4096);
        const file = path.join(dir, 'damaged.sqlite');
        fs.writeFileSync(file, bytes);
        return file;
      });
      expect(r).toMatchObject({ ok: false, error: { code: 'DB_CORRUPT', message: expect.stringMatching(/^damaged\.sqlite cannot be restored: it is damaged .*Nothing was changed\.$/) } });
    });

    it('a file that is not a database', async () => {
      const r = await refused((dir) => {
        const file = path.join(dir, 'notes.sqlite');
        fs.writeFileSync(file, 'These are my notes, not a database. '.repeat(200));
        return file;
      });
      expect(r).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', message: 'notes.sqlite cannot be restored: it is not a database file. Nothing was changed.' } });
    });

    it("another program's database", async () => {
      const r = await refused((dir) => {
        const file = path.join(dir, 'other.sqlite');
        const db = new Database(file);
        db.exec('CREATE TABLE recipes (name TEXT)');
        db.close();
        return file;
      });
      expect(r).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', message: expect.stringContaining('it is not a Mnemo database') } });
    });

    it('a database from a newer Mnemo', async () => {
      const r = await refused((dir, backup) => {
        const file = path.join(dir, 'future.sqlite');
        fs.copyFileSync(backup, file);
        const db = new Database(file);
        db.prepare('UPDATE __drizzle_migrations SET created_at = ? WHERE created_at = (SELECT max(created_at) FROM __drizzle_migrations)').run(Date.UTC(2999, 0, 1));
        db.close();
        return file;
      });
      expect(r).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', message: expect.stringContaining('written by a newer version of Mnemo') } });
    });

    it('a missing file', async () => {
      const r = await refused((dir) => path.join(dir, 'nowhere.sqlite'));
      expect(r).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    });
  });

  it('waits for the next start while the database is open elsewhere', async () => {
    const dir = tempDir();
    const first = start(dir);
    unwrap(await first.client.call('memory.create', { content: 'In the backup' }));
    const backup = unwrap(await first.client.call('db.backup', {}));
    unwrap(await first.client.call('memory.create', { content: 'Not in the backup' }));
    unwrap(await first.client.call('db.restore', { file: backup.path }));

    // A second opener (the CLI beside the app) must not swap the file under the running core.
    const beside = openDatabase(path.join(dir, 'mnemo.db'), { migrationsDir: sourceMigrationsDir() });
    expect(beside.restore).toEqual({ status: 'deferred', reason: 'the database is open in another Mnemo process' });
    beside.close();
    expect(await contents(first.client)).toEqual(['In the backup', 'Not in the backup']);
    await stop(first.core);

    const again = start(dir);
    expect(await contents(again.client)).toEqual(['In the backup']);
  });

  it('refuses at start a staged file damaged since, and leaves the database as it was', async () => {
    const dir = tempDir();
    const first = start(dir);
    for (let i = 0; i < 300; i++) unwrap(await first.client.call('memory.create', { content: `Fact number ${i} ${'y'.repeat(200)}` }));
    const backup = unwrap(await first.client.call('db.backup', {}));
    const staged = unwrap(await first.client.call('db.restore', { file: backup.path })).staged;
    await stop(first.core);
    const bytes = fs.readFileSync(staged);
    bytes.fill(0x5a, 8 * 4096, 40 * 4096);
    fs.writeFileSync(staged, bytes);

    const db = openDatabase(path.join(dir, 'mnemo.db'), { migrationsDir: sourceMigrationsDir(), now: () => 77 });
    try {
      expect(db.restore).toMatchObject({ status: 'refused', keptAt: path.join(dir, 'mnemo.db.restore-refused-77') });
      expect(fs.existsSync(staged)).toBe(false);
      expect((db.sqlite.prepare('SELECT count(*) AS n FROM memories').get() as { n: number }).n).toBe(300);
    } finally {
      db.close();
    }
  });
});
