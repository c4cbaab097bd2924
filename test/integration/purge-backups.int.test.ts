/**
 * "Delete forever" reaches every copy of the database in the data folder: a canary memory written before a migration,
 * backed up automatically, by hand, before the migration, kept aside and staged for a restore, is purged (one by id,
 * one in bulk from the trash, one by emptying the trash) and then its bytes are looked for in every file under the
 * data folder. The backups stay sound and keep everything else; one that cannot be changed is named, not skipped.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { unwrap, type Client } from '../../shared/client';
import type { BackupErasure } from '../../shared/contract';
import { createBackupService } from '../../electron/core/backup/backup.service';
import { inspectDatabaseFile } from '../../electron/core/db/inspect-database-file';
import type { Core } from '../../electron/core/create-core';
import { openDatabase, sourceMigrationsDir } from '../../electron/core/db/open-database';
import { createEventBus } from '../../electron/core/runtime/event-bus';
import { silentLogger } from '../../electron/core/ports/logger.port';
import { derivePaths } from '../../electron/core/ports/paths.port';
import { toFtsDocument } from '../../electron/core/text/fts-text';
import { createBagOfWordsEmbedder } from '../fakes/bag-of-words.embedder';
import { createTestClock, type TestClock } from '../support/memory-harness';
import { migrationJournal, migrationsUpTo } from '../support/older-migrations';
import { filesUnder } from '../support/files-holding';
import { runCliInProcess } from '../support/run-cli';
import { useTempDirs } from '../support/temp-dir';
import { createTestCore } from '../support/test-core';

const CANARY = 'Zorblaxquintcanary';
/** CJK is indexed as overlapping bigrams (fts-text.ts): each bigram is looked for too. */
const CJK = '鹦鹉螺钥匙';
const CJK_BIGRAMS = ['鹦鹉', '鹉螺', '螺钥', '钥匙'];


/** Does the file hold any trace of the canaries: UTF-8 or UTF-16, any case (FTS5 keeps tokens lowercased)? */
function holdsCanary(file: string): boolean {
  const bytes = fs.readFileSync(file);
  const latin = bytes.toString('latin1').toLowerCase();
  const utf16 = bytes.toString('utf16le').toLowerCase();
  const utf16Shifted = bytes.subarray(1).toString('utf16le').toLowerCase();
  if ([latin, utf16, utf16Shifted].some((text) => text.includes(CANARY.toLowerCase()))) return true;
  return CJK_BIGRAMS.some((b) => bytes.includes(Buffer.from(b, 'utf8')) || bytes.includes(Buffer.from(b, 'utf16le')));
}

const traces = (dir: string) => filesUnder(dir).filter(holdsCanary).map((f) => path.relative(dir, f)).sort();

const contentsOf = (file: string): string[] => {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT content FROM memories ORDER BY content').pluck().all() as string[]);
  } finally {
    db.close();
  }
};

