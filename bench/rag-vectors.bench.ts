/**
 * Cost of RAG vector ranking on a large collection (`node --import tsx bench/rag-vectors.bench.ts`):
 * 32,680 chunks of 1536 floats, the query's vector at hand (no upstream), ranked by the retriever.
 * Prints the first retrieval (vectors read into memory), one retrieval after that, ten in parallel,
 * and the longest the event loop waited meanwhile; then the same for reading and comparing every
 * stored vector per request, as retrieval did before, for proportion.
 */
import { Registry } from 'prom-client';
import { openDatabase } from '../src/server/db/connection.js';
import type { RagEmbedder } from '../src/server/gateway/rag/embedder.js';
import { RagMetrics } from '../src/server/gateway/rag/rag-metrics.js';
import { RagRepository } from '../src/server/gateway/rag/rag.repository.js';
import { RagRetriever } from '../src/server/gateway/rag/retriever.js';
import type { VectorBackfill } from '../src/server/gateway/rag/vector-backfill.js';

const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 32_680);
const DIMENSIONS = 1536;
const MODEL = 'bench-embed';
const PER_DOCUMENT = 1000;

function unitVector(): Float32Array {
  const vector = Float32Array.from({ length: DIMENSIONS }, () => Math.random() * 2 - 1);
  const norm = Math.hypot(...vector);
  return vector.map((value) => value / norm);
}

const database = openDatabase(':memory:');
const repository = new RagRepository(database.sqlite);
repository.insertCollection({
  name: 'big',
  description: '',
  access: { keys: [], users: [], teams: [] },
  sourceNamespace: null,
  sourceBranch: null,
  createdAt: 1,
  updatedAt: 1,
});
for (let at = 0; at < CHUNKS; at += PER_DOCUMENT) {
  const chunks = Array.from({ length: Math.min(PER_DOCUMENT, CHUNKS - at) }, (_, ordinal) => {
    const vector = unitVector();
    return {
      ordinal,
      heading: null,
      text: `passage ${at + ordinal}`,
      embedding: Buffer.from(vector.buffer),
      embeddingModel: MODEL,
    };
  });
  const key = `doc-${at}`;
  repository.replaceDocument(
    { collection: 'big', key, contentType: 'text', contentHash: key, chars: 1, revision: null, newId: key, now: 1 },
    chunks,
  );
}

const query = unitVector();
const embedder = { model: MODEL, embed: () => Promise.resolve([query]) } as unknown as RagEmbedder;
const backfill = { answered: () => undefined } as unknown as VectorBackfill;
const retriever = new RagRetriever(repository, embedder, backfill, new RagMetrics(new Registry()), () => undefined);
const retrieve = () => retriever.retrieve(null, ['big'], '?', 5, undefined, 'search');

/** Runs `work`, answering how long it took and the longest the event loop went without a turn, in ms. */
async function measured(work: () => Promise<unknown>): Promise<{ ms: number; stallMs: number }> {
  let last = performance.now();
  let stall = 0;
  const tick = setInterval(() => {
    const now = performance.now();
    stall = Math.max(stall, now - last);
    last = now;
  }, 1);
  const started = performance.now();
  await work();
  const ms = performance.now() - started;
  // One more tick sees the gap the work's last stretch made.
  await new Promise((resolve) => setTimeout(resolve, 5));
  clearInterval(tick);
  return { ms: Math.round(ms), stallMs: Math.round(stall) };
}

// The ranking as it was: every stored vector read from SQLite and compared per request.
async function retrieveAsBefore(): Promise<number[]> {
  await Promise.resolve();
  const stored = database.sqlite
    .prepare(`SELECT id, embedding FROM rag_chunks WHERE collection = 'big' AND embedding_model = ?`)
    .all(MODEL) as Array<{ id: number; embedding: Buffer }>;
  return stored
    .map((row) => {
      const copy = new Float32Array(new Uint8Array(row.embedding).buffer);
      let dot = 0;
      let na = 0;
      let nb = 0;
      for (let index = 0; index < DIMENSIONS; index += 1) {
        dot += query[index]! * copy[index]!;
        na += query[index]! * query[index]!;
        nb += copy[index]! * copy[index]!;
      }
      return { id: row.id, similarity: dot / Math.sqrt(na * nb) };
    })
    .sort((a, b) => b.similarity - a.similarity)
    .slice(0, 20)
    .map((row) => row.id);
}

const rss = () => Math.round(process.memoryUsage().rss / 2 ** 20);
console.log(`${CHUNKS} chunks of ${DIMENSIONS} floats; RSS ${rss()} MB`);
console.log('in memory, first retrieval', await measured(retrieve), `RSS ${rss()} MB`);
console.log('in memory, next retrieval ', await measured(retrieve));
console.log(
  'in memory, 10 in parallel ',
  await measured(() => Promise.all(Array.from({ length: 10 }, retrieve))),
  `RSS ${rss()} MB`,
);
console.log('as before, one retrieval  ', await measured(retrieveAsBefore));
console.log(
  'as before, 10 in parallel ',
  await measured(() => Promise.all(Array.from({ length: 10 }, retrieveAsBefore))),
  `RSS ${rss()} MB`,
);
database.close();
