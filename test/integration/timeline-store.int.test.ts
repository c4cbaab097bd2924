/**
 * The events table's reading store (timeline/timeline.store.ts) on real SQLite: a page newest first with ties by id,
 * its conditions, and the activity counts of a range (memory events only; 'learned' apart from every other kind).
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, sourceMigrationsDir, type OpenedDatabase } from '../../electron/core/db/open-database';
import { createTimelineWriter } from '../../electron/core/db/timeline-writer';
import { createTimelineStore } from '../../electron/core/timeline/timeline.store';
import { useTempDirs } from '../support/temp-dir';

const T0 = Date.UTC(2026, 0, 1);

const opened: OpenedDatabase[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

describe('the timeline store', () => {
  const tempDir = useTempDirs();

  function open() {
    const db = openDatabase(path.join(tempDir(), 'mnemo.db'), { migrationsDir: sourceMigrationsDir(), now: () => T0 });
    opened.push(db);
    return { db, writer: createTimelineWriter({ sqlite: db.sqlite, clock: { now: () => T0 } }), store: createTimelineStore(db.sqlite) };
  }

  it('pages events newest first, ties by id, under the conditions given', () => {
    const { writer, store } = open();
    writer.record('summary_failed', {}, { jobId: 1, code: 'A' }, T0);
    writer.record('title_failed', {}, { jobId: 2, code: 'B' }, T0 + 5);
    writer.record('summary_failed', {}, { jobId: 3, code: 'C' }, T0 + 5);
    const all = store.page({ where: ['1 = 1'], params: [], limit: 10 });
    expect(all.map((e) => [e.kind, e.created_at])).toEqual([
      ['summary_failed', T0 + 5],
      ['title_failed', T0 + 5],
      ['summary_failed', T0],
    ]);
    expect(all[0]!.id).toBeGreaterThan(all[1]!.id);
    expect(store.page({ where: ['kind = ?'], params: ['summary_failed'], limit: 1 }).map((e) => (JSON.parse(e.data) as { jobId: number }).jobId)).toEqual([3]);
  });

  it('counts memory events in [start, end): learned apart from every other kind', () => {
    const { db, writer, store } = open();
    const memoryId = Number(
      db.sqlite
        .prepare(`INSERT INTO memories (content, content_hash, category, importance, confidence, pinned, status, created_at, updated_at) VALUES ('x', 'h', 'knowledge', 0.5, 1, 0, 'active', ?, ?)`)
        .run(T0, T0).lastInsertRowid,
    );
    writer.record('learned', { memoryId }, { version: 1, origin: 'extraction', status: 'active', importance: 0.5 }, T0);
    writer.record('updated', { memoryId }, { version: 2, fields: ['content'], origin: 'user', reason: 'edited' }, T0 + 10);
    writer.record('merged', { memoryId }, { version: 3, fields: [], origin: 'maintenance', reason: 'merged' }, T0 + 20);
    writer.record('summary_failed', {}, { jobId: 1, code: 'A' }, T0 + 10);
    expect(store.activity(T0, T0 + 20)).toEqual({ learned: 1, changed: 1 });
    expect(store.activity(T0 + 1, T0 + 21)).toEqual({ learned: 0, changed: 2 });
    expect(store.activity(T0 + 30, T0 + 40)).toEqual({ learned: 0, changed: 0 });
  });
});
