import { LRUCache } from 'lru-cache';
import { eventLoopTurns } from './event-loop-turns.js';
import type { RagRepository } from './rag.repository.js';
import { TopSimilar } from './top-similar.js';

/** Bytes the in-memory vectors of all collections may take together; the least recently searched go first. */
export const VECTOR_INDEX_MAX_BYTES = 512 * 1024 * 1024;
/** Multiply-adds of scoring per turn of the event loop: a millisecond or two. */
export const SCORE_SLICE_FLOATS = 1 << 20;
/** Vectors read from SQLite per step of a build, between turns of the event loop. */
const BUILD_PAGE = 256;

/** A collection's vectors of one length: the floats one after another, each row's chunk id and squared norm. */
interface VectorBlock {
  readonly dimensions: number;
  readonly ids: Float64Array;
  readonly squaredNorms: Float64Array;
  readonly floats: Float32Array;
  /** Rows filled (fewer than allocated while it is built). */
  count: number;
}

/** A collection's vectors of one model, as of one version of its chunks. */
interface CollectionVectors {
  readonly collection: string;
  readonly version: number;
  readonly blocks: readonly VectorBlock[];
  readonly bytes: number;
}

function squaredNorm(floats: Float32Array, from: number, length: number): number {
  let sum = 0;
  for (let index = from; index < from + length; index += 1) sum += floats[index]! * floats[index]!;
  return sum;
}

/**
 * Vector similarity search over the collections' stored vectors, held in memory per collection and
 * model: one contiguous Float32Array per vector length, read from SQLite on first use (in pages) and
 * again after any write to the collection's chunks or vectors (the repository's version of them moved
 * on). A query then costs one dot product per chunk over contiguous memory, scored in slices that give
 * the event loop a turn between them, and no SQLite read.
 *
 * Scoring runs on the event loop rather than in a worker: the vectors stay in one place with no
 * copying, transfer or shared-memory bookkeeping, and no worker can fail or be left behind; slices of
 * SCORE_SLICE_FLOATS, one per turn of the loop across all retrievals, keep other requests waiting a
 * few milliseconds at most.
 */
export class VectorIndex {
  private readonly cache: LRUCache<string, CollectionVectors>;
  // Builds under way, by collection, model and version: parallel requests share one.
  private readonly building = new Map<string, Promise<CollectionVectors>>();

  constructor(
    private readonly repository: RagRepository,
    maxBytes: number = VECTOR_INDEX_MAX_BYTES,
  ) {
    // One larger than the bound is used for the retrieval that built it and not kept.
    this.cache = new LRUCache({ maxSize: maxBytes, sizeCalculation: (vectors) => Math.max(1, vectors.bytes) });
  }

  /**
   * Up to `depth` chunk ids of the collections by cosine similarity to `query`, best first, those below
   * `floor` left out (without one every chunk ranks, a vector of another length at similarity 0). Equal
   * similarities keep the order of collection name, then chunk id.
   */
  async rank(
    collections: readonly string[],
    model: string,
    query: Float32Array,
    depth: number,
    floor: number | undefined,
  ): Promise<number[]> {
    this.dropStale();
    const top = new TopSimilar(depth);
    const queryNorm = squaredNorm(query, 0, query.length);
    for (const [order, collection] of [...collections].sort().entries()) {
      const vectors = await this.vectorsOf(collection, model);
      for (const block of vectors.blocks) {
        const rowsPerSlice = Math.max(1, Math.floor(SCORE_SLICE_FLOATS / Math.max(1, block.dimensions)));
        for (let from = 0; from < block.count; from += rowsPerSlice) {
          await eventLoopTurns.next();
          scoreRows(block, from, Math.min(block.count, from + rowsPerSlice), query, queryNorm, floor, top, order);
        }
      }
    }
    return top.best();
  }

  /** Frees the vectors of collections written to (or deleted) since they were read. */
  private dropStale(): void {
    const stale: string[] = [];
    for (const [key, vectors] of this.cache.entries())
      if (vectors.version !== this.repository.chunksVersion(vectors.collection)) stale.push(key);
    for (const key of stale) this.cache.delete(key);
  }

