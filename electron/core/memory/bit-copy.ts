/**
 * A copy in memory of the stored bit vectors (memory_vector_bits, vector-index.ts), for the first pass of vector
 * search: one hamming scan over it gives every vector's distance, where sqlite-vec reads the whole table again for
 * each distance band it is asked (about 4.5 ms a probe at 100k vectors on a shared 2-core VM, and a hard query takes
 * two to four probes). The copy is 48 bytes a vector at 384 dimensions (4.8 MB at 100k).
 *
 * It is read from vec0's own storage (its `_chunks` and `_vector_chunks00` shadow tables: a validity bitmap, the
 * rowids and the packed vectors of each chunk), about 10 ms at 100k, because reading the rows through the virtual
 * table costs about 600 ms there. It is read at the first search that needs it, not at startup. The layout is checked as it is read (blob sizes against the chunk size and the
 * dimension); anything unexpected gives null and vector search keeps to the SQL path (test/integration checks the
 * copy against the virtual table's own rows, so a sqlite-vec upgrade that changes it fails there first).
 *
 * Invariant: the copy equals the committed rows. The owner (vector-index.ts) keeps it so: it drops it when another
 * connection commits (PRAGMA data_version) or the bits are rebuilt, and re-reads the ids this connection wrote
 * (`refresh`) before using it, outside any transaction, so a write that was rolled back is read back as it is.
 */
import type { Sqlite } from '../db/open-database';
import type { Scored } from './quantized-search';

/** Distance given to a slot whose vector was removed: above any real one (at most the number of bits). */
const GONE = 0xffff;

export interface BitCopy {
  /** How many vectors it holds. */
  size(): number;
  /**
   * Scans once for the query's bits; the function then gives the `want` nearest by hamming distance, nearest first
   * (ties by id), fewer if the copy holds fewer. It reads the scan, not the copy: ask it before the next refresh.
   */
  scan(queryBits: Uint8Array): (want: number) => Scored[];
  /** Puts the stored bits of these ids as they are now in the table (a removed id leaves the copy). */
  refresh(ids: Iterable<number>): void;
}

/**
 * Reads the copy of a vec0 `bit[dimensions]` table; null when its storage is not laid out as expected.
 * `table` is the code's own name (never input).
 */
export function readBitCopy(sqlite: Sqlite, table: string, dimensions: number): BitCopy | null {
  if (dimensions <= 0 || dimensions % 8 !== 0) return null;
  const bytes = dimensions / 8;
  // Whole 32-bit words, in groups of three (see `scan`); the padding is zero in every vector and in the query.
  const wordsPer = 3 * Math.ceil(bytes / 12);
  let rows: Array<{ size: number; validity: Buffer; rowids: Buffer; vectors: Buffer }>;
  try {
    rows = sqlite
      .prepare(`SELECT c.size AS size, c.validity AS validity, c.rowids AS rowids, v.vectors AS vectors FROM ${table}_chunks c JOIN ${table}_vector_chunks00 v ON v.rowid = c.chunk_id ORDER BY c.chunk_id`)
      .all() as typeof rows;
  } catch {
    return null;
  }
  let capacity = 0;
  for (const r of rows) {
    const ok = Buffer.isBuffer(r.validity) && Buffer.isBuffer(r.rowids) && Buffer.isBuffer(r.vectors);
    if (!ok || r.validity.length * 8 < r.size || r.rowids.length !== r.size * 8 || r.vectors.length !== r.size * bytes) return null;
    capacity += r.size;
  }
  const copy = new Copy(sqlite, table, bytes, wordsPer, capacity);
  for (const r of rows) {
    const valid = (slot: number) => (r.validity[slot >>> 3]! & (1 << (slot & 7))) !== 0;
    // An int64 rowid, little-endian as sqlite-vec writes it; memory ids are far below 2^53.
    const rowid = (slot: number) => r.rowids.readUInt32LE(slot * 8) + r.rowids.readInt32LE(slot * 8 + 4) * 2 ** 32;
    let full = 0;
    while (full < r.size && valid(full)) full++;
    // The common case, a chunk filled from its start: its vectors are copied at once.
    copy.appendRun(r.vectors, full, rowid);
    for (let slot = full; slot < r.size; slot++) if (valid(slot)) copy.append(rowid(slot), r.vectors, slot * bytes);
  }
  return copy;
}

class Copy implements BitCopy {
  private ids: Float64Array;
  private words: Int32Array;
  /** The same memory as `words`, byte by byte: vectors are copied in as stored (any byte order, as long as one). */
  private wordBytes: Uint8Array;
  private n = 0;
  private live = 0;
  private slotOf: Map<number, number> | null = null;
  private readonly one: ReturnType<Sqlite['prepare']>;

