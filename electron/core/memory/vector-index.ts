/**
 * Memory vectors behind a small interface, so the search strategy (today: sqlite-vec's exact float scan; later e.g.
 * a binary-quantized first pass with float re-scoring) can change without touching the memory service.
 *
 * The table is `memory_vectors`, vec0 with cosine distance, keyed by memories.id. Its dimension follows the embedding
 * model; `rebuild` drops and recreates it with another one (callers null memories.embedding_model in the same
 * transaction so every vector is made again). Ids are bound as BigInt: vec0 refuses a REAL primary key, and
 * better-sqlite3 binds JS numbers as REAL.
 */
import type { Sqlite } from '../db/open-database';

export interface Neighbor {
  id: number;
  /** Cosine distance in [0, 2]; similarity = 1 - distance. */
  distance: number;
}

export interface VectorIndex {
  /** The dimension the table was created with. */
  dimensions(): number;
  /** Recreates the table empty with `dimensions` if it differs; returns whether it did. Run inside a transaction. */
  ensureDimensions(dimensions: number): boolean;
  upsert(id: number, vector: Float32Array): void;
  remove(ids: readonly number[]): void;
  /** The k nearest (k is capped at MAX_K), nearest first. */
  knn(vector: Float32Array, k: number): Neighbor[];
  count(): number;
}

/** sqlite-vec's own cap on k. */
export const MAX_K = 4096;

const TABLE = 'memory_vectors';

export function createVectorIndex(sqlite: Sqlite): VectorIndex {
  let dims = readDimensions(sqlite);
  // Statements are prepared lazily and dropped on rebuild: a prepared statement on a dropped virtual table is stale.
  let stmts: ReturnType<typeof prepare> | null = null;
  const s = () => (stmts ??= prepare(sqlite));

  return {
    dimensions: () => dims,
    ensureDimensions(dimensions) {
      if (!Number.isInteger(dimensions) || dimensions <= 0) throw new Error(`invalid vector dimension ${dimensions}`);
      dims = readDimensions(sqlite); // another connection (the CLI beside the app) may have rebuilt it
      if (dimensions === dims) return false;
      stmts = null;
      sqlite.exec(`DROP TABLE ${TABLE}`);
      sqlite.exec(`CREATE VIRTUAL TABLE ${TABLE} USING vec0(memory_id integer primary key, embedding float[${dimensions}] distance_metric=cosine)`);
      dims = dimensions;
      return true;
    },
    upsert(id, vector) {
      if (vector.length !== dims) throw new Error(`vector has ${vector.length} dimensions, the index ${dims}`);
      // vec0 has no upsert (INSERT OR REPLACE still fails on its primary key).
      s().remove.run(BigInt(id));
      s().insert.run(BigInt(id), vector);
    },
    remove(ids) {
      for (const id of ids) s().remove.run(BigInt(id));
    },
    knn(vector, k) {
      if (vector.length !== dims || k <= 0) return [];
      return s().knn.all(vector, BigInt(Math.min(MAX_K, Math.floor(k)))) as Neighbor[];
    },
    count: () => (s().count.get() as { n: number }).n,
  };
}

function prepare(sqlite: Sqlite) {
  return {
    insert: sqlite.prepare(`INSERT INTO ${TABLE} (memory_id, embedding) VALUES (?, ?)`),
    remove: sqlite.prepare(`DELETE FROM ${TABLE} WHERE memory_id = ?`),
    knn: sqlite.prepare(`SELECT memory_id AS id, distance FROM ${TABLE} WHERE embedding MATCH ? AND k = ? ORDER BY distance`),
    count: sqlite.prepare(`SELECT count(*) AS n FROM ${TABLE}`),
  };
}

function readDimensions(sqlite: Sqlite): number {
  const row = sqlite.prepare(`SELECT sql FROM sqlite_master WHERE name = ?`).get(TABLE) as { sql: string } | undefined;
  const m = row ? /float\[(\d+)\]/.exec(row.sql) : null;
  if (!m) throw new Error(`${TABLE} is missing or not a float vec0 table`);
  return Number(m[1]);
}
