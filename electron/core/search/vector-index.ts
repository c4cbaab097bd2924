/**
 * Memory vectors behind a small interface, so the memory service does not know how they are stored or searched.
 *
 * Tables (drizzle/0003, 0004), keyed by memories.id; their dimension follows the embedding model:
 * - `memory_vectors`: vec0 float[D], cosine. The exact vectors.
 * - `memory_vector_bits`: vec0 bit[D], one bit per dimension: the sign of (vector - center). 32x smaller.
 * - `memory_vector_center`: one row, the center (float32[D]) and how many vectors it is the mean of.
 *
 * Search: below `exactBelow` vectors, sqlite-vec's exact float scan (a few ms there, and exact). From there on, a
 * hamming KNN over the bits picks candidates (quantized-search.ts), which are re-scored with the exact cosine of
 * their float vectors (one point lookup each) before the best k are returned. The hamming pass scans a copy of the
 * bits in memory (bit-copy.ts: one WebAssembly scan for every candidate count, where sqlite-vec reads the table
 * again for each distance band), and keeps to sqlite-vec's bands inside a transaction (which must see its own writes) and where
 * the copy cannot be read. The float scan reads 1.5 KB per vector and computes a 384-term cosine; the bit pass reads
 * 48 bytes and six popcounts.
 *
 * Why a center: vectors of one embedding model share a large common component (unrelated texts are often 0.7-0.8
 * cosine-similar under e5), so the raw signs of many dimensions are the same for every vector and say nothing.
 * Quantizing around the mean of the stored vectors gives those bits back. The mean is taken when there are
 * CENTER_FIRST vectors and again each time their number doubles, until CENTER_SETTLED (by then it has settled);
 * every re-centering rewrites all the bits in the caller's transaction.
 *
 * Invariants:
 * - The three tables have the same dimension, and the two vector tables the same ids: every write, delete and
 *   rebuild touches them together, in the caller's transaction.
 * - Stored and query bits are taken around the center as it is in the database at that moment, computed by the
 *   same SQL expression, so connections beside each other (the CLI beside the app) agree.
 * - knn distances are always exact cosine distances: the bits only choose which vectors are compared.
 *
 * Ids are bound as BigInt: vec0 refuses a REAL primary key, and better-sqlite3 binds JS numbers as REAL.
 */
import type { Sqlite } from '../db/open-database';
import { writeTransaction } from '../db/write-transaction';
import { readBitCopy, type BitCopy } from './bit-copy';
import { BandMemory, JUDGED, nearestByBands, needsMoreCandidates, planSearch, type Scored } from './quantized-search';

export interface Neighbor {
  id: number;
  /** Cosine distance in [0, 2]; similarity = 1 - distance. */
  distance: number;
}

/** 'auto': exact below `exactBelow` vectors, quantized from there. The other two force a path (tests, benchmarks). */
export type KnnStrategy = 'auto' | 'exact' | 'quantized';

export interface KnnOptions {
  /** Default 'auto'. */
  strategy?: KnnStrategy;
  /**
   * How many of the nearest must be as exact as the quantized pass can make them (default JUDGED): the candidate
   * list grows until none of these came from its second half. Results past them are exact distances of the best
   * candidates found, not necessarily the true next neighbours. A caller that shows 12 results of a 48-deep list
   * judges 12, and most queries then need one bit pass instead of two or three.
   */
  judged?: number;
}

export interface VectorIndex {
  /** The dimension the tables were created with. */
  dimensions(): number;
  /** Recreates the tables empty with `dimensions` if it differs; returns whether it did. Run inside a transaction. */
  ensureDimensions(dimensions: number): boolean;
  upsert(id: number, vector: Float32Array): void;
  remove(ids: readonly number[]): void;
  /** The k nearest (k is capped at MAX_K), nearest first, with exact cosine distances. */
  knn(vector: Float32Array, k: number, options?: KnnOptions): Neighbor[];
  count(): number;
  /** A memory's stored float vector, or null when it has none. */
  stored(id: number): Float32Array | null;
  /**
   * The dimension memory_vectors has in the schema now (null: missing), read afresh: another connection may have
   * rebuilt it, and reading it changes nothing (dimensions() is this connection's view, ensureDimensions rebuilds).
   */
  storedDimensions(): number | null;
}

