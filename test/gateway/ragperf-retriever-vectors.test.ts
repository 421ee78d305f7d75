import { Registry } from 'prom-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/connection.js';
import type { RagEmbedder } from '../../src/server/gateway/rag/embedder.js';
import { RagMetrics } from '../../src/server/gateway/rag/rag-metrics.js';
import { RagRepository, type NewChunk } from '../../src/server/gateway/rag/rag.repository.js';
import { insertBareCollection } from './support/rag-collection-row.js';
import { RagRetriever } from '../../src/server/gateway/rag/retriever.js';
import type { VectorBackfill } from '../../src/server/gateway/rag/vector-backfill.js';
import { vectorRankingAsBefore } from './ragperf-support.js';

/**
 * The retriever reads stored vectors only once the query's vector is in hand (a failing or slow model
 * holds no memory for the requests waiting on it), and ranks a collection larger than one scoring
 * slice exactly as reading and comparing every vector per request did: equal vectors, zero vectors
 * and vectors of another length included.
 */
const MODEL = 'test-embed';
const DIMENSIONS = 1536;

/** A seeded pseudo-random source (mulberry32), so the fixture is the same on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function vector(next: () => number, dimensions = DIMENSIONS): Float32Array {
  return Float32Array.from({ length: dimensions }, () => next() * 2 - 1);
}

function chunk(ordinal: number, embedding: Float32Array, text = `passage ${ordinal}`): NewChunk {
  return {
    ordinal,
    heading: null,
    text,
    embedding: Buffer.from(embedding.buffer, embedding.byteOffset, embedding.byteLength),
    embeddingModel: MODEL,
  };
}

/** The repository with every method call's name recorded in `calls`. */
function recorded(repository: RagRepository, calls: string[]): RagRepository {
  return new Proxy(repository, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(property));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

const readsVectors = (name: string): boolean => name.startsWith('vector');

describe('RAG retriever and stored vectors', () => {
  let database: DatabaseHandle;
  let repository: RagRepository;

  beforeEach(() => {
    database = openDatabase(':memory:');
    repository = new RagRepository(database.sqlite);
  });
  afterEach(() => database.close());

  function addDocument(collection: string, key: string, chunks: readonly NewChunk[]): void {
    repository.replaceDocument(
      { collection, key, contentType: 'text', contentHash: key, chars: 1, revision: null, newId: key, now: 1 },
      chunks,
    );
  }

  function addCollection(name: string): void {
    insertBareCollection(repository, name);
  }

  function retriever(embed: () => Promise<Float32Array[]>, calls: string[], minSimilarity?: number): RagRetriever {
    const embedder = { model: MODEL, embed } as unknown as RagEmbedder;
    const backfill = { answered: () => undefined } as unknown as VectorBackfill;
    const metrics = new RagMetrics(new Registry());
    return new RagRetriever(recorded(repository, calls), embedder, backfill, metrics, () => undefined, minSimilarity);
  }

  it('reads no stored vector when the query cannot be embedded, and ranks by BM25 alone', async () => {
    const next = random(1);
    addCollection('handbook');
    addDocument('handbook', 'parking.txt', [chunk(0, vector(next), 'Visitors park behind building seven.')]);
    addDocument('handbook', 'laptops.txt', [chunk(0, vector(next), 'Laptops are replaced every three years.')]);
    const calls: string[] = [];
    const failing = retriever(() => {
      calls.push('embed');
      return Promise.reject(new Error('the embedding upstream is down'));
    }, calls);
    const found = await failing.retrieve(null, ['handbook'], 'where do visitors park?', 5, undefined, 'search');
    expect(calls).toContain('embed');
    expect(calls.filter(readsVectors)).toEqual([]);
    expect(found.hits.map((hit) => [hit.document_key, hit.bm25_rank, hit.vector_rank])).toEqual([
      ['parking.txt', 1, null],
    ]);
  });

  it('reads stored vectors only after the query is embedded', async () => {
    const next = random(2);
    addCollection('handbook');
    addDocument('handbook', 'parking.txt', [chunk(0, vector(next))]);
    const calls: string[] = [];
    const query = vector(next);
    const answering = retriever(() => {
      calls.push('embed');
      return Promise.resolve([query]);
    }, calls);
    const found = await answering.retrieve(null, ['handbook'], '?', 5, undefined, 'search');
    expect(found.hits.map((hit) => hit.vector_rank)).toEqual([1]);
    const embedded = calls.indexOf('embed');
    expect(embedded).toBeGreaterThanOrEqual(0);
    expect(calls.findIndex(readsVectors)).toBeGreaterThan(embedded);
  });

  it('ranks collections larger than a scoring slice as comparing every stored vector did', async () => {
    const next = random(3);
    const shared = vector(next);
    for (const [index, name] of ['b-manuals', 'a-handbook', 'c-faq'].entries()) {
      addCollection(name);
      const chunks = Array.from({ length: 3000 }, (_, ordinal) => chunk(ordinal, vector(next)));
      // Equal vectors within and across collections, a zero vector, and one of another length.
      chunks[10 + index] = chunk(10 + index, shared);
      chunks[20 + index] = chunk(20 + index, shared);
      chunks[30] = chunk(30, new Float32Array(DIMENSIONS));
      chunks[40] = chunk(40, vector(next, 8));
      addDocument(name, `${name}.txt`, chunks);
    }
    const names = ['c-faq', 'a-handbook', 'b-manuals'];
    const queries = [shared, vector(next), new Float32Array(DIMENSIONS)];
    for (const floor of [undefined, 0.02]) {
      for (const query of queries) {
        const ranking = retriever(() => Promise.resolve([query]), [], floor);
        const expected = vectorRankingAsBefore(database.sqlite, names, MODEL, query, 1600, floor).slice(0, 400);
        // Twice: the first reads the vectors into memory, the second uses them as they are.
        for (let round = 0; round < 2; round += 1) {
          // No searchable word: the fused order is the vector ranking's.
          const found = await ranking.retrieve(null, names, '?', 400, undefined, 'search');
          expect(found.hits.map((hit) => hit.id)).toEqual(expected);
        }
      }
    }
  });
});
