import { Counter, Histogram, type Registry } from 'prom-client';

/**
 * RAG metrics: retrievals and chunks returned per collection, and retrieval latency. Collection
 * names are admin-made (bounded), never client input, so they are safe label values.
 */
export class RagMetrics {
  readonly retrievals: Counter<'collection'>;
  readonly chunks: Counter<'collection'>;
  readonly latency: Histogram;

  constructor(registry: Registry) {
    const registers = [registry];
    this.retrievals = new Counter({
      name: 'gateway_rag_retrievals_total',
      help: 'Retrievals that searched a RAG collection, by collection',
      labelNames: ['collection'],
      registers,
    });
    this.chunks = new Counter({
      name: 'gateway_rag_chunks_returned_total',
      help: 'Chunks put into requests from a RAG collection, by collection',
      labelNames: ['collection'],
      registers,
    });
    this.latency = new Histogram({
      name: 'gateway_rag_retrieval_duration_seconds',
      help: 'Time to retrieve chunks for one request (query embedding, BM25, vectors, fusion)',
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    });
  }

  /** Counts one retrieval over `collections` that returned `returned` (collection of each chunk). */
  observe(collections: readonly string[], returned: readonly string[], seconds: number): void {
    for (const collection of collections) this.retrievals.labels(collection).inc();
    const counts = new Map<string, number>();
    for (const collection of returned) counts.set(collection, (counts.get(collection) ?? 0) + 1);
    for (const [collection, count] of counts) this.chunks.labels(collection).inc(count);
    this.latency.observe(seconds);
  }
}