  private async vectorsOf(collection: string, model: string): Promise<CollectionVectors> {
    const version = this.repository.chunksVersion(collection);
    const key = JSON.stringify([collection, model]);
    const cached = this.cache.get(key);
    if (cached?.version === version) return cached;
    const buildKey = JSON.stringify([collection, model, version]);
    let build = this.building.get(buildKey);
    if (build === undefined) {
      build = this.build(collection, model, version).finally(() => this.building.delete(buildKey));
      this.building.set(buildKey, build);
    }
    const built = await build;
    // Written to during the build: this retrieval uses what was read, the next one reads again.
    if (built.version === this.repository.chunksVersion(collection)) this.cache.set(key, built);
    return built;
  }

  private async build(collection: string, model: string, version: number): Promise<CollectionVectors> {
    // The chunk count bounds the vectors to come (and is cheap: counting those with a vector of the
    // model would read every vector); blocks are cut to size at the end.
    let room = this.repository.chunkCount(collection);
    const blocks = new Map<number, VectorBlock>();
    let afterId = 0;
    for (;;) {
      const page = this.repository.vectorPage(collection, model, afterId, BUILD_PAGE);
      for (const { id, embedding } of page) {
        // Not float32s: never written by the gateway; left out rather than misread.
        if (embedding.byteLength % 4 !== 0) continue;
        let block = blocks.get(embedding.byteLength);
        if (block === undefined && room > 0) {
          block = emptyBlock(embedding.byteLength / 4, room);
          blocks.set(embedding.byteLength, block);
        }
        // Added since the count was read: the version moved on, so the next retrieval reads again.
        if (block === undefined || block.count === block.ids.length) continue;
        const at = block.count * block.dimensions;
        // Copied byte for byte: SQLite's buffer may not be 4-byte aligned.
        new Uint8Array(block.floats.buffer, at * 4, embedding.byteLength).set(embedding);
        block.ids[block.count] = id;
        block.squaredNorms[block.count] = squaredNorm(block.floats, at, block.dimensions);
        block.count += 1;
        room -= 1;
      }
      if (page.length < BUILD_PAGE) break;
      afterId = page[page.length - 1]!.id;
      await eventLoopTurns.next();
    }
    const all = [...blocks.values()].map(cutToSize);
    const bytes = all.reduce(
      (sum, block) => sum + block.floats.byteLength + block.ids.byteLength + block.squaredNorms.byteLength,
      0,
    );
    return { collection, version, blocks: all, bytes };
  }
}

function emptyBlock(dimensions: number, rows: number): VectorBlock {
  return {
    dimensions,
    ids: new Float64Array(rows),
    squaredNorms: new Float64Array(rows),
    floats: new Float32Array(rows * dimensions),
    count: 0,
  };
}

/** The block with no room past its rows (chunks without a vector left room unused). */
function cutToSize(block: VectorBlock): VectorBlock {
  if (block.count === block.ids.length) return block;
  return {
    dimensions: block.dimensions,
    ids: block.ids.slice(0, block.count),
    squaredNorms: block.squaredNorms.slice(0, block.count),
    floats: block.floats.slice(0, block.count * block.dimensions),
    count: block.count,
  };
}

/**
 * Offers rows `from` to `to` of a block to `top`. The similarity is computed exactly as cosine over
 * the stored floats always was (float64 sums in the same order), so rankings and the floor's cut are
 * the same to the last bit: only the chunk's own sum of squares is computed ahead.
 */
function scoreRows(
  block: VectorBlock,
  from: number,
  to: number,
  query: Float32Array,
  queryNorm: number,
  floor: number | undefined,
  top: TopSimilar,
  order: number,
): void {
  const { dimensions, floats, ids, squaredNorms } = block;
  const comparable = dimensions === query.length;
  for (let row = from; row < to; row += 1) {
    let similarity = 0;
    const norm = squaredNorms[row]!;
    if (comparable && queryNorm !== 0 && norm !== 0) {
      let dot = 0;
      const at = row * dimensions;
      for (let index = 0; index < dimensions; index += 1) dot += query[index]! * floats[at + index]!;
      similarity = dot / Math.sqrt(queryNorm * norm);
    }
    if (floor === undefined || similarity >= floor) top.offer(ids[row]!, similarity, order);
  }
}
