import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import type { Core } from '../../electron/core/create-core';
import { createBagOfWordsEmbedder } from '../fakes/bag-of-words.embedder';
import { createChatHarness } from '../support/chat-harness';
import { createTestCore } from '../support/test-core';
import { useTempDirs } from '../support/temp-dir';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const DAY = 86_400_000;

describe('timeline, as-of, receipts and exclusions', () => {
  const tempDir = useTempDirs();

  function core(clock: { now: () => number }) {
    const made = createTestCore(path.join(tempDir(), 'data'), { clock, embedder: null, startQueue: false });
    cleanups.push(() => (made.core as Core).dispose());
    return made;
  }

  it('lists what happened newest first, filters by kind and category, and never carries memory text', async () => {
    let now = Date.UTC(2026, 0, 5, 12);
    const { client } = core({ now: () => now });
    const a = unwrap(await client.call('memory.create', { content: 'Secretly loves karaoke', category: 'preference' }));
    now += DAY;
    unwrap(await client.call('memory.update', { memoryId: a.id, content: 'Loves karaoke on Fridays' }));
    now += DAY;
    unwrap(await client.call('memory.delete', { memoryId: a.id }));
    const all = unwrap(await client.call('timeline.list', {}));
    expect(all.events.map((e) => e.kind)).toEqual(['deleted', 'updated', 'learned']);
    expect(all.events.every((e) => e.memoryId === a.id && e.category === 'preference')).toBe(true);
    expect(JSON.stringify(all)).not.toContain('karaoke');
    expect(unwrap(await client.call('timeline.list', { kinds: ['learned'] })).events).toHaveLength(1);
    expect(unwrap(await client.call('timeline.list', { categories: ['skill'] })).events).toHaveLength(0);
    const page = unwrap(await client.call('timeline.list', { limit: 2 }));
    expect(page.hasMore).toBe(true);
    expect(unwrap(await client.call('timeline.list', { before: page.events[1]!.createdAt })).events.map((e) => e.kind)).toEqual(['learned']);
  });

  it('pages through a burst of events written at one instant without skipping or repeating any', async () => {
    const now = Date.UTC(2026, 0, 5, 12);
    const { client } = core({ now: () => now });
    const ids = unwrap(await client.call('memory.import', { content: Array.from({ length: 25 }, (_, i) => `- Burst fact number ${i}`).join('\n') })).written;
    expect(ids).toBe(25);
    const seen: number[] = [];
    let page = unwrap(await client.call('timeline.list', { limit: 10 }));
    seen.push(...page.events.map((e) => e.id));
    while (page.hasMore) {
      const last = page.events[page.events.length - 1]!;
      page = unwrap(await client.call('timeline.list', { limit: 10, before: last.createdAt, beforeId: last.id }));
      seen.push(...page.events.map((e) => e.id));
    }
    const all = unwrap(await client.call('timeline.list', { limit: 500 })).events.map((e) => e.id);
    expect(all.length).toBeGreaterThanOrEqual(25);
    expect(seen).toEqual(all);
    // A cursor id without its time is refused as bad input.
    const bad = await client.call('timeline.list', { beforeId: 3 });
    expect(bad.ok).toBe(false);
  });

  it('leaves out maintenance runs that changed nothing, and shows those that did', async () => {
    let now = Date.UTC(2026, 0, 5, 12);
    const { client } = core({ now: () => now });
    unwrap(await client.call('memory.maintain', {}));
    expect(unwrap(await client.call('timeline.list', {})).events).toEqual([]);

    const note = unwrap(await client.call('memory.create', { content: 'A note for the trash' }));
    unwrap(await client.call('memory.delete', { memoryId: note.id }));
    now += 400 * DAY;
    const report = unwrap(await client.call('memory.maintain', {}));
    expect(report.purged).toBe(1);
    unwrap(await client.call('memory.maintain', {}));
    const kinds = unwrap(await client.call('timeline.list', {})).events.map((e) => e.kind);
    expect(kinds.filter((k) => k === 'maintained')).toHaveLength(1);
  });

  it('gives each event the memory as it was then, with the version before it; null once deleted forever', async () => {
    let now = Date.UTC(2026, 0, 5, 12);
    const { client } = core({ now: () => now });
    const a = unwrap(await client.call('memory.create', { content: 'Lives in Lisbon', category: 'knowledge' }));
    now += DAY;
    unwrap(await client.call('memory.update', { memoryId: a.id, content: 'Lives in Porto' }));
    now += DAY;
    unwrap(await client.call('memory.bulk', { action: 'pin', memoryIds: [a.id] }));
    const events = unwrap(await client.call('timeline.list', {})).events.reverse();
    expect(events.map((e) => e.kind)).toEqual(['learned', 'updated', 'updated']);
    const refs = events.map((e) => ({ memoryId: e.memoryId!, at: e.createdAt }));
    const { items } = unwrap(await client.call('timeline.versions', { refs }));
    expect(items.map((i) => i?.version.content)).toEqual(['Lives in Lisbon', 'Lives in Porto', 'Lives in Porto']);
    expect(items.map((i) => i?.previous?.content ?? null)).toEqual([null, 'Lives in Lisbon', 'Lives in Porto']);
    expect([items[2]!.previous!.pinned, items[2]!.version.pinned]).toEqual([false, true]);
    // The event's own version number wins over its time (two changes in one millisecond).
    const byNumber = unwrap(await client.call('timeline.versions', { refs: [{ memoryId: a.id, at: events[2]!.createdAt, version: 1 }] }));
    expect(byNumber.items[0]?.version.content).toBe('Lives in Lisbon');

    unwrap(await client.call('memory.delete', { memoryId: a.id }));
    unwrap(await client.call('memory.bulk', { action: 'purge', memoryIds: [a.id] }));
    expect(unwrap(await client.call('timeline.versions', { refs })).items).toEqual([null, null, null]);
  });

  it('activity counts learned memories per day and per week', async () => {
    let now = Date.UTC(2026, 0, 5, 9); // a Monday
    const { client } = core({ now: () => now });
    for (const [day, n] of [[0, 2], [1, 1], [8, 3]] as const) {
      now = Date.UTC(2026, 0, 5 + day, 9);
      for (let i = 0; i < n; i++) unwrap(await client.call('memory.create', { content: `Fact ${day}-${i} about the user`, category: 'knowledge' }));
    }
    const dayEdges = Array.from({ length: 11 }, (_, k) => Date.UTC(2026, 0, 5 + k));
    const days = unwrap(await client.call('timeline.activity', { edges: dayEdges })).buckets;
    expect(days).toHaveLength(10);
    expect(days.map((b) => b.learned)).toEqual([2, 1, 0, 0, 0, 0, 0, 0, 3, 0]);
    expect(days.map((b) => [b.start, b.end])).toEqual(dayEdges.slice(1).map((end, k) => [dayEdges[k], end]));
    const weeks = unwrap(await client.call('timeline.activity', { edges: [Date.UTC(2026, 0, 5), Date.UTC(2026, 0, 12), Date.UTC(2026, 0, 19)] })).buckets;
    expect(weeks.map((b) => [new Date(b.start).toISOString().slice(0, 10), b.learned])).toEqual([
      ['2026-01-05', 3],
      ['2026-01-12', 3],
    ]);
    // Edges are the caller's calendar: a day of 23 hours (a daylight-saving change) counts exactly its own events.
    const short = unwrap(await client.call('timeline.activity', { edges: [Date.UTC(2026, 0, 13, 9), Date.UTC(2026, 0, 13, 9) + 23 * 3_600_000] })).buckets;
    expect(short).toEqual([{ start: Date.UTC(2026, 0, 13, 9), end: Date.UTC(2026, 0, 13, 9) + 23 * 3_600_000, learned: 3, changed: 0 }]);
    for (const edges of [[Date.UTC(2026, 0, 5)], [Date.UTC(2026, 0, 6), Date.UTC(2026, 0, 5)]]) {
      expect((await client.call('timeline.activity', { edges })).ok).toBe(false);
    }
  });

  it('as of a date shows what was believed then: old wording before an edit, nothing after a delete or expiry', async () => {
    let now = Date.UTC(2026, 1, 1);
    const { client } = core({ now: () => now });
    const t0 = now;
    const m = unwrap(await client.call('memory.create', { content: 'Works at Acme', category: 'knowledge' }));
    const trip = unwrap(await client.call('memory.create', { content: 'Is in Tokyo this week', category: 'knowledge', expiresAt: t0 + 3 * DAY }));
    now = t0 + 10 * DAY;
    unwrap(await client.call('memory.update', { memoryId: m.id, content: 'Works at Globex' }));
    now = t0 + 20 * DAY;
    unwrap(await client.call('memory.delete', { memoryId: m.id }));
    const at = (t: number) => client.call('memory.asOf', { at: t }).then((r) => unwrap(r).items.map((i) => i.content).sort());
    expect(await at(t0 + DAY)).toEqual(['Is in Tokyo this week', 'Works at Acme']);
    expect(await at(t0 + 5 * DAY)).toEqual(['Works at Acme']);
    expect(await at(t0 + 15 * DAY)).toEqual(['Works at Globex']);
    expect(await at(t0 + 25 * DAY)).toEqual([]);
    expect(await at(t0 - DAY)).toEqual([]);
    expect(trip.id).toBeGreaterThan(0);
  });

  it('getMany returns existing memories in order and leaves out purged ids', async () => {
    const { client } = core({ now: () => Date.UTC(2026, 2, 1) });
    const a = unwrap(await client.call('memory.create', { content: 'First', category: 'knowledge' }));
    const b = unwrap(await client.call('memory.create', { content: 'Second', category: 'skill' }));
    unwrap(await client.call('memory.purge', { memoryId: a.id }));
    expect(unwrap(await client.call('memory.getMany', { memoryIds: [b.id, a.id, 999] })).items.map((m) => m.id)).toEqual([b.id]);
  });

  it('a memory excluded from a thread is not used there, still used elsewhere, and can be included again', async () => {
    const h = await createChatHarness(tempDir(), { core: { embedder: createBagOfWordsEmbedder({ dimensions: 64 }), startQueue: false } });
    cleanups.push(() => h.close());
    const { client } = h;
    const pinned = unwrap(await client.call('memory.create', { content: 'Prefers short answers', category: 'preference', pinned: true }));
    const t1 = unwrap(await client.call('thread.create', {}));
    const t2 = unwrap(await client.call('thread.create', {}));
    expect(unwrap(await client.call('chat.send', { threadId: t1.id, text: 'Explain photosynthesis please' })).memoriesUsed.map((m) => m.memoryId)).toEqual([pinned.id]);
    unwrap(await client.call('thread.excludeMemory', { threadId: t1.id, memoryId: pinned.id }));
    expect(unwrap(await client.call('thread.exclusions', { threadId: t1.id })).memoryIds).toEqual([pinned.id]);
    expect(unwrap(await client.call('chat.send', { threadId: t1.id, text: 'And respiration?' })).memoriesUsed).toEqual([]);
    expect(unwrap(await client.call('chat.send', { threadId: t2.id, text: 'Explain gravity please' })).memoriesUsed.map((m) => m.memoryId)).toEqual([pinned.id]);
    unwrap(await client.call('thread.includeMemory', { threadId: t1.id, memoryId: pinned.id }));
    expect(unwrap(await client.call('chat.send', { threadId: t1.id, text: 'And fermentation?' })).memoriesUsed.map((m) => m.memoryId)).toEqual([pinned.id]);
  });

  it('filters memories by the user message they were learned from', async () => {
    const { client } = core({ now: () => Date.UTC(2026, 3, 1) });
    const all = unwrap(await client.call('memory.list', { sourceMessageId: 12345 }));
    expect(all).toEqual({ items: [], total: 0 });
  });
});
