import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, sourceMigrationsDir, type OpenedDatabase } from '../../electron/core/db/open-database';
import { CENTER_FIRST, createVectorIndex, type VectorIndex } from '../../electron/core/search/vector-index';
import { bruteForceNearest, createVectorSpace, recallAt, seededRandom, uniformUnitVector } from '../fixtures/clustered-vectors';
import { useTempDirs } from '../support/temp-dir';

const D = 384;

describe('vector index: binary-quantized first pass with exact re-scoring', () => {
  const tempDir = useTempDirs();
  const open: OpenedDatabase[] = [];
  afterEach(() => {
    for (const db of open.splice(0)) db.close();
  });

  function database(migrationsDir = sourceMigrationsDir(), dir = tempDir()): OpenedDatabase {
    const db = openDatabase(path.join(dir, 'mnemo.db'), { migrationsDir });
    open.push(db);
    return db;
  }

  function fill(index: VectorIndex, db: OpenedDatabase, vectors: readonly Float32Array[]): void {
    db.sqlite.transaction(() => vectors.forEach((v, i) => index.upsert(i + 1, v)))();
  }

  /** Mean recall@k of the quantized path against the exact float scan of the same table. */
  function recall(index: VectorIndex, queries: readonly Float32Array[], k: number): number {
    let sum = 0;
    for (const q of queries) {
      const exact = index.knn(q, k, { strategy: 'exact' }).map((n) => n.id);
      sum += recallAt(
        index.knn(q, k, { strategy: 'quantized' }).map((n) => n.id),
        exact,
      );
    }
    return sum / queries.length;
  }

  const count = (db: OpenedDatabase, table: string) => (db.sqlite.prepare(`SELECT count(*) AS n FROM ${table}_rowids`).get() as { n: number }).n;
  /** Stored bits that differ from the sign of (float vector - center): must always be none. */
  const staleBits = (db: OpenedDatabase) =>
    (
      db.sqlite
        .prepare(
          `SELECT count(*) AS n FROM memory_vectors f JOIN memory_vector_bits b ON b.memory_id = f.memory_id
           WHERE b.embedding != vec_quantize_binary(vec_sub(f.embedding, (SELECT vector FROM memory_vector_center WHERE id = 1)))`,
        )
        .get() as { n: number }
    ).n;

  it('finds the same neighbours as the exact scan on clustered, anisotropic vectors', () => {
    const db = database();
    const index = createVectorIndex(db.sqlite);
    const space = createVectorSpace({ dimensions: D, seed: 7 });
    // 6,000 vectors over 6,000 subtopics: sparse neighbours, the hardest case for the bit pass (at 100k the groups
    // are denser and recall is higher).
    fill(
      index,
      db,
      Array.from({ length: 6000 }, () => space.memory().vector),
    );
    const queries = Array.from({ length: 30 }, () => space.query().vector);
    expect(recall(index, queries, 10)).toBeGreaterThanOrEqual(0.95);
    // A longer list is judged by its head (quantized-search.ts, JUDGED): the head stays exact, the tail approximate.
    const head = queries.reduce((sum, q) => sum + recallAt(index.knn(q, 50, { strategy: 'quantized' }).slice(0, 10).map((n) => n.id), index.knn(q, 10, { strategy: 'exact' }).map((n) => n.id)), 0);
    expect(head / queries.length).toBeGreaterThanOrEqual(0.95);
    // A caller that shows 10 of 50 judges 10: the head stays exact as well.
    const judged10 = queries.reduce((sum, q) => sum + recallAt(index.knn(q, 50, { strategy: 'quantized', judged: 10 }).slice(0, 10).map((n) => n.id), index.knn(q, 10, { strategy: 'exact' }).map((n) => n.id)), 0);
    expect(judged10 / queries.length).toBeGreaterThanOrEqual(0.95);
    expect(recall(index, queries, 50)).toBeGreaterThanOrEqual(0.5);
    // Distances are the exact cosine ones, whichever path chose the candidates.
    const q = queries[0]!;
    const exact = new Map(index.knn(q, 100, { strategy: 'exact' }).map((n) => [n.id, n.distance]));
    for (const n of index.knn(q, 10, { strategy: 'quantized' })) if (exact.has(n.id)) expect(n.distance).toBeCloseTo(exact.get(n.id)!, 6);
  });

  it('finds a vector stored near the query among isotropic noise', () => {
    const db = database();
    const index = createVectorIndex(db.sqlite);
    const random = seededRandom(11);
    const vectors = Array.from({ length: 3000 }, () => uniformUnitVector(random, D));
    fill(index, db, vectors);
    const truthIds: number[] = [];
    const queries = Array.from({ length: 30 }, () => {
      const target = Math.floor(random() * vectors.length);
      truthIds.push(target + 1);
      const noise = uniformUnitVector(random, D);
      return Float32Array.from(vectors[target]!, (x, i) => x + 0.5 * noise[i]!);
    });
    queries.forEach((q, i) => expect(index.knn(q, 1, { strategy: 'quantized' })[0]?.id).toBe(truthIds[i]));
    // Pure noise has no structure for the bits to keep: the hardest case, where hard queries get longer lists.
    const noise = Array.from({ length: 30 }, () => uniformUnitVector(random, D));
    expect(recall(index, noise, 10)).toBeGreaterThanOrEqual(0.85);
  });

  it('the exact path is the brute-force answer, and auto mode is exact below exactBelow', () => {
    const db = database();
    const space = createVectorSpace({ dimensions: D, seed: 3 });
    const memories = Array.from({ length: 1500 }, () => space.memory().vector);
    const index = createVectorIndex(db.sqlite);
    fill(index, db, memories);
    for (let i = 0; i < 10; i++) {
      const q = space.query().vector;
      const truth = bruteForceNearest(memories, q, 10).map((j) => j + 1);
      expect(index.knn(q, 10, { strategy: 'exact' }).map((n) => n.id)).toEqual(truth);
      expect(index.knn(q, 10).map((n) => n.id)).toEqual(truth);
    }
  });

  it('centers the bits on the mean once there are enough vectors, and keeps every stored bit in step', () => {
    const db = database();
    const index = createVectorIndex(db.sqlite);
    const space = createVectorSpace({ dimensions: D, seed: 5 });
    const basis = () => (db.sqlite.prepare('SELECT basis FROM memory_vector_center').get() as { basis: number }).basis;
    fill(
      index,
      db,
      Array.from({ length: CENTER_FIRST - 1 }, () => space.memory().vector),
    );
    expect(basis()).toBe(0);
    expect(staleBits(db)).toBe(0);
    index.upsert(CENTER_FIRST, space.memory().vector);
    expect(basis()).toBe(CENTER_FIRST);
    // The shared direction of the vectors shows up in the center.
    const center = db.sqlite.prepare('SELECT vec_to_json(vector) AS v FROM memory_vector_center').get() as { v: string };
    const norm = Math.hypot(...(JSON.parse(center.v) as number[]));
    expect(norm).toBeGreaterThan(0.7);
    expect(staleBits(db)).toBe(0);
    expect(count(db, 'memory_vector_bits')).toBe(CENTER_FIRST);
    // Replacing a vector re-quantizes it around the current center.
    index.upsert(5, space.memory().vector);
    expect(staleBits(db)).toBe(0);
    expect(count(db, 'memory_vectors')).toBe(CENTER_FIRST);
    expect(count(db, 'memory_vector_bits')).toBe(CENTER_FIRST);
  });

  it('remove deletes from both tables and the id is never returned again', () => {
    const db = database();
    const index = createVectorIndex(db.sqlite, { exactBelow: 100 });
    const space = createVectorSpace({ dimensions: D, seed: 9 });
    const vectors = Array.from({ length: 1200 }, () => space.memory().vector);
    fill(index, db, vectors);
    const q = vectors[41]!;
    expect(index.knn(q, 1, { strategy: 'quantized' })[0]?.id).toBe(42);
    index.remove([42, 43]);
    expect(count(db, 'memory_vectors')).toBe(1198);
    expect(count(db, 'memory_vector_bits')).toBe(1198);
    expect(index.count()).toBe(1198);
    for (const strategy of ['exact', 'quantized', 'auto'] as const) {
      const ids = index.knn(q, 50, { strategy }).map((n) => n.id);
      expect(ids).toHaveLength(50);
      expect(ids).not.toContain(42);
      expect(ids).not.toContain(43);
    }
  });

  it('a dimension change rebuilds all three tables empty, in the same shape a fresh database has', () => {
    const dir = tempDir();
    const db = database(sourceMigrationsDir(), dir);
    const index = createVectorIndex(db.sqlite, { exactBelow: 10 });
    const space = createVectorSpace({ dimensions: D, seed: 1 });
    fill(
      index,
      db,
      Array.from({ length: 1100 }, () => space.memory().vector),
    );
    const fresh = database();
    const ddl = (d: OpenedDatabase, name: string) => (d.sqlite.prepare('SELECT sql FROM sqlite_master WHERE name = ?').get(name) as { sql: string }).sql;
    for (const name of ['memory_vectors', 'memory_vector_bits']) expect(ddl(db, name).replace(/`/g, '')).toBe(ddl(fresh, name).replace(/`/g, ''));

    expect(db.sqlite.transaction(() => index.ensureDimensions(64))()).toBe(true);
    expect(index.dimensions()).toBe(64);
    expect(count(db, 'memory_vectors')).toBe(0);
    expect(count(db, 'memory_vector_bits')).toBe(0);
    expect(ddl(db, 'memory_vectors').replace(/`/g, '')).toBe(ddl(fresh, 'memory_vectors').replace(/`/g, '').replace('float[384]', 'float[64]'));
    expect(ddl(db, 'memory_vector_bits').replace(/`/g, '')).toBe(ddl(fresh, 'memory_vector_bits').replace(/`/g, '').replace('bit[384]', 'bit[64]'));
    expect(db.sqlite.prepare('SELECT length(vector) AS bytes, basis FROM memory_vector_center').get()).toEqual({ bytes: 64 * 4, basis: 0 });

    const small = createVectorSpace({ dimensions: 64, seed: 2 });
    const vectors = Array.from({ length: 1100 }, () => small.memory().vector);
    fill(index, db, vectors);
    expect(staleBits(db)).toBe(0);
    const q = small.query().vector;
    expect(recallAt(index.knn(q, 10, { strategy: 'quantized' }).map((n) => n.id), index.knn(q, 10, { strategy: 'exact' }).map((n) => n.id))).toBeGreaterThanOrEqual(0.8);
    expect(db.sqlite.transaction(() => index.ensureDimensions(64))()).toBe(false);

    // A second index on the same file (the CLI beside the app) sees the rebuilt tables as they are.
    expect(createVectorIndex(db.sqlite).dimensions()).toBe(64);
  });

  it('the migration keeps the stored vectors, quantizes them, and sends vectors of another dimension to be remade', () => {
    const journal = JSON.parse(fs.readFileSync(path.join(sourceMigrationsDir(), 'meta', '_journal.json'), 'utf8')) as { entries: Array<{ tag: string }> };
    const upTo = (dir: string, tag: string) => {
      const target = path.join(dir, `migrations-${tag}`);
      fs.mkdirSync(path.join(target, 'meta'), { recursive: true });
      const entries = journal.entries.slice(0, journal.entries.findIndex((e) => e.tag === tag) + 1);
      for (const e of entries) fs.copyFileSync(path.join(sourceMigrationsDir(), `${e.tag}.sql`), path.join(target, `${e.tag}.sql`));
      fs.writeFileSync(path.join(target, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries }));
      return target;
    };
    /** A database as the previous version left it: memories with vectors of `dims` dimensions. */
    const previous = (dims: number, vectors: readonly Float32Array[]) => {
      const dir = tempDir();
      const old = openDatabase(path.join(dir, 'mnemo.db'), { migrationsDir: upTo(dir, '0002_memory_list_indexes') });
      old.sqlite.transaction(() => {
        if (dims !== D) {
          old.sqlite.exec('DROP TABLE memory_vectors');
          old.sqlite.exec(`CREATE VIRTUAL TABLE memory_vectors USING vec0(memory_id integer primary key, embedding float[${dims}] distance_metric=cosine)`);
        }
        const memory = old.sqlite.prepare(
          "INSERT INTO memories (content, content_hash, category, embedding_model, created_at, updated_at) VALUES (?, ?, 'knowledge', 'test:model', 1, 1)",
        );
        const vector = old.sqlite.prepare('INSERT INTO memory_vectors (memory_id, embedding) VALUES (?, ?)');
        vectors.forEach((v, i) => {
          const id = memory.run(`memory ${i}`, `hash ${i}`).lastInsertRowid;
          vector.run(BigInt(id), v);
        });
      })();
      old.close();
      return database(sourceMigrationsDir(), dir);
    };
    const models = (db: OpenedDatabase) => (db.sqlite.prepare('SELECT DISTINCT embedding_model AS m FROM memories').all() as Array<{ m: string | null }>).map((r) => r.m);

    const space = createVectorSpace({ dimensions: D, seed: 4 });
    const stored = Array.from({ length: 20 }, () => space.memory().vector);
    const a = previous(D, stored);
    expect(a.appliedMigrations.slice(0, 2)).toEqual(['0003_memory_vector_center', '0004_memory_vector_bits']);
    expect(count(a, 'memory_vectors')).toBe(20);
    expect(count(a, 'memory_vector_bits')).toBe(20);
    expect(models(a)).toEqual(['test:model']);
    expect(a.sqlite.prepare('SELECT basis, length(vector) AS bytes FROM memory_vector_center').get()).toEqual({ basis: 0, bytes: 1536 });
    expect(staleBits(a)).toBe(0);
    const indexA = createVectorIndex(a.sqlite);
    expect(indexA.knn(stored[6]!, 1)[0]).toEqual({ id: 7, distance: expect.closeTo(0, 5) });

    // A model of 64 dimensions was in use: those vectors are not carried over and their memories wait for new ones.
    const random = seededRandom(8);
    const b = previous(
      64,
      Array.from({ length: 30 }, () => uniformUnitVector(random, 64)),
    );
    expect(count(b, 'memory_vectors')).toBe(0);
    expect(count(b, 'memory_vector_bits')).toBe(0);
    expect(models(b)).toEqual([null]);
    expect(createVectorIndex(b.sqlite).dimensions()).toBe(D);
  });
});
