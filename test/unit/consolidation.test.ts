/**
 * Consolidation's two rules: which memories form a cluster (disjoint, same category, 3..8 around a seed, pinned or
 * the user's marked for review), and whether the model's summary of a cluster may replace it (nothing new, nothing
 * dropped, English and Chinese), with the answers small models really give.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CLUSTER_SIMILARITY, MAX_CLUSTER_SIZE, MIN_CLUSTER_SIZE, createClusterer, type ClusterMember } from '../../electron/core/memory/consolidation-clusters';
import { cleanSummary, summaryGrounding } from '../../electron/core/memory/consolidation-summary';

const member = (id: number, more: Partial<ClusterMember> = {}): ClusterMember => ({ id, category: 'knowledge', pinned: false, usersOwn: false, ...more });
const near = (m: ClusterMember, similarity = 0.8) => ({ member: m, similarity });

describe('clusters of related memories', () => {
  it('takes the seed and its closest neighbours of the same category above the threshold, at least three', () => {
    const c = createClusterer();
    const seed = member(1);
    expect(c.around(seed, [near(seed, 1), near(member(2), 0.8), near(member(3), CLUSTER_SIMILARITY - 0.01), near(member(4, { category: 'skill' }), 0.9)])).toBeNull();
    expect(c.around(seed, [near(seed, 1), near(member(2), 0.8), near(member(3), 0.95), near(member(4, { category: 'skill' }), 0.9)])).toEqual({ ids: [1, 3, 2], review: false });
    // Members are taken: a later seed cannot reuse them.
    expect(c.around(member(2), [near(member(1)), near(member(3)), near(member(5))])).toBeNull();
    expect(c.found).toBe(1);
  });

  it('marks a cluster with a pinned memory or one of the user’s for review, and skips memories taken elsewhere', () => {
    expect(createClusterer().around(member(1), [near(member(2, { pinned: true })), near(member(3))])?.review).toBe(true);
    expect(createClusterer().around(member(1), [near(member(2)), near(member(3, { usersOwn: true }))])?.review).toBe(true);
    expect(createClusterer([3]).around(member(1), [near(member(2)), near(member(3))])).toBeNull();
  });

  it('property: clusters are disjoint, of one category, 3..8 in size, each neighbour close to its seed, and review exactly when one is pinned or the user’s', () => {
    const memberArb = fc.record({ category: fc.constantFrom('knowledge', 'skill'), pinned: fc.boolean(), usersOwn: fc.boolean() });
    fc.assert(
      fc.property(
        fc.array(memberArb, { minLength: 1, maxLength: 30, size: 'max' }),
        // Dense and mostly close, so that clusters form and compete for the same memories.
        fc.array(fc.tuple(fc.nat(29), fc.nat(29), fc.double({ min: 0.5, max: 1, noNaN: true })), { maxLength: 600, size: 'max' }),
        fc.array(fc.nat(29), { maxLength: 5 }),
        (shapes, edges, takenIdx) => {
          const members = shapes.map((s, i) => ({ id: i + 1, ...s }));
          const taken = new Set(takenIdx.filter((i) => i < members.length).map((i) => i + 1));
          const sim = new Map<string, number>();
          for (const [a, b, s] of edges) if (a < members.length && b < members.length && a !== b) sim.set(`${a + 1}:${b + 1}`, s);
          const c = createClusterer(taken);
          const clusters = members.flatMap((seed) => {
            const neighbours = members.flatMap((m) => (sim.has(`${seed.id}:${m.id}`) ? [{ member: m, similarity: sim.get(`${seed.id}:${m.id}`)! }] : []));
            const cluster = c.around(seed, neighbours);
            return cluster ? [cluster] : [];
          });
          const all = clusters.flatMap((k) => k.ids);
          expect(new Set(all).size).toBe(all.length);
          for (const k of clusters) {
            expect(k.ids.length).toBeGreaterThanOrEqual(MIN_CLUSTER_SIZE);
            expect(k.ids.length).toBeLessThanOrEqual(MAX_CLUSTER_SIZE);
            const ms = k.ids.map((id) => members[id - 1]!);
            expect(new Set(ms.map((m) => m.category)).size).toBe(1);
            for (const id of k.ids) expect(taken.has(id)).toBe(false);
            for (const id of k.ids.slice(1)) expect(sim.get(`${k.ids[0]}:${id}`)!).toBeGreaterThanOrEqual(CLUSTER_SIMILARITY);
            expect(k.review).toBe(ms.some((m) => m.pinned || m.usersOwn));
          }
          expect(c.found).toBe(clusters.length);
        },
      ),
      { numRuns: 300 },
    );
  }, 60_000);
});

describe('reading the model’s summary', () => {
  it.each([
    ['Here is the combined note:\nRuns 5 km every morning in Central Park', 'Runs 5 km every morning in Central Park'],
    ['```\nRuns 5 km every morning\n```', 'Runs 5 km every morning'],
    ['Here is the combined note:\n```\nRuns 5 km every morning\n```\nLet me know if you need more.', 'Runs 5 km every morning'],
    ['```text\n"Runs 5 km every morning"\n```', 'Runs 5 km every morning'],
    ['Summary: Runs 5 km\nevery morning', 'Runs 5 km every morning'],
    ['- Runs 5 km every morning', 'Runs 5 km every morning'],
    ['以下是合并后的记忆：\n每天早上在西湖边跑五公里', '每天早上在西湖边跑五公里'],
    ['Sure! Here is the summary:\n\n“Runs 5 km every morning”', 'Runs 5 km every morning'],
  ])('%j → %j', (answer, expected) => {
    expect(cleanSummary(answer)).toBe(expected);
  });
});

describe('a summary may replace its cluster only when grounded in it', () => {
  const running = ['Runs 5 km every morning', 'Runs in Central Park', 'Runs with a Garmin watch', 'Training for the Berlin marathon'];

  it('accepts a summary that keeps every fact in the originals’ words (reworded forms, framing words)', () => {
    expect(summaryGrounding('The user runs 5 km every morning in Central Park with a Garmin watch, training for the Berlin marathon', running)).toBeNull();
  });

  it('refuses a summary that adds a fact, changes a number or a name, or answers in another language', () => {
    expect(summaryGrounding('Runs 5 km every morning in Central Park with a Garmin watch, training for the Berlin marathon with his coach Tom', running)).toBe('adds_content');
    expect(summaryGrounding('Runs 10 km every morning in Central Park with a Garmin watch, training for the Berlin marathon', running)).toBe('adds_content');
    expect(summaryGrounding('Runs 5 km every morning in Hyde Park with a Garmin watch, training for the Berlin marathon', running)).toBe('adds_content');
    expect(summaryGrounding('每天早上在中央公园跑5公里，戴佳明手表，为柏林马拉松训练', running)).toBe('adds_content');
  });

  it('refuses a summary that drops an original’s name, number or most of its words', () => {
    expect(summaryGrounding('Runs every morning in Central Park with a Garmin watch, training for the Berlin marathon', running)).toBe('drops_content');
    expect(summaryGrounding('Runs 5 km every morning in Central Park, training for the Berlin marathon', running)).toBe('drops_content');
  });

  it('works in Chinese: a new word is added content, a dropped word is dropped content', () => {
    const zh = ['每天早上跑步五公里', '在西湖边跑步', '用佳明手表记录跑步'];
    expect(summaryGrounding('每天早上在西湖边跑步五公里，用佳明手表记录', zh)).toBeNull();
    expect(summaryGrounding('每天早上在西湖边跑步五公里，用苹果手表记录', zh)).toBe('adds_content');
    expect(summaryGrounding('每天早上在西湖边跑步五公里', zh)).toBe('drops_content');
  });

  it('refuses an empty answer, one too long to be one memory, and one holding a secret', () => {
    expect(summaryGrounding('', running)).toBe('empty');
    expect(summaryGrounding('Runs '.repeat(200), running)).toBe('too_long');
    expect(summaryGrounding('Runs 5 km every morning, password: hunter2-Xq9!zz', ['Runs 5 km every morning', 'password: hunter2-Xq9!zz', 'x'])).toBe('secret');
  });
});
