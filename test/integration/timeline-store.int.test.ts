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

  it('pages events newest first, ties by id, continuing after (time, id), by kind and category', () => {
    const { writer, store } = open();
    writer.record('summary_failed', {}, { jobId: 1, code: 'A' }, T0);
    writer.record('title_failed', { category: 'x' }, { jobId: 2, code: 'B' }, T0 + 5);
    writer.record('summary_failed', {}, { jobId: 3, code: 'C' }, T0 + 5);
    const page = (q: Partial<Parameters<typeof store.page>[0]>) => store.page({ idleMaintenance: true, limit: 10, ...q }).map((e) => (JSON.parse(e.data) as { jobId: number }).jobId);
    expect(page({})).toEqual([3, 2, 1]);
    expect(page({ limit: 1 })).toEqual([3]);
    const [newest] = store.page({ idleMaintenance: true, limit: 1 });
    expect(page({ before: newest!.created_at, beforeId: newest!.id })).toEqual([2, 1]);
    expect(page({ before: T0 + 5 })).toEqual([1]);
    expect(page({ kinds: ['summary_failed'] })).toEqual([3, 1]);
    expect(page({ categories: ['x'] })).toEqual([2]);
  });

  it('leaves out, when asked, a maintenance run that merged, lowered, trashed and erased nothing', () => {
    const { writer, store } = open();
    const run = (n: number) => ({
      merged: n, decayed: 0, trashedForCap: 0, purged: 0, expired: 0, mergePending: 0, mergeChecked: true, clustersQueued: 0, clustersSummarised: 0,
      cap: { cap: 10, active: 0, learned: 0, overCap: 0, restorableDays: 30 }, mergeWatermark: { at: 0, id: 0 }, origin: 'maintenance' as const,
    });
    writer.record('maintained', {}, run(0), T0);
    writer.record('maintained', {}, run(2), T0 + 1);
    const merged = (idleMaintenance: boolean) => store.page({ idleMaintenance, limit: 10 }).map((e) => (JSON.parse(e.data) as { merged: number }).merged);
    expect(merged(false)).toEqual([2]);
    expect(merged(true)).toEqual([2, 0]);
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