export interface VectorIndexOptions {
  /** Below this many vectors, knn uses the exact float scan. Default EXACT_BELOW. */
  exactBelow?: number;
}

/** sqlite-vec's own cap on k (0.1.9 refuses more). */
export const MAX_K = 4096;
/**
 * Below this many vectors knn uses the exact float scan: about 0.5 us a vector, so at most about 10 ms, and exact.
 * That covers the default active-memory cap (10,000) with room for archived and trashed ones. The bit pass also
 * recalls least on small stores, whose neighbours are sparse (bench/suites/retrieval.bench.ts).
 */
export const EXACT_BELOW = 20_000;
/** Vectors needed before the bits are centered on their mean; re-centered at each doubling until CENTER_SETTLED. */
export const CENTER_FIRST = 1000;
export const CENTER_SETTLED = 16_000;
/** The mean is taken over at most about this many vectors (evenly spread by id). */
const CENTER_SAMPLE = 20_000;

/** Ids written since the bit copy was read, re-read one by one (a point lookup each) up to this many; past it, the copy is read again. */
const REFRESH_AT_MOST = 500;

const FLOATS = 'memory_vectors';
const BITS = 'memory_vector_bits';
const CENTER = 'memory_vector_center';

/** The same shapes as migration 0004 creates; a rebuild must leave the same tables as a fresh install. */
const floatsDdl = (d: number) => `CREATE VIRTUAL TABLE ${FLOATS} USING vec0(memory_id integer primary key, embedding float[${d}] distance_metric=cosine, chunk_size=128)`;
const bitsDdl = (d: number) => `CREATE VIRTUAL TABLE ${BITS} USING vec0(memory_id integer primary key, embedding bit[${d}], chunk_size=512)`;

