import type { ModelRegistry } from '../model-registry/model-registry.js';
import { executeEmbeddings } from '../providers/execute-embeddings.js';
import type { UpstreamPools } from '../providers/upstream-pools.js';

/** Inputs per embeddings call when indexing. */
const BATCH = 64;

/**
 * Embeds chunk and query texts with the configured embedding model, through the gateway's own
 * provider layer (demo/embed offline, or any deployment of an OpenAI-compatible upstream), trying
 * the model's deployments in order.
 */
export class RagEmbedder {
  constructor(
    private readonly registry: ModelRegistry,
    private readonly pools: UpstreamPools,
    /** The `rag.embedding_model`; undefined: no vectors, BM25 only. */
    readonly model: string | undefined,
  ) {}

  /** One vector per text (unit length as the providers answer them); throws when every deployment failed. */
  async embed(texts: readonly string[], requestId = 'rag-index'): Promise<Float32Array[]> {
    const model = this.model;
    if (model === undefined) throw new Error('no rag.embedding_model is configured');
    const out: Float32Array[] = [];
    for (let at = 0; at < texts.length; at += BATCH) {
      const batch = texts.slice(at, at + BATCH);
      out.push(...(await this.embedBatch(model, batch, requestId)));
    }
    return out;
  }

  private async embedBatch(model: string, input: string[], requestId: string): Promise<Float32Array[]> {
    const deployments = this.registry.deploymentsFor(model);
    if (deployments.length === 0) throw new Error(`rag.embedding_model ${model} has no deployment`);
    let failure: unknown;
    for (const deployment of deployments) {
      try {
        const answer = await executeEmbeddings({
          body: { model, input },
          deployment,
          pools: this.pools,
          signal: AbortSignal.timeout(60_000),
          requestId,
        });
        return answer.body.data.map((item) => Float32Array.from(item.embedding as number[]));
      } catch (error) {
        failure = error;
      }
    }
    throw failure;
  }
}

/** A vector as stored (little-endian float32 bytes). */
export function vectorToBuffer(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

/** A stored vector back as floats (copied: SQLite's buffer may not be 4-byte aligned). */
export function bufferToVector(buffer: Buffer): Float32Array {
  const copy = new Uint8Array(buffer.byteLength);
  copy.set(buffer);
  return new Float32Array(copy.buffer);
}

/** Cosine similarity (vectors of different lengths compare as unrelated). */
export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let index = 0; index < a.length; index += 1) {
    dot += a[index]! * b[index]!;
    na += a[index]! * a[index]!;
    nb += b[index]! * b[index]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
