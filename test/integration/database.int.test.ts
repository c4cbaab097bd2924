import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MnemoError } from '../../shared/errors';
import { openDatabase, sourceMigrationsDir } from '../../electron/core/db/open-database';
import { JobQueue, type JobContext } from '../../electron/core/jobs/job-queue';
import { createJobsStore } from '../../electron/core/jobs/jobs.store';
import { silentLogger } from '../../electron/core/ports/logger.port';
import { migrationJournal, migrationsUpTo } from '../support/older-migrations';
import { readOnlyMethod, readOnlyPath } from '../support/read-only-path';
import { useTempDirs } from '../support/temp-dir';

const migrationsDir = sourceMigrationsDir();
const journal = migrationJournal();
const latestTag = journal.entries[journal.entries.length - 1]!.tag;

function expectCode(fn: () => unknown, code: string): MnemoError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(MnemoError);
    expect((e as MnemoError).code).toBe(code);
    return e as MnemoError;
  }
  throw new Error(`expected ${code}`);
}

describe('openDatabase', () => {
  const tempDir = useTempDirs();

  it('creates the whole schema in an empty file and sets the safety pragmas', () => {
    const dir = tempDir();
    const db = openDatabase(path.join(dir, 'mnemo.db'), { migrationsDir });
    try {
      expect(db.appliedMigrations).toEqual(journal.entries.map((e) => e.tag));
      expect(db.schemaVersion).toBe(latestTag);
      expect(db.preMigrationBackup).toBeNull();
      expect(db.sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.sqlite.pragma('synchronous', { simple: true })).toBe(2); // FULL
      expect(db.sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(db.sqlite.pragma('secure_delete', { simple: true })).toBe(1);
      expect(db.sqlite.pragma('busy_timeout', { simple: true })).toBe(5000);
      const names = (db.sqlite.prepare("SELECT name FROM sqlite_master WHERE type='table'").all() as Array<{ name: string }>).map((r) => r.name);
      for (const table of ['threads', 'messages', 'thread_summaries', 'memories', 'memory_versions', 'memory_vectors', 'memories_fts', 'messages_fts', 'message_memories', 'jobs', 'events', 'settings']) {
        expect(names).toContain(table);
      }
      expect(db.sqlite.prepare('SELECT vec_version() AS v').get()).toMatchObject({ v: expect.stringMatching(/^v0\./) });
    } finally {
      db.close();
    }
  });

  it('reopening an up-to-date file applies nothing and takes no backup', () => {
    const file = path.join(tempDir(), 'mnemo.db');
    openDatabase(file, { migrationsDir }).close();
    const again = openDatabase(file, { migrationsDir });
    expect(again.appliedMigrations).toEqual([]);
    expect(again.preMigrationBackup).toBeNull();
    again.close();
  });

  it('migrates a populated older database, keeps every row, and leaves a verified backup first', () => {
    const dir = tempDir();
    const file = path.join(dir, 'mnemo.db');
    const old = openDatabase(file, { migrationsDir: migrationsUpTo(dir, 1), now: () => 1 });
    const insertThread = old.sqlite.prepare('INSERT INTO threads (title, created_at, updated_at, last_activity_at) VALUES (?, 1, 1, 1)');
    const insertMessage = old.sqlite.prepare("INSERT INTO messages (thread_id, role, content, created_at, updated_at) VALUES (?, 'user', ?, 1, 1)");
    const insertMemory = old.sqlite.prepare("INSERT INTO memories (content, content_hash, category, created_at, updated_at) VALUES (?, ?, 'preference', 1, 1)");
    old.sqlite.transaction(() => {
      for (let t = 0; t < 5; t++) {
        const threadId = Number(insertThread.run(`thread ${t}`).lastInsertRowid);
        for (let m = 0; m < 20; m++) insertMessage.run(threadId, `message ${t}/${m} 你好`);
      }
      for (let i = 0; i < 50; i++) insertMemory.run(`memory ${i}`, `h${i}`);
    })();
    old.close();

    const db = openDatabase(file, { migrationsDir, now: () => 42 });
    try {
      expect(db.appliedMigrations).toEqual(journal.entries.slice(1).map((e) => e.tag));
      const count = (table: string) => (db.sqlite.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
      expect(count('threads')).toBe(5);
      expect(count('messages')).toBe(100);
      expect(count('memories')).toBe(50);
      expect(db.preMigrationBackup).toBe(path.join(dir, 'backups', 'pre-migration-42.sqlite'));
      const copy = new Database(db.preMigrationBackup!, { readonly: true });
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      expect((copy.prepare('SELECT count(*) AS n FROM messages').get() as { n: number }).n).toBe(100);
      copy.close();
    } finally {
      db.close();
    }
  });

  it('the memories rebuild (0006) keeps every memory and what points at it, and never reuses a purged id', () => {
    const dir = tempDir();
    const file = path.join(dir, 'mnemo.db');
    const before = journal.entries.findIndex((e) => e.tag.startsWith('0006_'));
    const old = openDatabase(file, { migrationsDir: migrationsUpTo(dir, before), now: () => 1 });
    old.sqlite.transaction(() => {
      const threadId = Number(old.sqlite.prepare("INSERT INTO threads (title, created_at, updated_at, last_activity_at) VALUES ('t', 1, 1, 1)").run().lastInsertRowid);
      const insert = old.sqlite.prepare("INSERT INTO memories (content, content_hash, category, source_thread_id, created_at, updated_at) VALUES (?, ?, 'preference', ?, 1, 1)");
      for (let i = 0; i < 12; i++) insert.run(`memory ${i} 喜欢`, `h${i}`, threadId);
      old.sqlite.prepare("INSERT INTO memory_versions (memory_id, version, content, category, importance, pinned, status, origin, reason, created_at) SELECT id, 1, content, category, 0.5, 0, 'active', 'user', 'created', 1 FROM memories").run();
      old.sqlite.prepare('UPDATE memories SET superseded_by = 2 WHERE id = 1').run();
      old.sqlite.prepare('INSERT INTO thread_memory_exclusions (thread_id, memory_id, created_at) VALUES (?, 3, 1)').run(threadId);
      // The two newest are purged: AUTOINCREMENT remembers 12 although the highest id left is 10.
      old.sqlite.prepare('DELETE FROM memories WHERE id > 10').run();
    })();
    old.close();

    const db = openDatabase(file, { migrationsDir, now: () => 42 });
    try {
      const get = (sql: string) => db.sqlite.prepare(sql).get() as Record<string, unknown>;
      expect(get('SELECT count(*) AS n, max(id) AS top FROM memories')).toEqual({ n: 10, top: 10 });
      expect(get('SELECT count(*) AS n FROM memory_versions')).toEqual({ n: 10 });
      expect(get('SELECT superseded_by AS s FROM memories WHERE id = 1')).toEqual({ s: 2 });
      expect(get('SELECT count(*) AS n FROM thread_memory_exclusions WHERE memory_id = 3')).toEqual({ n: 1 });
      expect(db.sqlite.pragma('foreign_key_check')).toEqual([]);
      const next = db.sqlite.prepare("INSERT INTO memories (content, content_hash, category, created_at, updated_at) VALUES ('new', 'hn', 'skill', 2, 2)").run();
      expect(Number(next.lastInsertRowid)).toBe(13);
      // Deleting a memory still cascades to its versions (the foreign keys point at the rebuilt table).
      db.sqlite.prepare('DELETE FROM memories WHERE id = 4').run();
      expect(get('SELECT count(*) AS n FROM memory_versions WHERE memory_id = 4')).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });

  it('the jobs rename (0007) keeps every job as it was, after a verified backup, and the queue runs them', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'mnemo.db');
    const before = journal.entries.findIndex((e) => e.tag.startsWith('0007_'));
    const old = openDatabase(file, { migrationsDir: migrationsUpTo(dir, before), now: () => 1 });
    const insertJob = old.sqlite.prepare(
      `INSERT INTO extraction_jobs (kind, idempotency_key, thread_id, message_id, payload, status, attempts, max_attempts, run_after, lease_owner,
       lease_expires_at, fencing_token, last_error_code, last_error_message, created_at, updated_at, finished_at)
       VALUES (@kind, @key, @thread, @message, @payload, @status, @attempts, 5, @runAfter, @owner, @expires, @token, @code, @errorMessage, 1, 2, @finished)`,
    );
    const job = { thread: null, message: null, attempts: 0, runAfter: 1, owner: null, expires: null, token: 0, code: null, errorMessage: null, finished: null };
    old.sqlite.transaction(() => {
      const threadId = Number(old.sqlite.prepare("INSERT INTO threads (title, created_at, updated_at, last_activity_at) VALUES ('t', 1, 1, 1)").run().lastInsertRowid);
      const message = (role: string) => Number(old.sqlite.prepare('INSERT INTO messages (thread_id, role, content, created_at, updated_at) VALUES (?, ?, ?, 1, 1)').run(threadId, role, `${role} 你好`).lastInsertRowid);
      const [user, reply] = [message('user'), message('assistant')];
      const exchange = JSON.stringify({ userMessageId: user, assistantMessageId: reply });
      insertJob.run({ ...job, kind: 'extract', key: `extract:${reply}:v1`, thread: threadId, message: reply, payload: exchange, status: 'queued' });
      insertJob.run({ ...job, kind: 'title', key: `title:${threadId}`, thread: threadId, payload: exchange, status: 'running', attempts: 1, owner: '1@gone#a1', expires: 5, token: 3 });
      insertJob.run({ ...job, kind: 'summarize', key: `summarize:${threadId}:${reply}`, thread: threadId, payload: JSON.stringify({ upToMessageId: reply }), status: 'dead', attempts: 5, code: 'LLM_BAD_OUTPUT', errorMessage: 'The model returned no summary.', finished: 9 });
      insertJob.run({ ...job, kind: 'reembed', key: 'reembed:startup:1', payload: JSON.stringify({ reason: 'startup' }), status: 'done', attempts: 1, finished: 3 });
      insertJob.run({ ...job, kind: 'reembed', key: 'reembed:startup:2', payload: JSON.stringify({ reason: 'startup' }), status: 'cancelled' });
      // The newest is gone (cancelled, then its thread deleted): AUTOINCREMENT remembers 5 although the highest id left is 4.
      old.sqlite.prepare('DELETE FROM extraction_jobs WHERE id = 5').run();
    })();
    const rowsBefore = old.sqlite.prepare('SELECT * FROM extraction_jobs ORDER BY id').all();
    old.close();

    const db = openDatabase(file, { migrationsDir, now: () => 42 });
    try {
      expect(db.appliedMigrations).toEqual(journal.entries.slice(before).map((e) => e.tag));
      // Migrated only after a verified copy, which still holds the jobs under their old name.
      const copy = new Database(db.preMigrationBackup!, { readonly: true });
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(copy.prepare('SELECT * FROM extraction_jobs ORDER BY id').all()).toEqual(rowsBefore);
      copy.close();

      const tables = (db.sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '%jobs%'").all() as Array<{ name: string }>).map((r) => r.name);
      expect(tables).toEqual(['jobs']);
      expect(db.sqlite.prepare('SELECT * FROM jobs ORDER BY id').all()).toEqual(rowsBefore);
      const indexes = (db.sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'jobs' AND sql IS NOT NULL ORDER BY name").all() as Array<{ name: string }>).map((r) => r.name);
      expect(indexes).toEqual(['jobs_idempotency_uq', 'jobs_message_idx', 'jobs_ready_idx', 'jobs_thread_idx']);
      expect(db.sqlite.pragma('foreign_key_check')).toEqual([]);
      expect(() => db.sqlite.prepare("INSERT INTO jobs (kind, idempotency_key, run_after, created_at, updated_at) VALUES ('nonsense', 'x', 1, 1, 1)").run()).toThrow(/CHECK constraint failed: jobs_kind_chk/);

      // The queue reads the migrated rows: a new job gets a new id, the stalled title job is taken back and runs with the queued ones.
      const queue = new JobQueue({ store: createJobsStore(db.sqlite), clock: { now: () => 100 }, logger: silentLogger });
      expect(queue.enqueue({ kind: 'reembed', payload: { reason: 'after-migration' }, idempotencyKey: 'reembed:new' })).toBe(6);
      const ran: string[] = [];
      const record = async ({ job }: JobContext) => (ran.push(`${job.kind}:${JSON.stringify(job.payload)}`), null);
      for (const kind of ['extract', 'title', 'summarize', 'reembed'] as const) queue.register({ kind, run: record });
      await queue.runUntilIdle();
      const exchange = JSON.stringify({ userMessageId: 1, assistantMessageId: 2 });
      expect(ran.sort()).toEqual([`extract:${exchange}`, 'reembed:{"reason":"after-migration"}', `title:${exchange}`]);
      expect(queue.get(3)).toMatchObject({ status: 'dead', lastErrorCode: 'LLM_BAD_OUTPUT' });

      // Deleting the thread still removes its jobs (the foreign keys came along).
      db.sqlite.prepare('DELETE FROM threads').run();
      expect(db.sqlite.prepare('SELECT id FROM jobs ORDER BY id').all()).toEqual([{ id: 4 }, { id: 6 }]);
    } finally {
      db.close();
    }
  });

  it('a failing migration leaves the database exactly as it was', () => {
    const dir = tempDir();
    const file = path.join(dir, 'mnemo.db');
    openDatabase(file, { migrationsDir }).close();
    const seeded = new Database(file);
    seeded.prepare('INSERT INTO threads (title, created_at, updated_at, last_activity_at) VALUES (?, 1, 1, 1)').run('keep me');
    seeded.pragma('wal_checkpoint(TRUNCATE)');
    seeded.close();
    const schemaBefore = new Database(file, { readonly: true }).prepare('SELECT sql FROM sqlite_master ORDER BY name').all();

    const broken = migrationsUpTo(dir, journal.entries.length);
    const brokenJournal = JSON.parse(fs.readFileSync(path.join(broken, 'meta', '_journal.json'), 'utf8'));
    brokenJournal.entries.push({ idx: 99, version: '6', when: Date.now() + 1000, tag: '9999_broken', breakpoints: true });
    fs.writeFileSync(path.join(broken, 'meta', '_journal.json'), JSON.stringify(brokenJournal));
    fs.writeFileSync(
      path.join(broken, '9999_broken.sql'),
      'ALTER TABLE threads ADD COLUMN doomed text;\n--> statement-breakpoint\nDELETE FROM threads;\n--> statement-breakpoint\nTHIS IS NOT SQL;',
    );

    const error = expectCode(() => openDatabase(file, { migrationsDir: broken }), 'DB_MIGRATION_FAILED');
    expect(error.message).toMatch(/rolled back; your data is unchanged/);

    const after = new Database(file, { readonly: true });
    expect(after.prepare('SELECT sql FROM sqlite_master ORDER BY name').all()).toEqual(schemaBefore);
    expect(after.prepare('SELECT title FROM threads').all()).toEqual([{ title: 'keep me' }]);
    after.close();
    // ...and the good migrations still open it normally.
    openDatabase(file, { migrationsDir }).close();
  });

  it('a migration that would orphan rows is refused by foreign_key_check, not cascaded away', () => {
    const dir = tempDir();
    const file = path.join(dir, 'mnemo.db');
    openDatabase(file, { migrationsDir }).close();
    const seeded = new Database(file);
    const threadId = seeded.prepare('INSERT INTO threads (title, created_at, updated_at, last_activity_at) VALUES (?, 1, 1, 1)').run('t').lastInsertRowid;
    seeded.prepare("INSERT INTO messages (thread_id, role, content, created_at, updated_at) VALUES (?, 'user', 'hi', 1, 1)").run(threadId);
    seeded.close();

    const broken = migrationsUpTo(dir, journal.entries.length);
    const j = JSON.parse(fs.readFileSync(path.join(broken, 'meta', '_journal.json'), 'utf8'));
    j.entries.push({ idx: 98, version: '6', when: Date.now() + 1000, tag: '9998_orphans', breakpoints: true });
    fs.writeFileSync(path.join(broken, 'meta', '_journal.json'), JSON.stringify(j));
    // With foreign keys on, this would cascade-delete the message; with them off it must be caught by the check.
    fs.writeFileSync(path.join(broken, '9998_orphans.sql'), 'DELETE FROM threads;');

    expectCode(() => openDatabase(file, { migrationsDir: broken }), 'DB_MIGRATION_FAILED');
    const after = new Database(file, { readonly: true });
    expect((after.prepare('SELECT count(*) AS n FROM messages').get() as { n: number }).n).toBe(1);
    expect((after.prepare('SELECT count(*) AS n FROM threads').get() as { n: number }).n).toBe(1);
    after.close();
  });

  it('refuses a file that is not a database, and never replaces or changes it', () => {
    const file = path.join(tempDir(), 'mnemo.db');
    const garbage = Buffer.from('this is not an SQLite database, it is the only copy of something precious'.repeat(100));
    fs.writeFileSync(file, garbage);
    const error = expectCode(() => openDatabase(file, { migrationsDir }), 'DB_CORRUPT');
    expect(error.message).toContain(file);
    expect(error.message).toMatch(/has not changed or replaced the file/);
    expect(fs.readFileSync(file).equals(garbage)).toBe(true);
  });

  it('refuses a database whose pages are damaged, leaving the bytes as they were', () => {
    const file = path.join(tempDir(), 'mnemo.db');
    const db = openDatabase(file, { migrationsDir });
    const insert = db.sqlite.prepare("INSERT INTO messages (thread_id, role, content, created_at, updated_at) VALUES (?, 'user', ?, 1, 1)");
    const threadId = db.sqlite.prepare("INSERT INTO threads (title, created_at, updated_at, last_activity_at) VALUES ('t', 1, 1, 1)").run().lastInsertRowid;
    db.sqlite.transaction(() => {
      for (let i = 0; i < 2000; i++) insert.run(threadId, `message number ${i} with some padding text to fill pages`);
    })();
    db.close();
    // Overwrite the middle of the file (b-tree pages) with garbage, keeping the header intact.
    const bytes = fs.readFileSync(file);
    const pageSize = bytes.readUInt16BE(16);
    for (let p = 3; p < bytes.length / pageSize - 1; p += 2) bytes.fill(0xa5, p * pageSize + 8, p * pageSize + pageSize - 8);
    fs.writeFileSync(file, bytes);

    expectCode(() => openDatabase(file, { migrationsDir }), 'DB_CORRUPT');
    expect(fs.readFileSync(file).equals(bytes)).toBe(true);
    expect(fs.existsSync(path.join(path.dirname(file), 'backups'))).toBe(false);
  });
});

describe("openDatabase refuses what is not Mnemo's", () => {
  const tempDir = useTempDirs();
  const sha256 = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

  it("another program's SQLite file: DB_NOT_MNEMO, naming the file and what to do, and not one byte changed", () => {
    const dir = tempDir();
    const file = path.join(dir, 'mnemo.db');
    const other = new Database(file);
    other.exec("CREATE TABLE recipes (name TEXT, steps TEXT); INSERT INTO recipes VALUES ('bread', 'knead'), ('soup', 'stir');");
    other.close();
    const before = sha256(file);

    const error = expectCode(() => openDatabase(file, { migrationsDir }), 'DB_NOT_MNEMO');
    expect(error.message).toContain(file);
    expect(error.message).toMatch(/not a Mnemo database: .*\(recipes\)\. Mnemo has not changed it\./);
    expect(error.message).toMatch(/Move it elsewhere/);
    expect(sha256(file)).toBe(before);
    expect(fs.readdirSync(dir)).toEqual(['mnemo.db']);
  });

  it("another program's file that also uses drizzle's migrations table is refused too", () => {
    const dir = tempDir();
    const file = path.join(dir, 'mnemo.db');
    const other = new Database(file);
    other.exec('CREATE TABLE __drizzle_migrations (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric); CREATE TABLE invoices (total REAL);');
    other.prepare('INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)').run('abc', 1_600_000_000_000);
    other.close();
    const before = sha256(file);
    expectCode(() => openDatabase(file, { migrationsDir }), 'DB_NOT_MNEMO');
    expect(sha256(file)).toBe(before);
  });

  it('a database file with no tables yet is taken as a new one', () => {
    const file = path.join(tempDir(), 'mnemo.db');
    const blank = new Database(file);
    blank.pragma('user_version = 0');
    blank.exec('VACUUM');
    blank.close();
    expect(fs.statSync(file).size).toBeGreaterThan(0);
    const db = openDatabase(file, { migrationsDir });
    expect(db.appliedMigrations).toEqual(journal.entries.map((e) => e.tag));
    db.close();
  });

  it('an older Mnemo database is still migrated (it has our migrations table and tables)', () => {
    const dir = tempDir();
    const file = path.join(dir, 'mnemo.db');
    openDatabase(file, { migrationsDir: migrationsUpTo(dir, 1) }).close();
    const db = openDatabase(file, { migrationsDir });
    expect(db.appliedMigrations).toEqual(journal.entries.slice(1).map((e) => e.tag));
    db.close();
  });
});

describe.skipIf(!readOnlyMethod.how)(`openDatabase where it cannot write (made read-only by ${readOnlyMethod.why})`, () => {
  const tempDir = useTempDirs();
  /** Every file in a folder with a hash of its bytes: what "touch nothing" compares. */
  const snapshot = (dir: string) => Object.fromEntries(fs.readdirSync(dir).sort().map((f) => [f, createHash('sha256').update(fs.readFileSync(path.join(dir, f))).digest('hex')]));

  function withDatabase(): { data: string; file: string } {
    const data = path.join(tempDir(), 'data');
    const file = path.join(data, 'mnemo.db');
    const db = openDatabase(file, { migrationsDir });
    db.sqlite.prepare("INSERT INTO threads (title, created_at, updated_at, last_activity_at) VALUES ('kept', 1, 1, 1)").run();
    db.close();
    return { data, file };
  }

  function refusedWhileReadOnly(target: string, file: string): MnemoError {
    const ro = readOnlyPath(target);
    ro.apply();
    let opened: { close(): void } | null = null;
    try {
      return expectCode(() => (opened = openDatabase(file, { migrationsDir })), 'DB_READ_ONLY');
    } finally {
      try {
        (opened as { close(): void } | null)?.close();
      } finally {
        ro.undo();
      }
    }
  }

  it('a read-only data folder is reported as read-only, not as a damaged database, and nothing in it changes', () => {
    const { data, file } = withDatabase();
    const before = snapshot(data);
    const error = refusedWhileReadOnly(data, file);
    expect(error.message).toContain(data);
    expect(error.message).toMatch(/is read-only/);
    expect(error.message).toMatch(/has not changed anything/);
    expect(error.message).not.toMatch(/restore|damaged|cannot read/i);
    expect(snapshot(data)).toEqual(before);
    // Writable again, the same file opens with everything in it.
    const db = openDatabase(file, { migrationsDir });
    expect(db.sqlite.prepare('SELECT title FROM threads').all()).toEqual([{ title: 'kept' }]);
    db.close();
  });

  it('a read-only data folder without a database: read-only, and no database is created', () => {
    const data = path.join(tempDir(), 'data');
    fs.mkdirSync(data);
    refusedWhileReadOnly(data, path.join(data, 'mnemo.db'));
    expect(fs.readdirSync(data)).toEqual([]);
  });

  it('a read-only database file in a writable folder: read-only, naming the file, and no journal files appear beside it', () => {
    const { data, file } = withDatabase();
    const before = snapshot(data);
    const error = refusedWhileReadOnly(file, file);
    expect(error.message).toContain(file);
    expect(error.message).toMatch(/is read-only/);
    expect(snapshot(data)).toEqual(before);
  });
});
