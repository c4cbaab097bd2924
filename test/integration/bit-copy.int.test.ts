import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, sourceMigrationsDir, type OpenedDatabase } from '../../electron/core/db/open-database';
import { readBitCopy } from '../../electron/core/search/bit-copy';
import { createVectorIndex, type VectorIndex } from '../../electron/core/search/vector-index';
import { createVectorSpace, seededRandom, uniformUnitVector } from '../fixtures/clustered-vectors';
import { useTempDirs } from '../support/temp-dir';

const D = 384;
const BITS = 'memory_vector_bits';

describe('bit copy: the stored bits in memory for the first pass of vector search', () => {
  const tempDir = useTempDirs();
  const open: OpenedDatabase[] = [];
  afterEach(() => {
    for (const db of open.splice(0)) db.close();
  });

  function database(dir = tempDir()): OpenedDatabase {
    const db = openDatabase(path.join(dir, 'mnemo.db'), { migrationsDir: sourceMigrationsDir() });
    open.push(db);
    return db;
  }

  function fill(index: VectorIndex, db: OpenedDatabase, vectors: readonly Float32Array[]): void {
    db.sqlite.transaction(() => vectors.forEach((v, i) => index.upsert(i + 1, v)))();
  }

  /** Every stored vector's hamming distance to the query's bits, as sqlite-vec computes it, by (distance, id). */
  function sqlDistances(db: OpenedDatabase, bits: Buffer): Array<{ id: number; distance: number }> {
    return db.sqlite
      .prepare(`SELECT memory_id AS id, vec_distance_hamming(embedding, vec_bit(?)) AS distance FROM ${BITS} ORDER BY distance, id`)
      .all(bits) as Array<{ id: number; distance: number }>;
  }

  const queryBits = (db: OpenedDatabase, v: Float32Array) =>
    (db.sqlite.prepare(`SELECT vec_quantize_binary(vec_sub(?, (SELECT vector FROM memory_vector_center WHERE id = 1))) AS b`).get(v) as { b: Buffer }).b;

  it('holds exactly the rows of the virtual table, after inserts, replacements and removals, and selects the nearest by hamming distance', () => {
    const db = database();
    const index = createVectorIndex(db.sqlite);
    const random = seededRandom(3);
    // More than one chunk (512 a chunk), re-centered once (1000), with holes left by removals and moved rows.
    fill(
      index,
      db,
      Array.from({ length: 1700 }, () => uniformUnitVector(random, D)),
    );
    db.sqlite.transaction(() => {
      index.remove([1, 2, 3, 600, 1100, 1699]);
      for (const id of [10, 700, 1200]) index.upsert(id, uniformUnitVector(random, D));
      index.upsert(5000, uniformUnitVector(random, D));
    })();
    const copy = readBitCopy(db.sqlite, BITS, D);
    expect(copy).not.toBeNull();
    expect(copy!.size()).toBe(1700 - 6 + 1);
    for (let i = 0; i < 5; i++) {
      const bits = queryBits(db, uniformUnitVector(random, D));
      const all = sqlDistances(db, bits);
      const nearest = copy!.scan(bits);
      expect(nearest(all.length + 10)).toEqual(all);
      // The `want` nearest: the SQL list's head, ties at the last distance broken by id.
      expect(nearest(37)).toEqual(all.slice(0, 37));
      expect(nearest(0)).toEqual([]);
    }
  });

  it('grows past what it was read with: vectors written afterwards and refreshed are scanned like the rest', () => {
    const db = database();
    const index = createVectorIndex(db.sqlite);
    const random = seededRandom(8);
    fill(
      index,
      db,
      Array.from({ length: 100 }, () => uniformUnitVector(random, D)),
    );
    const copy = readBitCopy(db.sqlite, BITS, D)!;
    // Twenty times what it was read with (several times the module's first memory page); re-centered on the way, so
    // every stored row changed: all are refreshed.
    const added = Array.from({ length: 2000 }, (_, i) => 1000 + i);
    db.sqlite.transaction(() => added.forEach((id) => index.upsert(id, uniformUnitVector(random, D))))();
    copy.refresh([...Array.from({ length: 100 }, (_, i) => i + 1), ...added]);
    expect(copy.size()).toBe(2100);
    const bits = queryBits(db, uniformUnitVector(random, D));
    const all = sqlDistances(db, bits);
    expect(copy.scan(bits)(5000)).toEqual(all);
  });

  it('is not made from storage laid out otherwise (the float table): vector search then keeps to sqlite-vec', () => {
    const db = database();
    const index = createVectorIndex(db.sqlite);
    fill(
      index,
      db,
      Array.from({ length: 50 }, (_, i) => uniformUnitVector(seededRandom(i + 1), D)),
    );
    expect(readBitCopy(db.sqlite, 'memory_vectors', D)).toBeNull();
    expect(readBitCopy(db.sqlite, 'no_such_table', D)).toBeNull();
    expect(readBitCopy(db.sqlite, BITS, D)).not.toBeNull();
  });

  describe('kept equal to the committed rows by the vector index', () => {
    const setup = () => {
      const dir = tempDir();
      const db = database(dir);
      const index = createVectorIndex(db.sqlite, { exactBelow: 100 });
      const space = createVectorSpace({ dimensions: D, seed: 21 });
      const vectors = Array.from({ length: 3000 }, () => space.memory().vector);
      fill(index, db, vectors);
      return { dir, db, index, space, vectors };
    };

    it('a vector replaced or removed through the index is searched as it is now', () => {
      const { index, space, vectors } = setup();
      // The first search reads the copy.
      expect(index.knn(vectors[99]!, 1, { strategy: 'quantized' })[0]?.id).toBe(100);
      const moved = space.memory().vector;
      index.upsert(7, moved);
      index.remove([100]);
      const added = space.memory().vector;
      index.upsert(9000, added);
      expect(index.knn(moved, 1, { strategy: 'quantized' })[0]).toMatchObject({ id: 7 });
      expect(index.knn(added, 1, { strategy: 'quantized' })[0]).toMatchObject({ id: 9000 });
      expect(index.knn(vectors[99]!, 50, { strategy: 'quantized' }).map((n) => n.id)).not.toContain(100);
      expect(index.knn(vectors[6]!, 50, { strategy: 'quantized' }).find((n) => n.id === 7)?.distance ?? 2).toBeGreaterThan(1e-4);
    });

    it('a write another connection committed is seen at the next search', () => {
      const { dir, index, space } = setup();
      const probe = space.memory().vector;
      expect(index.knn(probe, 1, { strategy: 'quantized' })[0]?.id).not.toBe(8000);
      const other = openDatabase(path.join(dir, 'mnemo.db'), { migrationsDir: sourceMigrationsDir() });
      open.push(other);
      const otherIndex = createVectorIndex(other.sqlite);
      other.sqlite.transaction(() => otherIndex.upsert(8000, probe))();
      expect(index.knn(probe, 1, { strategy: 'quantized' })[0]).toMatchObject({ id: 8000 });
    });

    it('a write rolled back leaves the search as it was', () => {
      const { db, index, space, vectors } = setup();
      expect(index.knn(vectors[11]!, 1, { strategy: 'quantized' })[0]?.id).toBe(12);
      const elsewhere = space.memory().vector;
      expect(() =>
        db.sqlite.transaction(() => {
          index.upsert(12, elsewhere);
          // Inside the transaction the search sees its own write (the SQL path).
          expect(index.knn(elsewhere, 1, { strategy: 'quantized' })[0]?.id).toBe(12);
          throw new Error('rolled back');
        })(),
      ).toThrow('rolled back');
      expect(index.knn(vectors[11]!, 1, { strategy: 'quantized' })[0]).toMatchObject({ id: 12 });
      expect(index.knn(vectors[11]!, 1, { strategy: 'quantized' })[0]!.distance).toBeLessThan(1e-4);
    });
  });
});
