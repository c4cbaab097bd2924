/**
 * A copy in memory of the stored bit vectors (memory_vector_bits, vector-index.ts), for the first pass of vector
 * search: one hamming scan over it (WebAssembly, under 1 ms at 100k vectors) gives every vector's distance, where
 * sqlite-vec reads the whole table again for each distance band it is asked (about 4.5 ms a probe at 100k vectors on
 * a shared 2-core VM, and a hard query takes two to four probes). The copy is 48 bytes a vector at 384 dimensions
 * (4.8 MB at 100k).
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

/** The parts of WebAssembly used here (the core's tsconfig has Node's types, which do not declare them). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: Record<string, unknown> };
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/**
 * The hamming scan, in WebAssembly for its 64-bit popcount (i64.popcnt; JavaScript has none, and a popcount in
 * 32-bit arithmetic costs 3 to 5 ms at 100k vectors where this takes under 1 ms). Hand-assembled, one function:
 * scan(query, base, n, words, out) stores at out[s] (u16) the popcount of (vector s XOR query) over `words` 64-bit
 * words, vector s starting at base + s * words * 8. The module exports its memory ("mem"), which the copy grows.
 */
const SCAN_MODULE = (() => {
  const leb = (n: number): number[] => {
    const out: number[] = [];
    do {
      let b = n & 0x7f;
      n >>>= 7;
      if (n) b |= 0x80;
      out.push(b);
    } while (n);
    return out;
  };
  const section = (id: number, bytes: number[]) => [id, ...leb(bytes.length), ...bytes];
  const name = (text: string) => [text.length, ...[...text].map((c) => c.charCodeAt(0))];
  // params: 0 query, 1 base, 2 n, 3 words, 4 out; locals: 5 s, 6 w, 7 p (i32), 8 d (i64)
  const body = [
    0x02, 0x03, 0x7f, 0x01, 0x7e, // locals
    0x20, 0x01, 0x21, 0x07, // p = base
    0x02, 0x40, 0x03, 0x40, // block, loop (vectors)
    0x20, 0x05, 0x20, 0x02, 0x4f, 0x0d, 0x01, // s >= n: done
    0x42, 0x00, 0x21, 0x08, 0x41, 0x00, 0x21, 0x06, // d = 0, w = 0
    0x02, 0x40, 0x03, 0x40, // block, loop (words)
    0x20, 0x06, 0x20, 0x03, 0x4f, 0x0d, 0x01, // w >= words: next vector
    0x20, 0x08, // d +
    0x20, 0x07, 0x29, 0x03, 0x00, // load64(p)
    0x20, 0x00, 0x20, 0x06, 0x41, 0x03, 0x74, 0x6a, 0x29, 0x03, 0x00, // load64(query + w * 8)
    0x85, 0x7b, 0x7c, 0x21, 0x08, // xor, popcnt, add, d =
    0x20, 0x07, 0x41, 0x08, 0x6a, 0x21, 0x07, // p += 8
    0x20, 0x06, 0x41, 0x01, 0x6a, 0x21, 0x06, // w += 1
    0x0c, 0x00, 0x0b, 0x0b, // continue words
    0x20, 0x04, 0x20, 0x05, 0x41, 0x01, 0x74, 0x6a, 0x20, 0x08, 0xa7, 0x3b, 0x01, 0x00, // store16(out + s * 2, d)
    0x20, 0x05, 0x41, 0x01, 0x6a, 0x21, 0x05, // s += 1
    0x0c, 0x00, 0x0b, 0x0b, 0x0b, // continue vectors; end
  ];
  return new wasm.Module(
    new Uint8Array([
      0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
      ...section(1, [0x01, 0x60, 0x05, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x00]),
      ...section(3, [0x01, 0x00]),
      ...section(5, [0x01, 0x00, 0x01]),
      ...section(7, [0x02, ...name('mem'), 0x02, 0x00, ...name('scan'), 0x00, 0x00]),
      ...section(10, [0x01, ...leb(body.length), ...body]),
    ]),
  );
})();

