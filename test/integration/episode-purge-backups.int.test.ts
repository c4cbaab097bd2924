/**
 * "Delete forever" of an episode reaches every backup in the data folder, as a memory's does (purge-backups.int.test.ts):
 * an episode written by the model, edited by the user (a second version), backed up by hand and kept aside, is
 * deleted forever; then its words are looked for in the raw bytes of every file in the data folder. The backups stay
 * sound and keep the other episode; one that cannot be changed is named in the answer, not skipped.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import { createBackupScrubber } from '../../electron/core/backup/backup-scrub';
import { inspectDatabaseFile } from '../../electron/core/db/inspect-database-file';
import { silentLogger } from '../../electron/core/ports/logger.port';
import { sourceMigrationsDir } from '../../electron/core/db/open-database';
import { useChatHarnesses } from '../support/chat-harness';
import { filesUnder } from '../support/files-holding';
import { useTempDirs } from '../support/temp-dir';

const CANARY = 'Zorblaxquintcanary';
/** CJK is indexed as overlapping bigrams (fts-text.ts): each bigram is looked for too. */
const CJK = '鹦鹉螺钥匙';
const CJK_BIGRAMS = ['鹦鹉', '鹉螺', '螺钥', '钥匙'];
const MINUTE = 60_000;


/** Does the file hold any trace of the canaries: UTF-8 or UTF-16, any case (FTS5 keeps tokens lowercased)? */
function holdsCanary(file: string): boolean {
  const bytes = fs.readFileSync(file);
  const texts = [bytes.toString('latin1'), bytes.toString('utf16le'), bytes.subarray(1).toString('utf16le')].map((t) => t.toLowerCase());
  if (texts.some((t) => t.includes(CANARY.toLowerCase()))) return true;
  return CJK_BIGRAMS.some((b) => bytes.includes(Buffer.from(b, 'utf8')) || bytes.includes(Buffer.from(b, 'utf16le')));
}

const traces = (dir: string) => filesUnder(dir).filter(holdsCanary).map((f) => path.relative(dir, f)).sort();

function titlesIn(file: string): string[] {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT title FROM episodes ORDER BY title').pluck().all() as string[];
  } finally {
    db.close();
  }
}

const harnesses = useChatHarnesses();