export function createVectorIndex(sqlite: Sqlite, options: VectorIndexOptions = {}): VectorIndex {
  const exactBelow = options.exactBelow ?? EXACT_BELOW;
  const bands = new BandMemory();
  // Statements are prepared lazily and dropped on rebuild: a prepared statement on a dropped virtual table is stale.
  let stmts: ReturnType<typeof prepare> | null = null;
  const s = () => (stmts ??= prepare(sqlite));
  let dims = readDimensions(sqlite);
  // The bits in memory (bit-copy.ts), as of `version` (PRAGMA data_version) plus the ids written since (`written`,
  // re-read before use). null: not read yet, or dropped; bits null: this storage cannot be copied (SQL path).
  let copy: { bits: BitCopy | null; version: number } | null = null;
  const written = new Set<number>();
  const dataVersion = sqlite.prepare('PRAGMA data_version').pluck();

  /** The copy of the committed bits, or null when there is none to use (inside a transaction: the SQL path sees its writes). */
  function bitCopy(): BitCopy | null {
    if (sqlite.inTransaction) return null;
    const version = dataVersion.get() as number;
    // Another connection committed, or this one wrote so much that reading the copy again is cheaper than refreshing.
    if (copy && (copy.version !== version || written.size > REFRESH_AT_MOST)) copy = null;
    if (!copy) {
      written.clear();
      copy = { bits: readBitCopy(sqlite, BITS, dims), version };
    } else if (written.size > 0) {
      copy.bits?.refresh(written);
      written.clear();
    }
    return copy.bits;
  }

  function count(): number {
    return (s().count.get() as { n: number }).n;
  }

  /** Sets the center, recreates the bits table and quantizes every stored vector around the new center. */
  function rebuildBits(centerVector: Float32Array, basis: number): void {
    stmts = null;
    copy = null;
    bands.clear();
    sqlite.exec(`DROP TABLE IF EXISTS ${BITS}`);
    sqlite.exec(bitsDdl(dims));
    sqlite.prepare(`INSERT OR REPLACE INTO ${CENTER} (id, vector, basis) VALUES (1, ?, ?)`).run(bytes(centerVector), basis);
    sqlite.prepare(`INSERT INTO ${BITS} (memory_id, embedding) SELECT memory_id, vec_quantize_binary(vec_sub(embedding, ?)) FROM ${FLOATS}`).run(bytes(centerVector));
  }

  function recenterIfDue(): void {
    const row = s().basis.get() as { basis: number } | undefined;
    if (!row) throw new Error(`${CENTER} has no row`);
    if (row.basis >= CENTER_SETTLED) return;
    const n = count();
    if (row.basis === 0 ? n < CENTER_FIRST : n < 2 * row.basis) return;
    writeTransaction(sqlite, () => rebuildBits(meanOfStored(n), n));
  }

  function meanOfStored(n: number): Float32Array {
    const every = Math.max(1, Math.ceil(n / CENTER_SAMPLE));
    const sum = new Float64Array(dims);
    let taken = 0;
    for (const row of sqlite.prepare(`SELECT embedding FROM ${FLOATS} WHERE memory_id % ? = 0`).iterate(every) as Iterable<{ embedding: Buffer }>) {
      for (let i = 0; i < dims; i++) sum[i]! += row.embedding.readFloatLE(i * 4);
      taken++;
    }
    const mean = new Float32Array(dims);
    for (let i = 0; i < dims && taken > 0; i++) mean[i] = sum[i]! / taken;
    return mean;
  }

  function exact(vector: Float32Array, k: number): Neighbor[] {
    return s().knn.all(vector, BigInt(k)) as Neighbor[];
  }

  function quantized(vector: Float32Array, k: number, plan: { first: number; limit: number }, judged: number): Neighbor[] {
    const { bits } = s().quantize.get(vector) as { bits: Buffer };
    // In memory: one scan gives every distance. Else sqlite-vec, in distance bands (quantized-search.ts).
    const scanned = bitCopy()?.scan(bits);
    const probe = (n: number, lo: number, hi: number) => s().band.all(bits, BigInt(n), lo, hi) as Array<{ id: number; distance: number }>;
    const nearest = (want: number): Scored[] => {
      if (scanned) return scanned(want);
      const { rows } = nearestByBands(probe, want, { start: bands.start(want) ?? Math.floor(dims / 4), maxDistance: dims, firstStep: Math.max(1, Math.round(dims / 48)) });
      if (rows.length >= want) bands.record(want, rows[want - 1]!.distance);
      return rows;
    };
    const exactDistance = new Map<number, number>();
    for (let want = plan.first; ; want = Math.min(plan.limit, want * 2)) {
      const rows = nearest(want);
      // A longer list contains the shorter one (up to ties at its last distance): re-score only what is new.
      const fresh = rows.filter((r) => !exactDistance.has(r.id)).map((r) => r.id);
      for (const n of s().rescore.all(vector, JSON.stringify(fresh)) as Neighbor[]) exactDistance.set(n.id, n.distance);
      const best = [...exactDistance].map(([id, distance]): Neighbor => ({ id, distance }));
      best.sort((a, b) => a.distance - b.distance || a.id - b.id);
      best.length = Math.min(best.length, k);
      const rank = new Map(rows.map((r, i) => [r.id, i]));
      if (want >= plan.limit || !needsMoreCandidates(best.map((n) => rank.get(n.id) ?? rows.length), want, judged)) return best;
    }
  }

  return {
    dimensions: () => dims,
    ensureDimensions(dimensions) {
      if (!Number.isInteger(dimensions) || dimensions <= 0) throw new Error(`invalid vector dimension ${dimensions}`);
      dims = readDimensions(sqlite); // another connection (the CLI beside the app) may have rebuilt it
      if (dimensions === dims) return false;
      stmts = null;
      copy = null;
      sqlite.exec(`DROP TABLE ${FLOATS}`);
      sqlite.exec(floatsDdl(dimensions));
      dims = dimensions;
      rebuildBits(new Float32Array(dimensions), 0);
      return true;
    },
    upsert(id, vector) {
      if (vector.length !== dims) throw new Error(`vector has ${vector.length} dimensions, the index ${dims}`);
      const key = BigInt(id);
      if (copy) written.add(id);
      // vec0 has no upsert (INSERT OR REPLACE still fails on its primary key).
      s().removeFloats.run(key);
      s().removeBits.run(key);
      s().insertFloats.run(key, vector);
      if (s().insertBits.run(key, vector).changes !== 1) throw new Error(`${CENTER} has no row`);
      recenterIfDue();
    },
    remove(ids) {
      for (const id of ids) {
        if (copy) written.add(id);
        s().removeFloats.run(BigInt(id));
        s().removeBits.run(BigInt(id));
      }
    },
    knn(vector, k, { strategy = 'auto', judged = JUDGED } = {}) {
      if (vector.length !== dims || k <= 0) return [];
      const wanted = Math.min(MAX_K, Math.floor(k));
      if (strategy === 'exact') return exact(vector, wanted);
      const plan = planSearch(wanted, count(), { strategy, exactBelow, maxK: MAX_K });
      return plan.mode === 'exact' ? exact(vector, wanted) : quantized(vector, wanted, plan, judged);
    },
    count,
    stored(id) {
      const b = s().stored.get(BigInt(id)) as Buffer | undefined;
      return b ? new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)) : null;
    },
    storedDimensions: () => dimensionsIn(tableSql(sqlite, FLOATS)),
  };
}

