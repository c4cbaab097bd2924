/**
 * The memories table family's stores on real SQLite (memory.store.ts, memory-upkeep.store.ts): the orderings, filters
 * and exclusions their SQL holds, read back from rows written through the stores themselves.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryCategory, MemoryStatus } from '../../shared/contract';
import { openDatabase, sourceMigrationsDir, type OpenedDatabase } from '../../electron/core/db/open-database';
import { contentHash } from '../../electron/core/memory/content-hash';
import { createMemoryStore, pinnedActiveSql, type MemoryStore } from '../../electron/core/memory/memory.store';
import { createMemoryUpkeepStore, type MemoryUpkeepStore } from '../../electron/core/memory/memory-upkeep.store';
import { createTimelineWriter, type TimelineWriter } from '../../electron/core/db/timeline-writer';
import { toFtsDocument, toFtsQuery } from '../../electron/core/text/fts-text';
import { useTempDirs } from '../support/temp-dir';

const T0 = Date.UTC(2026, 0, 1);
const DAY = 86_400_000;

const opened: OpenedDatabase[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

interface Seed {
  content: string;
  status?: MemoryStatus;
  category?: MemoryCategory;
  importance?: number;
  pinned?: boolean;
  expiresAt?: number | null;
  at?: number;
  origin?: string;
}

describe('the memory stores', () => {
  const tempDir = useTempDirs();

  function open(): { store: MemoryStore; upkeep: MemoryUpkeepStore; timeline: TimelineWriter; add(seed: Seed): number } {
    const db = openDatabase(path.join(tempDir(), 'mnemo.db'), { migrationsDir: sourceMigrationsDir(), now: () => T0 });
    opened.push(db);
    const store = createMemoryStore(db.sqlite);
    const add = (s: Seed): number =>
      store.transaction(() => {
        const at = s.at ?? T0;
        const row = {
          content: s.content,
          content_hash: contentHash(s.content),
          category: s.category ?? 'knowledge',
          importance: s.importance ?? 0.5,
          confidence: 1,
          pinned: s.pinned ? 1 : 0,
          status: s.status ?? 'active',
          source_thread_id: null,
          source_message_id: null,
          evidence: null,
          valid_from: null,
          expires_at: s.expiresAt ?? null,
          trashed_at: null,
          created_at: at,
          updated_at: at,
        };
        const id = store.insert(row);
        store.insertVersion({ memoryId: id, content: row.content, category: row.category, importance: row.importance, pinned: row.pinned, status: row.status, expiresAt: row.expires_at, origin: s.origin ?? 'extraction', reason: 'created', createdAt: at });
        store.ftsInsert(id, toFtsDocument(row.content));
        return id;
      });
    return { store, upkeep: createMemoryUpkeepStore(db.sqlite), timeline: createTimelineWriter({ sqlite: db.sqlite, clock: { now: () => T0 } }), add };
  }

  it('numbers each memory’s versions from 1, and "as of" reads the version then, active and unexpired, pinned and important first', () => {
    const { store, add } = open();
    const a = add({ content: 'Tea', importance: 0.3, at: T0 });
    const b = add({ content: 'Coffee', importance: 0.9, at: T0 });
    const c = add({ content: 'Bus pass', importance: 0.2, pinned: true, at: T0, expiresAt: T0 + 2 * DAY });
    const v2 = store.insertVersion({ memoryId: a, content: 'Green tea', category: 'preference', importance: 0.3, pinned: 0, status: 'active', expiresAt: null, origin: 'user', reason: 'edited', createdAt: T0 + DAY });
    const v3 = store.insertVersion({ memoryId: a, content: 'Green tea', category: 'preference', importance: 0.3, pinned: 0, status: 'trashed', expiresAt: null, origin: 'user', reason: 'deleted', createdAt: T0 + 3 * DAY });
    expect([v2, v3]).toEqual([2, 3]);
    expect(store.latestVersion(a)).toBe(3);
    expect(store.versions(a).map((v) => v.version)).toEqual([1, 2, 3]);
    expect(store.versionAt(a, T0 + 2 * DAY)?.content).toBe('Green tea');
    expect(store.versionBefore(a, 3)?.version).toBe(2);

    const day1 = store.asOf(T0 + DAY, 10, 0);
    expect(day1.total).toBe(3);
    expect(day1.rows.map((r) => [r.memory_id, r.version])).toEqual([
      [c, 1],
      [b, 1],
      [a, 2],
    ]);
    // Later: the tea was trashed and the bus pass expired.
    expect(store.asOf(T0 + 3 * DAY, 10, 0).rows.map((r) => r.memory_id)).toEqual([b]);
    expect(store.asOf(T0 + DAY, 1, 1).rows.map((r) => r.memory_id)).toEqual([b]);
  });

  it('hides what an unfinished import writes from lookups, and lists its batch until it is published', () => {
    const { store, add } = open();
    const id = add({ content: 'Imported fact', status: 'archived' });
    store.hideForImport('batch-1', id);
    expect(store.row(id)).toBeUndefined();
    expect(store.byHash(contentHash('Imported fact'))).toEqual([]);
    expect(() => store.mustRow(id)).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
    expect(store.countsByStatus()).toEqual([]);
    expect(store.pendingImports()).toEqual([{ batch: 'batch-1', lastWriteAt: T0 }]);
    expect(store.importBatchIds('batch-1')).toEqual([id]);
    store.publishImported(id);
    // Its newest version's status, written while hidden.
    expect(store.row(id)?.status).toBe('archived');
    expect(store.pendingImports()).toEqual([]);
  });

  it('pages a filtered list in its sort order with the total, from the keyword matches when a query is given', () => {
    const { store, add } = open();
    const dog = toFtsQuery('dog')!;
    const low = add({ content: 'Walks the dog daily', importance: 0.2 });
    const tieOld = add({ content: 'Owns a dog named Rex', importance: 0.7 });
    const tieNew = add({ content: 'Dog food brand preference', importance: 0.7, category: 'preference' });
    add({ content: 'Dog allergy', importance: 0.9, status: 'trashed' });
    add({ content: 'Likes cats', importance: 0.8 });
    const byImportance = store.page({ filters: {}, match: null, sort: 'importance', limit: 10, offset: 0, at: T0 });
    expect(byImportance.total).toBe(4);
    const dogs = store.page({ filters: {}, match: dog, sort: 'importance', limit: 2, offset: 0, at: T0 });
    // Ties newest first; the trashed one is not active; the page is 2 of 3.
    expect(dogs).toMatchObject({ total: 3 });
    expect(dogs.rows.map((r) => r.id)).toEqual([tieNew, tieOld]);
    expect(store.page({ filters: {}, match: dog, sort: 'importance', limit: 2, offset: 2, at: T0 }).rows.map((r) => r.id)).toEqual([low]);
    expect(store.page({ filters: { categories: ['preference'] }, match: dog, sort: 'created', limit: 10, offset: 0, at: T0 }).rows.map((r) => r.id)).toEqual([tieNew]);
    expect(store.matching(dog, { statuses: ['active', 'trashed'] }, T0, 10).map((r) => r.content)).toEqual(['Dog allergy', 'Dog food brand preference', 'Owns a dog named Rex', 'Walks the dog daily']);
    expect(store.rowsAmong([low, tieNew, 999], { categories: ['knowledge'] }, T0).map((r) => r.id)).toEqual([low]);
  });

  it('gives the pinned memories a prompt holds: active, unexpired, most important then most recently changed', () => {
    const { store, add } = open();
    const older = add({ content: 'A', pinned: true, importance: 0.5, at: T0 });
    const newer = add({ content: 'B', pinned: true, importance: 0.5, at: T0 + 1 });
    const top = add({ content: 'C', pinned: true, importance: 0.9, at: T0 });
    add({ content: 'D', pinned: true, importance: 1, at: T0, expiresAt: T0 + 5 });
    add({ content: 'E', pinned: false, importance: 1, at: T0 });
    add({ content: 'F', pinned: true, importance: 1, at: T0, status: 'archived' });
    expect(store.pinnedActive(T0 + 10, 10).map((r) => r.id)).toEqual([top, newer, older]);
    expect(store.pinnedActive(T0 + 10, 2).map((r) => r.id)).toEqual([top, newer]);
  });

  it('reads the pinned memories through (status, pinned), not by walking every active memory in importance order', () => {
    const db = openDatabase(path.join(tempDir(), 'mnemo.db'), { migrationsDir: sourceMigrationsDir(), now: () => T0 });
    opened.push(db);
    // With the limit bound as a parameter instead, the planner walks memories_status_importance_idx (16 ms at 30k).
    const plan = db.sqlite.prepare(`EXPLAIN QUERY PLAN ${pinnedActiveSql(500)}`).all(T0) as Array<{ detail: string }>;
    expect(plan.map((p) => p.detail).join('\n')).toContain('USING INDEX memories_status_pinned_idx');
  });

  it('counts vectors as expected of every memory but rejected ones, per model', () => {
    const { store, add } = open();
    const a = add({ content: 'A' });
    const b = add({ content: 'B', status: 'trashed' });
    add({ content: 'C', status: 'rejected' });
    expect(store.vectorEligibleCount()).toBe(2);
    expect(store.setEmbeddingModel('m1', a, 'A')).toBe(true);
    expect(store.setEmbeddingModel('m1', b, 'not its text')).toBe(false);
    expect(store.missingVectors('m1', 10).map((r) => r.id)).toEqual([b]);
    expect(store.missingVectorCount('m2')).toBe(2);
    expect(store.withAnyVectorCount()).toBe(1);
  });

  it('the cap’s reads: learned, unpinned, active memories least valuable first; never the user’s or what replaced theirs', () => {
    const { store, upkeep, add } = open();
    const users = add({ content: 'Typed by hand', importance: 0.1, origin: 'user' });
    const replacedUsers = add({ content: 'Merged into', importance: 0.1 });
    store.transaction(() => store.update({ ...store.mustRow(users), status: 'archived', superseded_by: replacedUsers }));
    const lowUsed = add({ content: 'Low, used', importance: 0.2 });
    store.touchUse(T0, lowUsed);
    const lowUnused = add({ content: 'Low, unused', importance: 0.2 });
    const high = add({ content: 'High', importance: 0.8 });
    add({ content: 'Pinned', importance: 0.1, pinned: true });
    add({ content: 'Imported', importance: 0.1, origin: 'import' });
    expect(upkeep.leastValuableLearned(10)).toEqual([lowUnused, lowUsed, high]);
    expect(upkeep.leastValuableLearned(1)).toEqual([lowUnused]);
    expect(upkeep.capCounts()).toEqual({ active: 6, learned: 4 });
    expect(upkeep.usersAmong([users, replacedUsers, high]).sort()).toEqual([users, replacedUsers].sort());
  });

  it('walks merge and consolidation candidates after a watermark in (updated_at, id) order, with the model’s vectors only', () => {
    const { store, upkeep, add } = open();
    const ids = [add({ content: 'a', at: T0 + 2 }), add({ content: 'b', at: T0 + 1 }), add({ content: 'c', at: T0 + 1 }), add({ content: 'd', at: T0 + 3 })];
    for (const id of ids) store.setEmbeddingModel('m', id, store.mustRow(id).content);
    const other = add({ content: 'e', at: T0 + 2 });
    store.setEmbeddingModel('other', other, 'e');
    const [a, b, c, d] = ids as [number, number, number, number];
    expect(upkeep.mergeCandidates('m', { at: 0, id: 0 }, 10).map((r) => r.id)).toEqual([b, c, a, d]);
    expect(upkeep.mergeCandidates('m', { at: T0 + 1, id: b }, 2).map((r) => r.id)).toEqual([c, a]);
    expect(upkeep.mergePending('m', { at: T0 + 1, id: c })).toBe(2);
    expect(upkeep.changedSince('m', T0, { at: T0 + 2, id: a }, 10).map((r) => r.id)).toEqual([d]);
  });

  it('finds what expired without an expired event since, what may decay, and the profile’s notes in their order', () => {
    const { store, upkeep, timeline, add } = open();
    const expired = add({ content: 'Expired', expiresAt: T0 + 10 });
    const noted = add({ content: 'Expired and noted', expiresAt: T0 + 10 });
    timeline.record('expired', { memoryId: noted }, { expiresAt: T0 + 10, origin: 'maintenance' }, T0 + 20);
    add({ content: 'Not yet', expiresAt: T0 + 100 });
    add({ content: 'Expired, archived', expiresAt: T0 + 10, status: 'archived' });
    expect(upkeep.newlyExpired(T0 + 50)).toEqual([expired]);

    const old = T0 - 100 * DAY;
    const decays = add({ content: 'Old and unused', importance: 0.4, at: old });
    const used = add({ content: 'Old but used', importance: 0.4, at: old });
    store.touchUse(T0, used);
    add({ content: 'Old, pinned', importance: 0.4, at: old, pinned: true });
    add({ content: 'Old, important', importance: 0.9, at: old });
    add({ content: 'Old, at the floor', importance: 0.1, at: old });
    expect(upkeep.decayable(0.5, 0.1, T0 - DAY)).toEqual([{ id: decays, importance: 0.4 }]);

    // Active and unexpired at T0 + 50: pinned first, then most important, then newest.
    expect(upkeep.profileNotes(T0 + 50, 3).map((n) => n.content)).toEqual(['Old, pinned', 'Old, important', 'Not yet']);
  });

  it('follows a summary to what it was written from, and a memory to every wording it had', () => {
    const { store, upkeep, timeline, add } = open();
    const a = add({ content: 'Runs on Mondays' });
    const b = add({ content: 'Runs 5 km' });
    const summary = add({ content: 'Runs 5 km on Mondays' });
    const proposed = add({ content: 'Runs', status: 'review' });
    timeline.record('consolidated', { memoryId: summary }, { version: 1, origin: 'maintenance', status: 'active', importance: 0.5, from: [a, b] }, T0);
    timeline.record('proposed', { memoryId: proposed }, { version: 1, origin: 'maintenance', status: 'review', importance: 0.5, from: [b], replaces: a, flag: 'consolidation' }, T0);
    timeline.record('proposed', { memoryId: proposed }, { version: 2, origin: 'maintenance', status: 'review', importance: 0.5, replaces: b }, T0 + 1);
    expect(upkeep.summariesOf(b).sort()).toEqual([summary, proposed].sort());
    expect(upkeep.summariesOf(a)).toEqual([summary]);
    // The newest proposal of a candidate is the one the inbox reads.
    expect(upkeep.proposal(proposed)).toEqual({ replaces: b, alsoReplaces: null, flag: null });
    expect(upkeep.consolidationProposals()).toHaveLength(1);

    for (const id of [a, b]) store.update({ ...store.mustRow(id), status: 'superseded', superseded_by: summary });
    expect(upkeep.supersededBy(summary)).toEqual([a, b]);
    store.insertVersion({ memoryId: a, content: 'Runs on Mondays and Fridays', category: 'knowledge', importance: 0.5, pinned: 0, status: 'superseded', expiresAt: null, origin: 'user', reason: 'edited', createdAt: T0 + 2 });
    expect(upkeep.wordings(a).sort()).toEqual(['Runs on Mondays', 'Runs on Mondays and Fridays']);
    expect(upkeep.firstReason(a)).toBe('created');
  });
});
