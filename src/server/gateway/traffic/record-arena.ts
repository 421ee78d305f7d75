/** Bytes of a page: a few hundred typical records each. */
const PAGE_BYTES = 1024 * 1024;
/** A UTF-16 code unit never takes more than 3 bytes of UTF-8. */
const MAX_BYTES_PER_UNIT = 3;
const LENGTH_BYTES = 4;

interface Page {
  readonly bytes: Buffer;
  /** Next free byte. */
  used: number;
  /** Records of this page still held by a slot. */
  live: number;
}

/** A record as stored: its sequence number and its texts, in the order they were given. */
export interface ArenaRecord {
  readonly seq: number;
  readonly texts: string[];
}

/**
 * The newest `capacity` records, each a list of texts, kept as UTF-8 in large off-heap pages.
 *
 * A busy gateway finishes thousands of requests a second and the traffic view keeps the last
 * thousand with their bodies. Held as strings and objects, every record lives long enough to be
 * promoted to V8's old generation and dies there, which made the collector a tenth of the gateway's
 * CPU. Here a record is copied into a page and its strings die young; only the pages (a handful of
 * objects) are on the heap. A page is dropped (or kept as the one spare) when its last record is
 * overwritten.
 */
export class RecordArena {
  private readonly seqs: Float64Array;
  private readonly pageOf: (Page | undefined)[];
  private readonly offsets: Int32Array;
  private next = 0;
  private count = 0;
  private current: Page | undefined;
  private spare: Page | undefined;

  constructor(readonly capacity: number) {
    this.seqs = new Float64Array(capacity);
    this.pageOf = new Array<Page | undefined>(capacity).fill(undefined);
    this.offsets = new Int32Array(capacity);
  }

  /** Stores a record, dropping the oldest when full. */
  push(seq: number, texts: readonly string[]): void {
    let worst = LENGTH_BYTES;
    for (const text of texts) worst += LENGTH_BYTES + text.length * MAX_BYTES_PER_UNIT;
    const page = this.pageFor(worst, texts);
    const start = page.used;
    let at = start;
    page.bytes.writeUInt32LE(texts.length, at);
    at += LENGTH_BYTES;
    for (const text of texts) {
      const written = page.bytes.write(text, at + LENGTH_BYTES, 'utf8');
      page.bytes.writeUInt32LE(written, at);
      at += LENGTH_BYTES + written;
    }
    page.used = at;
    page.live += 1;

    this.release(this.pageOf[this.next]);
    this.seqs[this.next] = seq;
    this.pageOf[this.next] = page;
    this.offsets[this.next] = start;
    this.next = (this.next + 1) % this.capacity;
    if (this.count < this.capacity) this.count += 1;
  }

  /** Records newest first, stopping at `limit` or at the first whose seq is not above `after`. */
  /**
   * Of the records after `after`, the `limit` oldest, newest first, and whether newer ones are left:
   * a poller that moves its cursor to the page's highest seq then misses none.
   */
  nextAfter(limit: number, after: number): { readonly records: ArenaRecord[]; readonly more: boolean } {
    let newer = 0;
    while (newer < this.count && this.seqs[(this.next - 1 - newer + this.capacity) % this.capacity]! > after)
      newer += 1;
    const skip = Math.max(0, newer - limit);
    const records: ArenaRecord[] = [];
    for (let i = skip; i < newer; i += 1) {
      const slot = (this.next - 1 - i + this.capacity) % this.capacity;
      records.push({ seq: this.seqs[slot]!, texts: read(this.pageOf[slot]!.bytes, this.offsets[slot]!) });
    }
    return { records, more: skip > 0 };
  }

  newest(limit: number, after = 0): ArenaRecord[] {
    const out: ArenaRecord[] = [];
    for (let i = 0; i < this.count && out.length < limit; i += 1) {
      const slot = (this.next - 1 - i + this.capacity) % this.capacity;
      const seq = this.seqs[slot]!;
      if (seq <= after) break;
      out.push({ seq, texts: read(this.pageOf[slot]!.bytes, this.offsets[slot]!) });
    }
    return out;
  }

  /** The held record numbered `seq`, if the buffer still holds it. */
  find(seq: number): ArenaRecord | undefined {
    // Seqs grow from the oldest slot to the newest: a binary search over the ring, oldest first.
    let low = 0;
    let high = this.count - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const slot = (this.next - this.count + middle + this.capacity) % this.capacity;
      const held = this.seqs[slot]!;
      if (held === seq) return { seq, texts: read(this.pageOf[slot]!.bytes, this.offsets[slot]!) };
      if (held < seq) low = middle + 1;
      else high = middle - 1;
    }
    return undefined;
  }

  /** Number of records held. */
  get size(): number {
    return this.count;
  }

  /** Bytes of the pages in use (the spare one included). */
  get bytes(): number {
    const pages = new Set<Page>();
    for (const page of this.pageOf) if (page) pages.add(page);
    if (this.current) pages.add(this.current);
    if (this.spare) pages.add(this.spare);
    let total = 0;
    for (const page of pages) total += page.bytes.length;
    return total;
  }

  /** A page with room for `worst` bytes: the current one, or a fresh one (its own page when bigger than a page). */
  private pageFor(worst: number, texts: readonly string[]): Page {
    const current = this.current;
    if (current && current.bytes.length - current.used >= worst) return current;
    // The worst case assumes 3 bytes per character; measure before giving up on the current page.
    const exact = texts.reduce((sum, text) => sum + LENGTH_BYTES + Buffer.byteLength(text, 'utf8'), LENGTH_BYTES);
    if (current && current.bytes.length - current.used >= exact) return current;
    if (exact > PAGE_BYTES) {
      // An outsized record gets a page of its own, left as it is when the record goes.
      return { bytes: Buffer.allocUnsafeSlow(exact), used: 0, live: 0 };
    }
    if (current) this.retire(current);
    this.current = this.takeSpare() ?? { bytes: Buffer.allocUnsafeSlow(PAGE_BYTES), used: 0, live: 0 };
    return this.current;
  }

  private takeSpare(): Page | undefined {
    const spare = this.spare;
    this.spare = undefined;
    if (spare) spare.used = 0;
    return spare;
  }

  /** A page no longer written to: kept as the spare once it holds no record. */
  private retire(page: Page): void {
    if (page.live === 0 && page.bytes.length === PAGE_BYTES) this.spare = page;
  }

  private release(page: Page | undefined): void {
    if (page === undefined) return;
    page.live -= 1;
    if (page.live === 0 && page !== this.current) this.retire(page);
  }
}

function read(bytes: Buffer, offset: number): string[] {
  const count = bytes.readUInt32LE(offset);
  const texts: string[] = [];
  let at = offset + LENGTH_BYTES;
  for (let i = 0; i < count; i += 1) {
    const length = bytes.readUInt32LE(at);
    texts.push(bytes.toString('utf8', at + LENGTH_BYTES, at + LENGTH_BYTES + length));
    at += LENGTH_BYTES + length;
  }
  return texts;
}