function prepare(sqlite: Sqlite) {
  // The query's bits come from the same expression as the stored ones, around the center as it is now.
  const quantizeAroundCenter = `vec_quantize_binary(vec_sub(?, (SELECT vector FROM ${CENTER} WHERE id = 1)))`;
  return {
    insertFloats: sqlite.prepare(`INSERT INTO ${FLOATS} (memory_id, embedding) VALUES (?, ?)`),
    insertBits: sqlite.prepare(`INSERT INTO ${BITS} (memory_id, embedding) SELECT ?, ${quantizeAroundCenter} WHERE EXISTS (SELECT 1 FROM ${CENTER})`),
    removeFloats: sqlite.prepare(`DELETE FROM ${FLOATS} WHERE memory_id = ?`),
    removeBits: sqlite.prepare(`DELETE FROM ${BITS} WHERE memory_id = ?`),
    knn: sqlite.prepare(`SELECT memory_id AS id, distance FROM ${FLOATS} WHERE embedding MATCH ? AND k = ? ORDER BY distance`),
    quantize: sqlite.prepare(`SELECT ${quantizeAroundCenter} AS bits`),
    band: sqlite.prepare(
      `SELECT memory_id AS id, distance FROM ${BITS} WHERE embedding MATCH vec_bit(?) AND k = ? AND distance > ? AND distance <= ? ORDER BY distance`,
    ),
    // CROSS JOIN keeps json_each outside, so each candidate is one vec0 point lookup.
    rescore: sqlite.prepare(
      `SELECT v.memory_id AS id, vec_distance_cosine(v.embedding, ?) AS distance FROM json_each(?) AS j CROSS JOIN ${FLOATS} AS v ON v.memory_id = j.value`,
    ),
    basis: sqlite.prepare(`SELECT basis FROM ${CENTER} WHERE id = 1`),
    // vec0's own count(*) walks every row through the virtual table (about 60 ms at 100k); its rowid shadow table
    // holds one row per vector and counts from the b-tree in microseconds.
    count: sqlite.prepare(`SELECT count(*) AS n FROM ${FLOATS}_rowids`),
    stored: sqlite.prepare(`SELECT embedding FROM ${FLOATS} WHERE memory_id = ?`).pluck(),
  };
}

function bytes(v: Float32Array): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

function tableSql(sqlite: Sqlite, name: string): string | null {
  const row = sqlite.prepare(`SELECT sql FROM sqlite_master WHERE name = ?`).get(name) as { sql: string } | undefined;
  return row?.sql ?? null;
}

function dimensionsIn(sql: string | null): number | null {
  const m = /float\[(\d+)\]/.exec(sql ?? '');
  return m ? Number(m[1]) : null;
}

function readDimensions(sqlite: Sqlite): number {
  const d = dimensionsIn(tableSql(sqlite, FLOATS));
  if (d === null) throw new Error(`${FLOATS} is missing or not a float vec0 table`);
  return d;
}
