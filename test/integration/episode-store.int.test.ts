/**
 * The episode store's read for the memory export's Markdown page (electron/core/episodes/episode.store.ts, forExport)
 * on real SQLite: active episodes only, oldest first (started_at, then id), each with its thread's title.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, sourceMigrationsDir, type OpenedDatabase } from '../../electron/core/db/open-database';
import { createEpisodeStore, type EpisodeDraft } from '../../electron/core/episodes/episode.store';
import { useTempDirs } from '../support/temp-dir';

const open: OpenedDatabase[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

describe('the episode store', () => {
  const tempDir = useTempDirs();

  it("the export page's episodes: active only, oldest first, with their thread's title", () => {
    const db = openDatabase(path.join(tempDir(), 'episodes.db'), { migrationsDir: sourceMigrationsDir() });
    open.push(db);
    const store = createEpisodeStore(db.sqlite);
    const thread = (title: string) =>
      Number(db.sqlite.prepare('INSERT INTO threads (title, created_at, updated_at, last_activity_at) VALUES (?, 1, 1, 1)').run(title).lastInsertRowid);
    const [garden, trip] = [thread('Garden'), thread('Trip')];
    const write = (threadId: number, title: string, startedAt: number) => {
      const draft: EpisodeDraft = { threadId, title, content: `${title} notes`, fromMessageId: startedAt, toMessageId: startedAt, startedAt, endedAt: startedAt + 10 };
      return store.writeByModel(draft, null, startedAt);
    };
    write(trip, 'Later', 300);
    const trashed = write(garden, 'Trashed', 100);
    write(garden, 'Tie, written first', 200);
    write(trip, 'Tie, written second', 200);
    write(garden, 'Earliest', 50);
    store.setStatus(trashed.id, 'trashed', 400);

    expect(store.forExport().map((e) => [e.title, e.thread_title, e.started_at])).toEqual([
      ['Earliest', 'Garden', 50],
      ['Tie, written first', 'Garden', 200],
      ['Tie, written second', 'Trip', 200],
      ['Later', 'Trip', 300],
    ]);
    expect(store.forExport()[0]).toEqual({ id: expect.any(Number), title: 'Earliest', content: 'Earliest notes', started_at: 50, ended_at: 60, thread_title: 'Garden' });
  });
});