describe('purging a memory erases it from the backups too', () => {
  const tempDir = useTempDirs();
  const open: Core[] = [];
  afterEach(async () => {
    for (const core of open.splice(0)) await core.dispose();
  });

  function start(dir: string, clock: TestClock): { core: Core; client: Client } {
    const started = createTestCore(dir, { startQueue: false, embedder: createBagOfWordsEmbedder(), clock });
    open.push(started.core);
    return started;
  }
  async function stop(core: Core): Promise<void> {
    open.splice(open.indexOf(core), 1);
    await core.dispose();
  }
  const add = async (client: Client, content: string) => unwrap(await client.call('memory.create', { content }));

  /** An automatic (daily) backup, written the way the daily scheduler writes it, over a second connection. */
  async function automaticBackup(dir: string, clock: TestClock): Promise<string> {
    const paths = derivePaths(dir);
    const db = openDatabase(paths.dbFile, { migrationsDir: paths.migrationsDir, now: () => clock.now() });
    try {
      return (await createBackupService({ paths, clock, events: createEventBus(silentLogger), logger: silentLogger }).backup('automatic')).path;
    } finally {
      db.close();
    }
  }

  it('leaves no byte of the text anywhere in the data folder: automatic, manual, pre-migration, kept-aside and staged copies', async () => {
    const dir = tempDir();
    const clock = createTestClock();

    // A database of an older schema (search indexes, no vector bits, no exclusions) holding the first canary.
    const old = openDatabase(path.join(dir, 'mnemo.db'), { migrationsDir: migrationsUpTo(tempDir(), 2), now: () => clock.now() });
    const insertMemory = old.sqlite.prepare("INSERT INTO memories (content, content_hash, category, created_at, updated_at) VALUES (?, ?, 'knowledge', ?, ?)");
    for (const [i, content] of [`The spare ${CANARY} key is the ${CJK}`, 'Keeps the red kayak in the garage'].entries()) {
      const id = BigInt(insertMemory.run(content, `hash-${i}`, clock.now(), clock.now()).lastInsertRowid);
      old.sqlite
        .prepare("INSERT INTO memory_versions (memory_id, version, content, category, importance, pinned, status, origin, reason, created_at) VALUES (?, 1, ?, 'knowledge', 0.5, 0, 'active', 'user', 'created', ?)")
        .run(id, content, clock.now());
      old.sqlite.prepare('INSERT INTO memories_fts (rowid, body) VALUES (?, ?)').run(id, toFtsDocument(content));
      old.sqlite.prepare('INSERT INTO memory_vectors (memory_id, embedding) VALUES (?, ?)').run(id, Buffer.from(new Float32Array(384).fill(0.05).buffer));
    }
    old.close();

    clock.advance(1000);
    const { core, client } = start(dir, clock); // migrates, after a pre-migration backup
    const first = unwrap(await client.call('memory.list', {})).items.find((m) => m.content.includes(CANARY));
    const second = await add(client, `${CANARY} second: the ${CJK} spare`);
    unwrap(await client.call('memory.update', { memoryId: second.id, content: `${CANARY} second, edited: the ${CJK} spare` }));
    const third = await add(client, `${CANARY} third ${CJK}`);
    for (const content of ['Prefers green tea in the morning', '喜欢周末去海边']) await add(client, content);

    clock.advance(1000);
    unwrap(await client.call('db.backup', {}));
    clock.advance(1000);
    const automatic = await automaticBackup(dir, clock);
    // A copy in a subfolder (rotation keeps suspicious copies aside in one) and a restore waiting for the next start.
    fs.mkdirSync(path.join(dir, 'backups', 'kept-aside'));
    fs.copyFileSync(automatic, path.join(dir, 'backups', 'kept-aside', path.basename(automatic)));
    unwrap(await client.call('db.restore', { file: automatic }));

    const copies = ['backups/kept-aside/mnemo-auto-2026-01-01T00-00-03-000Z.sqlite', 'backups/mnemo-2026-01-01T00-00-02-000Z.sqlite', 'backups/mnemo-auto-2026-01-01T00-00-03-000Z.sqlite', 'backups/pre-migration-1767225601000.sqlite', 'mnemo.db.restore-pending'];
    // The check sees the text wherever it is stored.
    expect(traces(dir).filter((f) => !f.startsWith('mnemo.db') || f === 'mnemo.db.restore-pending')).toEqual(copies);

    for (const memoryId of [first!.id, third.id]) unwrap(await client.call('memory.delete', { memoryId }));
    const everyCopy = (erased: number): BackupErasure => ({ clean: copies.length, erased, remaining: [] });
    // The second canary is in every copy but the pre-migration one; the third likewise; the first in all five.
    expect(unwrap(await client.call('memory.purge', { memoryId: second.id }))).toEqual({ purged: 1, backups: everyCopy(4), derived: { summaries: 0, profileLines: 0 } });
    expect(unwrap(await client.call('memory.bulk', { action: 'purge', memoryIds: [third.id] }))).toEqual({ changed: 1, skipped: 0, backups: everyCopy(4), derived: { summaries: 0, profileLines: 0 } });
    expect(unwrap(await client.call('memory.emptyTrash', {}))).toEqual({ purged: 1, backups: everyCopy(5), derived: { summaries: 0, profileLines: 0 } });
    await stop(core);

    expect(traces(dir)).toEqual([]);
    // Every copy is still a sound Mnemo database, of its own schema, with everything else in it.
    const migrations = sourceMigrationsDir();
    for (const copy of copies) {
      const file = path.join(dir, copy);
      const info = inspectDatabaseFile(file, migrations);
      expect(info.schemaVersion, copy).toBe(copy.includes('pre-migration') ? '0001_search_indexes' : migrationJournal().entries.at(-1)!.tag);
      expect(contentsOf(file), copy).toEqual(
        copy.includes('pre-migration') ? ['Keeps the red kayak in the garage'] : ['Keeps the red kayak in the garage', 'Prefers green tea in the morning', '喜欢周末去海边'],
      );
    }
    // The staged restore still completes at the next start, without the purged memories.
    const restarted = start(dir, clock);
    expect(unwrap(await restarted.client.call('memory.list', {})).items.map((m) => m.content).sort()).toEqual([
      'Keeps the red kayak in the garage',
      'Prefers green tea in the morning',
      '喜欢周末去海边',
    ]);
    expect(unwrap(await restarted.client.call('memory.search', { query: '海边' })).hits).toHaveLength(1);
  });

  it('names a backup it cannot change instead of skipping it, and leaves alone a same-id memory of another line of backups', async () => {
    // A backup from before a restore rewound the ids: another memory under the same id, created at another time.
    const elsewhere = start(tempDir(), createTestClock(Date.UTC(2025, 10, 1)));
    const other = await add(elsewhere.client, 'A different memory that got the same id');
    await add(elsewhere.client, 'Keeps the red kayak in the garage');
    const otherBackup = unwrap(await elsewhere.client.call('db.backup', {})).path;
    await stop(elsewhere.core);

    const dir = tempDir();
    const { client } = start(dir, createTestClock());
    const memory = await add(client, `${CANARY} in a damaged backup`);
    await add(client, 'Keeps the red kayak in the garage');
    const good = unwrap(await client.call('db.backup', {})).path;
    expect(memory.id).toBe(other.id);
    const otherLine = path.join(dir, 'backups', path.basename(otherBackup));
    fs.copyFileSync(otherBackup, otherLine);
    const otherLineBytes = fs.readFileSync(otherLine);

    // A damaged copy: its header overwritten, the rest (the text included) intact.
    const damaged = path.join(dir, 'backups', 'mnemo-2025-12-01T00-00-00-000Z.sqlite');
    const bytes = fs.readFileSync(good);
    bytes.fill(0xff, 0, 100);
    fs.writeFileSync(damaged, bytes);

    // What a scrub interrupted by a crash leaves: a scratch copy, holding the text, that the next scrub removes.
    fs.copyFileSync(good, `${good}.scrub-copy`);

    const result = unwrap(await client.call('memory.purge', { memoryId: memory.id }));
    expect(result).toEqual({ purged: 1, backups: { clean: 2, erased: 1, remaining: [{ path: damaged, reason: 'it is damaged and cannot be read' }] }, derived: { summaries: 0, profileLines: 0 } });
    expect(fs.readFileSync(damaged).equals(bytes)).toBe(true);
    expect(fs.readFileSync(otherLine).equals(otherLineBytes)).toBe(true);
    expect(contentsOf(otherLine)).toEqual(['A different memory that got the same id', 'Keeps the red kayak in the garage']);
    expect(contentsOf(good)).toEqual(['Keeps the red kayak in the garage']);
    expect(traces(path.join(dir, 'backups'))).toEqual([path.basename(damaged)]);
  });

  it('maintenance purging old trash erases it from the backups too, and its report names a backup it could not change', async () => {
    const dir = tempDir();
    const clock = createTestClock();
    const { core, client } = start(dir, clock);
    const old = await add(client, `${CANARY} trashed long ago ${CJK}`);
    await add(client, 'Keeps the red kayak in the garage');
    unwrap(await client.call('memory.delete', { memoryId: old.id }));
    const backup = unwrap(await client.call('db.backup', {})).path;
    const damaged = path.join(dir, 'backups', 'kept-aside', 'mnemo-auto-2025-12-01T00-00-00-000Z.sqlite');
    fs.mkdirSync(path.dirname(damaged));
    fs.writeFileSync(damaged, Buffer.concat([Buffer.alloc(100, 0xff), fs.readFileSync(backup).subarray(100)]));

    clock.advance(31 * 86_400_000);
    const report = unwrap(await client.call('memory.maintain', {}));
    expect(report).toMatchObject({ purged: 1, purgedCopiesRemain: [{ path: damaged, reason: 'it is damaged and cannot be read' }] });
    fs.rmSync(damaged);
    await stop(core);
    expect(traces(dir)).toEqual([]);
    expect(contentsOf(backup)).toEqual(['Keeps the red kayak in the garage']);
  });

  it('the CLI says the purge reached the backups, or names the file that still holds a copy and what to do', { timeout: 120_000 }, async () => {
    const dir = tempDir();
    const cli = async (...args: string[]) => {
      const r = await runCliInProcess([...args, '--data-dir', dir], { MNEMO_MODELS_DIR: path.join(dir, 'no-models') });
      expect(r.code, r.stderr).toBe(0);
      return r.stdout;
    };
    const first = JSON.parse(await cli('memory', 'add', `${CANARY} one`, '--json')) as { id: number };
    const second = JSON.parse(await cli('memory', 'add', `${CANARY} two`, '--json')) as { id: number };
    const backup = (JSON.parse(await cli('db', 'backup', '--json')) as { path: string }).path;
    expect(await cli('memory', 'purge', String(first.id))).toBe(`Purged memory #${first.id}: erased from the database and from every backup (1 backup); nothing of it is left.\n`);

    const damaged = `${backup.slice(0, -'.sqlite'.length)}-1.sqlite`;
    fs.writeFileSync(damaged, Buffer.concat([Buffer.alloc(100, 0xff), fs.readFileSync(backup).subarray(100)]));
    expect(await cli('memory', 'purge', String(second.id))).toBe(
      `Purged memory #${second.id}: erased from the database and from 1 backup, but not from every backup.\n` +
        'This file could not be changed and may still hold a copy:\n' +
        `  ${damaged}  (it is damaged and cannot be read)\n` +
        'Delete it by hand to erase the copies (the database itself holds none).\n',
    );
  });
});
