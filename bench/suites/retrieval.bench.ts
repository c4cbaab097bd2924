/**
 * Long-term memory retrieval at several store sizes (384 dimensions, clustered anisotropic vectors with text; see
 * bench/memory-fixture.ts), query embedding excluded:
 * - vector search: Mnemo's VectorIndex.knn (exact below EXACT_BELOW = 20,000 vectors; from there a binary-quantized
 *   first pass + exact re-scoring) beside the plain sqlite-vec float scan (`MATCH ? AND k = ?` on the same vec0 table),
 *   at k = 10 and at k = 100 (the semantic depth of a hybrid search); recall against a brute-force scan in JS;
 * - hybrid memory.search (limit 20: KNN + FTS5 + filters + ranking) with Mnemo's vector search beside the same
 *   service forced to the exact float scan; recall@10 there is the overlap of the two top-10 lists, i.e. how often
 *   the quantization changes what the user sees.
 * The variants run interleaved, query by query, so load from other processes falls on all of them alike.
 */
import { createVectorIndex } from '../../electron/core/search/vector-index';
import { bruteForceNearest, recallAt } from '../../test/fixtures/clustered-vectors';
import { fmt, summarize, type SuiteResult } from '../harness';
import { memoryFixture, openFixture } from '../memory-fixture';

export async function retrievalBench(sizes: readonly number[], queryCount: number): Promise<SuiteResult> {
  const rows: SuiteResult['rows'] = [];
  const notes: string[] = [];
  for (const size of sizes) {
    const fixture = await memoryFixture(size);
    const mnemo = await openFixture(fixture);
    const exactService = await openFixture(fixture, { exactBelow: Number.POSITIVE_INFINITY });
    try {
      const sqlite = mnemo.db.sqlite;
      const index = createVectorIndex(sqlite);
      const plain = sqlite.prepare('SELECT memory_id AS id, distance FROM memory_vectors WHERE embedding MATCH ? AND k = ? ORDER BY distance');
      const queries = fixture.queries.slice(0, queryCount);
      // Most similar first, so the first 10 of the true 100 are the true 10.
      const truth100 = queries.map((q) => bruteForceNearest(fixture.vectors, q.vector, 100).map((i) => fixture.ids[i]!));
      const truth10 = truth100.map((t) => t.slice(0, 10));

      type Variant = { name: string; k: number | string; run: (i: number) => Promise<number[]> | number[]; recall: (found: number[], i: number) => number };
      const ids = (ns: Array<{ id: number }>) => ns.map((n) => n.id);
      const exactHybridTop = new Map<number, number[]>();
      const variants: Variant[] = [
        { name: 'sqlite-vec float scan (plain vec0)', k: 10, run: (i) => ids(plain.all(queries[i]!.vector, 10n) as Array<{ id: number }>), recall: (f, i) => recallAt(f, truth10[i]!) },
        { name: 'Mnemo vector search', k: 10, run: (i) => ids(index.knn(queries[i]!.vector, 10)), recall: (f, i) => recallAt(f, truth10[i]!) },
        { name: 'sqlite-vec float scan (plain vec0)', k: 100, run: (i) => ids(plain.all(queries[i]!.vector, 100n) as Array<{ id: number }>), recall: (f, i) => recallAt(f, truth100[i]!) },
        { name: 'Mnemo vector search', k: 100, run: (i) => ids(index.knn(queries[i]!.vector, 100)), recall: (f, i) => recallAt(f, truth100[i]!) },
        {
          name: 'memory.search, exact float KNN inside',
          k: 'limit 20',
          run: async (i) => {
            const top = (await exactService.memories.search({ query: queries[i]!.text, limit: 20 })).hits.map((h) => h.memory.id);
            exactHybridTop.set(i, top.slice(0, 10));
            return top;
          },
          recall: () => 1,
        },
        {
          name: 'memory.search (Mnemo)',
          k: 'limit 20',
          run: async (i) => (await mnemo.memories.search({ query: queries[i]!.text, limit: 20 })).hits.map((h) => h.memory.id),
          recall: (f, i) => recallAt(f.slice(0, 10), exactHybridTop.get(i)!),
        },
      ];

      // Warm-up: page cache, prepared statements, the bit pass's learned bounds.
      for (let i = 0; i < Math.min(10, queries.length); i++) for (const v of variants) await v.run(i);
      const samples = variants.map(() => [] as number[]);
      const recalls = variants.map(() => 0);
      for (let i = 0; i < queries.length; i++) {
        for (const [j, v] of variants.entries()) {
          const t0 = performance.now();
          const found = await v.run(i);
          samples[j]!.push(performance.now() - t0);
          recalls[j]! += v.recall(found, i);
        }
      }
      const stats = samples.map(summarize);
      const baselineOf = (j: number) => (j % 2 === 1 ? j - 1 : null);
      variants.forEach((v, j) => {
        const b = baselineOf(j);
        const s = stats[j]!;
        rows.push({
          memories: size.toLocaleString('en'),
          variant: v.name,
          k: v.k,
          'p50 ms': fmt(s.p50),
          'p95 ms': fmt(s.p95),
          recall: (recalls[j]! / queries.length).toFixed(3),
          'p50 speed-up': b === null ? '' : `${(stats[b]!.p50 / s.p50).toFixed(1)}x`,
        });
      });
      notes.push(
        `${size.toLocaleString('en')} memories: seeded through createMemory in ${fixture.seedSeconds.toFixed(1)} s (${Math.round(size / fixture.seedSeconds).toLocaleString('en')}/s, vectors precomputed); ${queries.length} queries`,
      );
    } finally {
      await mnemo.close();
      await exactService.close();
    }
  }
  notes.push('recall: vector rows against a brute-force scan in JS (recall@k); memory.search rows: overlap of its top 10 with the exact-KNN memory.search top 10');
  notes.push('p50 speed-up: the plain float scan (or exact-KNN memory.search) p50 divided by Mnemo’s, same k, same run');
  return { suite: 'Long-term memory retrieval (384 dimensions, query embedding excluded)', rows, notes };
}
