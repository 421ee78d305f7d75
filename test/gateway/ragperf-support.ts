import Database from 'better-sqlite3';
import { join } from 'node:path';
import { bufferToVector, cosine } from '../../src/server/gateway/rag/embedder.js';
import { RagRepository } from '../../src/server/gateway/rag/rag.repository.js';
import { ftsQuery, fuseRankings } from '../../src/server/gateway/rag/ranking.js';
import { mockVector } from '../support/upstreams/index.js';
import type { GatewayHarness } from './support/harness.js';

/** The embedding model the RAG tests of vector ranking use (the OpenAI mock answers it). */
export const EMBEDDING_MODEL = 'text-embedding-3-small';

/** A retrieved chunk as compared: its id and its rank in each list (null: not in it). */
export type RankedChunk = readonly [id: number, bm25Rank: number | null, vectorRank: number | null];

/**
 * The vector ranking as it was before vectors were held in memory: every stored vector of the
 * collections read per request, compared by cosine with the query's, sorted, the floor applied.
 */
export function vectorRankingAsBefore(
  sqlite: Database.Database,
  collections: readonly string[],
  model: string,
  queryVector: Float32Array,
  depth: number,
  floor?: number,
): number[] {
  const stored = sqlite
    .prepare(
      `SELECT id, embedding FROM rag_chunks WHERE collection IN (SELECT value FROM json_each(?))
         AND embedding IS NOT NULL AND embedding_model = ?`,
    )
    .all(JSON.stringify(collections), model) as Array<{ id: number; embedding: Buffer }>;
  const scored = stored.map((row) => ({ id: row.id, similarity: cosine(queryVector, bufferToVector(row.embedding)) }));
  return (floor === undefined ? scored : scored.filter((row) => row.similarity >= floor))
    .sort((a, b) => b.similarity - a.similarity)
    .slice(0, depth)
    .map((row) => row.id);
}

/**
 * What retrieval answered before vectors were held in memory, computed from the gateway's database:
 * the vector ranking as it was (the query's vector: the OpenAI mock's 8 floats of the text) fused
 * with BM25.
 */
export function rankedAsBefore(
  h: GatewayHarness,
  collections: readonly string[],
  query: string,
  topK: number,
  floor?: number,
): RankedChunk[] {
  const sqlite = new Database(join(h.servers.dataDir, 'gatehouse.db'), { readonly: true });
  try {
    const depth = Math.max(20, topK * 4);
    const match = ftsQuery(query);
    const bm25 = match === '' ? [] : new RagRepository(sqlite).searchText(collections, match, depth);
    const queryVector = Float32Array.from(mockVector(JSON.stringify(query), 8));
    const vector = vectorRankingAsBefore(sqlite, collections, EMBEDDING_MODEL, queryVector, depth, floor);
    return fuseRankings(bm25, vector)
      .slice(0, topK)
      .map((entry) => [entry.id, entry.bm25Rank, entry.vectorRank] as const);
  } finally {
    sqlite.close();
  }
}

/** What the admin search answers for `query`, as compared. */
export async function searched(
  h: GatewayHarness,
  collections: readonly string[],
  query: string,
  topK: number,
): Promise<RankedChunk[]> {
  const found = await h.admin('POST', '/internal/rag/search', { query, collections, top_k: topK });
  if (found.status !== 200) throw new Error(`search answered ${found.status}: ${JSON.stringify(found.body)}`);
  return (found.body.hits as Array<{ id: number; bm25_rank: number | null; vector_rank: number | null }>).map(
    (hit) => [hit.id, hit.bm25_rank, hit.vector_rank] as const,
  );
}

/** Adds (or replaces) a document through the admin API; its id. */
export async function putDocument(
  h: GatewayHarness,
  collection: string,
  key: string,
  content: string,
): Promise<string> {
  const added = await h.admin('POST', `/internal/rag/collections/${collection}/documents`, { key, content });
  if (added.status !== 201) throw new Error(`ingest answered ${added.status}: ${JSON.stringify(added.body)}`);
  return added.body.id as string;
}