  constructor(
    sqlite: Sqlite,
    table: string,
    private readonly bytes: number,
    private readonly wordsPer: number,
    capacity: number,
  ) {
    this.ids = new Float64Array(Math.max(16, capacity));
    this.words = new Int32Array(Math.max(16, capacity) * wordsPer);
    this.wordBytes = new Uint8Array(this.words.buffer);
    this.one = sqlite.prepare(`SELECT embedding FROM ${table} WHERE memory_id = ?`).pluck();
  }

  size(): number {
    return this.live;
  }

  append(id: number, source: Uint8Array, offset: number): void {
    if (this.n === this.ids.length) this.grow();
    this.ids[this.n] = id;
    this.put(this.n, source, offset);
    this.slotOf?.set(id, this.n);
    this.n++;
    this.live++;
  }

  /** The first `count` vectors of `source`, whose ids `idOf` gives. */
  appendRun(source: Uint8Array, count: number, idOf: (i: number) => number): void {
    if (count === 0) return;
    if (this.wordsPer * 4 !== this.bytes) {
      for (let i = 0; i < count; i++) this.append(idOf(i), source, i * this.bytes);
      return;
    }
    while (this.n + count > this.ids.length) this.grow();
    this.wordBytes.set(source.subarray(0, count * this.bytes), this.n * this.bytes);
    for (let i = 0; i < count; i++) {
      this.ids[this.n] = idOf(i);
      this.slotOf?.set(this.ids[this.n]!, this.n);
      this.n++;
    }
    this.live += count;
  }

  /** The padding bytes past `bytes` are never written: they stay 0. */
  private put(slot: number, source: Uint8Array, offset: number): void {
    this.wordBytes.set(source.subarray(offset, offset + this.bytes), slot * this.wordsPer * 4);
  }

  private grow(): void {
    const ids = new Float64Array(this.ids.length * 2);
    ids.set(this.ids);
    const words = new Int32Array(ids.length * this.wordsPer);
    words.set(this.words);
    this.ids = ids;
    this.words = words;
    this.wordBytes = new Uint8Array(words.buffer);
  }

  refresh(ids: Iterable<number>): void {
    if (!this.slotOf) {
      this.slotOf = new Map();
      for (let s = 0; s < this.n; s++) if (this.ids[s]! >= 0) this.slotOf.set(this.ids[s]!, s);
    }
    for (const id of ids) {
      const stored = this.one.get(BigInt(id)) as Buffer | undefined;
      const slot = this.slotOf.get(id);
      if (stored === undefined || stored.length !== this.bytes) {
        if (slot !== undefined) {
          this.ids[slot] = -1;
          this.slotOf.delete(id);
          this.live--;
        }
      } else if (slot !== undefined) {
        this.put(slot, stored, 0);
      } else {
        this.append(id, stored, 0);
      }
    }
  }

  scan(queryBits: Uint8Array): (want: number) => Scored[] {
    const q = new Int32Array(this.wordsPer);
    new Uint8Array(q.buffer).set(queryBits.subarray(0, this.bytes));
    const { ids, words, wordsPer, n } = this;
    const distance = new Uint16Array(n);
    const histogram = new Uint32Array(this.bytes * 8 + 1);
    for (let s = 0, o = 0; s < n; s++, o += wordsPer) {
      if (ids[s]! < 0) {
        distance[s] = GONE;
        continue;
      }
      // Popcount three words at a time (SWAR): after two halving steps each 4-bit field holds at most 4 per word,
      // so three words sum to at most 12 and fit before the fields are added up. 3 to 5 ms at 100k vectors.
      let d = 0;
      for (let w = 0; w < wordsPer; w += 3) {
        let a = words[o + w]! ^ q[w]!;
        let b = words[o + w + 1]! ^ q[w + 1]!;
        let c = words[o + w + 2]! ^ q[w + 2]!;
        a = a - ((a >>> 1) & 0x55555555);
        b = b - ((b >>> 1) & 0x55555555);
        c = c - ((c >>> 1) & 0x55555555);
        a = (a & 0x33333333) + ((a >>> 2) & 0x33333333);
        b = (b & 0x33333333) + ((b >>> 2) & 0x33333333);
        c = (c & 0x33333333) + ((c >>> 2) & 0x33333333);
        let t = a + b + c;
        t = (t & 0x0f0f0f0f) + ((t >>> 4) & 0x0f0f0f0f);
        d += Math.imul(t, 0x01010101) >>> 24;
      }
      distance[s] = d;
      histogram[d]!++;
    }
    const found = ids.slice(0, n);
    return (want) => {
      if (want <= 0) return [];
      // The smallest distance that, with everything nearer, holds `want` vectors; all of those are candidates.
      let bound = 0;
      for (let seen = 0; bound < histogram.length; bound++) {
        seen += histogram[bound]!;
        if (seen >= want) break;
      }
      const out: Scored[] = [];
      for (let s = 0; s < n; s++) if (distance[s]! <= bound) out.push({ id: found[s]!, distance: distance[s]! });
      out.sort((a, b) => a.distance - b.distance || a.id - b.id);
      if (out.length > want) out.length = want;
      return out;
    };
  }
}