describe('deleting an episode forever erases it from the backups too', () => {
  const tempDir = useTempDirs();

  async function start() {
    const clock = { at: Date.UTC(2026, 10, 2, 9, 0), now: () => clock.at };
    const h = await harnesses.ollama(tempDir(), { core: { clock } });
    unwrap(await h.client.call('settings.update', { patch: { memoryMode: 'off', timeZone: 'UTC' } }));
    // The canary is only in what the model writes as the episode of the first thread, never in a chat message.
    h.fake.setDefaultReply((req) => {
      const first = req.messages[0]!.content;
      if (req.purpose === 'episode') {
        return { content: first.includes('spare key') ? `Spare key ${CANARY}\nHid the ${CJK} spare key.` : 'Garden\nPlanned the vegetable garden.' };
      }
      if (req.purpose === 'title') return { content: 'A title' };
      return { content: 'Noted.' };
    });
    const quiet = async () => {
      clock.at += 31 * MINUTE;
      h.core.queue.poke();
      await h.core.queue.waitForIdle();
    };
    await h.client.call('chat.send', { text: 'Where should I hide the spare key?' }).then(unwrap);
    await quiet();
    await h.client.call('chat.send', { text: 'Help me plan the vegetable garden.' }).then(unwrap);
    await quiet();
    const episodes = unwrap(await h.client.call('episode.list', {})).episodes;
    const secret = episodes.find((e) => e.title.includes(CANARY))!;
    expect(secret).toBeDefined();
    // A second version, by the user: both versions hold the text.
    unwrap(await h.client.call('episode.update', { id: secret.id, content: `Hid the ${CJK} spare key under the ${CANARY} pot.` }));
    // The data folder: the database's.
    return { ...h, dir: path.dirname(h.core.paths.dbFile), secret };
  }

  it('leaves no byte of its text in any backup, and the backups keep everything else', async () => {
    const { client, dir, secret, close } = await start();
    const manual = unwrap(await client.call('db.backup', {})).path;
    fs.mkdirSync(path.join(dir, 'backups', 'kept-aside'));
    const keptAside = path.join(dir, 'backups', 'kept-aside', path.basename(manual));
    fs.copyFileSync(manual, keptAside);
    expect(traces(path.join(dir, 'backups'))).toEqual([path.relative(path.join(dir, 'backups'), keptAside), path.basename(manual)].sort());

    // To the trash first: the trash keeps it in the backups (it can still be restored).
    expect(unwrap(await client.call('episode.delete', { id: secret.id }))).toEqual({ id: secret.id, forever: false });
    expect(traces(path.join(dir, 'backups'))).toHaveLength(2);

    expect(unwrap(await client.call('episode.delete', { id: secret.id, forever: true }))).toEqual({
      id: secret.id,
      forever: true,
      backups: { clean: 2, erased: 2, remaining: [] },
    });
    await close();
    expect(traces(dir)).toEqual([]);
    for (const copy of [manual, keptAside]) {
      expect(inspectDatabaseFile(copy, sourceMigrationsDir()).memories).toBe(0);
      expect(titlesIn(copy), copy).toEqual(['Garden']);
    }
  });

  it("another answer's record of what the model saw loses the episode's title, in the database and the backups", async () => {
    const { client, fake, dir, secret, close } = await start();
    unwrap(await client.call('settings.update', { patch: { memoryMode: 'auto', memoryAccess: 'tools' } }));
    // The model searches its memory in a third conversation and finds the episode: the record names it, with its title.
    fake.script({ toolCalls: [{ name: 'search_memory', arguments: { query: 'spare key' } }] }, { content: 'You hid it.' });
    const answer = unwrap(await client.call('chat.send', { text: 'Where did I hide that key again?' }));
    const before = unwrap(await client.call('chat.context', { messageId: answer.assistantMessage.id }))!;
    expect(before.tools.searches[0]!.episodes).toEqual([expect.objectContaining({ episodeId: secret.id, title: secret.title })]);
    unwrap(await client.call('db.backup', {}));

    unwrap(await client.call('episode.delete', { id: secret.id, forever: true }));
    const after = unwrap(await client.call('chat.context', { messageId: answer.assistantMessage.id }))!;
    expect(after.tools.searches[0]).toMatchObject({ query: 'spare key', episodes: [], forgotten: 1 });
    await close();
    expect(traces(dir)).toEqual([]);
  });

  it('an answer to a time question loses the episode its prompt carried, in the database and the backups', async () => {
    const { client, dir, secret, close } = await start();
    unwrap(await client.call('settings.update', { patch: { memoryMode: 'auto' } }));
    // "Today" holds both conversations: the prompt carries both episodes, and the record names them with their titles.
    const answer = unwrap(await client.call('chat.send', { text: 'What did we talk about today?' }));
    const before = unwrap(await client.call('chat.context', { messageId: answer.assistantMessage.id }))!;
    expect(before.recalled.episodes.map((e) => e.title).sort()).toEqual(['Garden', secret.title]);
    unwrap(await client.call('db.backup', {}));

    unwrap(await client.call('episode.delete', { id: secret.id, forever: true }));
    const after = unwrap(await client.call('chat.context', { messageId: answer.assistantMessage.id }))!;
    expect(after.recalled).toEqual({ episodes: [expect.objectContaining({ title: 'Garden' })], forgotten: 1 });
    const page = unwrap(await client.call('thread.messages', { threadId: answer.threadId }));
    expect(page.receipts.find((r) => r.messageId === answer.assistantMessage.id)!.recalled).toEqual([expect.objectContaining({ title: 'Garden' })]);
    await close();
    // The database file and the backup made before the delete: no byte of the episode's title or text.
    expect(traces(dir)).toEqual([]);
  });

  it('names a backup it cannot change instead of skipping it', async () => {
    const { client, dir, secret } = await start();
    const good = unwrap(await client.call('db.backup', {})).path;
    // A damaged copy: its header overwritten, the rest (the text included) intact.
    const damaged = path.join(dir, 'backups', 'mnemo-2025-12-01T00-00-00-000Z.sqlite');
    const bytes = fs.readFileSync(good);
    bytes.fill(0xff, 0, 100);
    fs.writeFileSync(damaged, bytes);

    const result = unwrap(await client.call('episode.delete', { id: secret.id, forever: true }));
    expect(result.backups).toEqual({ clean: 1, erased: 1, remaining: [{ path: damaged, reason: 'it is damaged and cannot be read' }] });
    expect(fs.readFileSync(damaged).equals(bytes)).toBe(true);
    expect(titlesIn(good)).toEqual(['Garden']);
    expect(traces(path.join(dir, 'backups'))).toEqual([path.basename(damaged)]);
  });

  it('deleting a thread takes its episodes out of the database file; backups made before keep them (as its messages)', async () => {
    const { client, dir, secret, close } = await start();
    const backup = unwrap(await client.call('db.backup', {})).path;
    unwrap(await client.call('thread.delete', { threadId: secret.threadId }));
    await close();
    // The live database (folded: the core closed) holds no byte of the episode's text any more.
    expect(traces(dir).filter((f) => f.startsWith('mnemo.db'))).toEqual([]);
    // The user guide's promise for a deleted thread (docs/GUIDE.md, Security and privacy): backups made while it existed hold it until rotated out or deleted.
    expect(titlesIn(backup)).toEqual(['Garden', `Spare key ${CANARY}`]);
  });

  it('erases episodes in the worker thread too (backups of 2 MB or more)', { timeout: 60_000 }, async () => {
    const { client, core, dir, secret } = await start();
    const backup = unwrap(await client.call('db.backup', {})).path;
    // The scrubber alone, told to work off-thread whatever the size: the live database is not its business.
    // A worker that fails falls back to this thread with a warning: none may come.
    const warnings: string[] = [];
    const offThread = createBackupScrubber({ paths: core.paths, logger: { ...silentLogger, warn: (message) => warnings.push(message) }, offThreadFromBytes: 0 });
    expect(await offThread.eraseEpisodes([{ id: secret.id, createdAt: secret.createdAt }])).toEqual({ clean: 1, erased: 1, remaining: [] });
    expect(warnings).toEqual([]);
    expect(titlesIn(backup)).toEqual(['Garden']);
    expect(traces(path.join(dir, 'backups'))).toEqual([]);
  });
});