const PAGE = 65_536;

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
  // Whole 64-bit words (see SCAN_MODULE); the padding is zero in every vector and in the query.
  const stride = 8 * Math.ceil(bytes / 8);
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
  const copy = new Copy(sqlite, table, bytes, stride, capacity);
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

/**
 * Memory layout (the module's): the query at 0, then the vectors from `stride` on, one every `stride` bytes, then
 * the distances the scan writes (u16 each) after `capacity` vectors.
 */
class Copy implements BitCopy {
  private ids: Float64Array;
  private capacity: number;
  private readonly memory: WasmMemory;
  private readonly hamming: (query: number, base: number, n: number, words: number, out: number) => void;
  private n = 0;
  private live = 0;
  private slotOf: Map<number, number> | null = null;
  private readonly one: ReturnType<Sqlite['prepare']>;

  constructor(
    sqlite: Sqlite,
    table: string,
    private readonly bytes: number,
    private readonly stride: number,
    capacity: number,
  ) {
    this.capacity = Math.max(16, capacity);
    this.ids = new Float64Array(this.capacity);
    const instance = new wasm.Instance(SCAN_MODULE);
    this.memory = instance.exports.mem as WasmMemory;
    this.hamming = instance.exports.scan as Copy['hamming'];
    this.reserve();
    this.one = sqlite.prepare(`SELECT embedding FROM ${table} WHERE memory_id = ?`).pluck();
  }

  /** Grows the module's memory to hold `capacity` vectors and their distances. */
  private reserve(): void {
    const need = this.stride + this.capacity * (this.stride + 2);
    if (need > this.memory.buffer.byteLength) this.memory.grow(Math.ceil((need - this.memory.buffer.byteLength) / PAGE));
  }

  private bytesView(): Uint8Array {
    return new Uint8Array(this.memory.buffer);
  }

  size(): number {
    return this.live;
  }

  append(id: number, source: Uint8Array, offset: number): void {
    if (this.n === this.capacity) this.grow(this.n + 1);
    this.ids[this.n] = id;
    this.put(this.n, source, offset);
    this.slotOf?.set(id, this.n);
    this.n++;
    this.live++;
  }

  /** The first `count` vectors of `source`, whose ids `idOf` gives. */
  appendRun(source: Uint8Array, count: number, idOf: (i: number) => number): void {
    if (count === 0) return;
    if (this.stride !== this.bytes) {
      for (let i = 0; i < count; i++) this.append(idOf(i), source, i * this.bytes);
      return;
    }
    if (this.n + count > this.capacity) this.grow(this.n + count);
    this.bytesView().set(source.subarray(0, count * this.bytes), this.stride + this.n * this.stride);
    for (let i = 0; i < count; i++) {
      this.ids[this.n] = idOf(i);
      this.slotOf?.set(this.ids[this.n]!, this.n);
      this.n++;
    }
    this.live += count;
  }

  /** The padding bytes past `bytes` are never written: they stay 0. */
  private put(slot: number, source: Uint8Array, offset: number): void {
    this.bytesView().set(source.subarray(offset, offset + this.bytes), this.stride + slot * this.stride);
  }

  private grow(atLeast: number): void {
    let capacity = this.capacity;
    while (capacity < atLeast) capacity *= 2;
    const ids = new Float64Array(capacity);
    ids.set(this.ids);
    this.ids = ids;
    this.capacity = capacity;
    // The vectors stay where they are; the distances move past the new capacity.
    this.reserve();
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
    const { ids, n, stride } = this;
    this.bytesView().set(queryBits.subarray(0, this.bytes), 0);
    const out = stride + this.capacity * stride;
    this.hamming(0, stride, n, stride / 8, out);
    const distance = new Uint16Array(this.memory.buffer, out, n).slice();
    const histogram = new Uint32Array(this.bytes * 8 + 1);
    for (let s = 0; s < n; s++) {
      if (ids[s]! < 0) distance[s] = GONE;
      else histogram[distance[s]!]!++;
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
