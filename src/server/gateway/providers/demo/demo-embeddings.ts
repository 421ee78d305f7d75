import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { throwIfAborted } from './demo-provider.js';
import { embeddingInputs, type EmbeddingsBody } from '../../formats/embeddings/embeddings-schema.js';
import type { EmbeddingsProvider } from '../types.js';
import { countDemoTokensOf } from './demo-tokenizer.js';
import { refuseDemoChatModelEmbedding } from './demo-model-kind.js';

/** Dimensions of demo embeddings when the request does not ask for a size. */
export const DEMO_EMBEDDING_DIMENSIONS = 256;

/** Vector components generated between two yields to the event loop. */
const YIELD_VALUES = 256 * 1024;

/**
 * Deterministic demo embeddings: each input's vector is a unit vector drawn from a generator
 * seeded by a hash of the model and the input, so equal inputs embed equally across runs.
 */
export const demoEmbeddingsProvider: EmbeddingsProvider = {
  async embed(body: EmbeddingsBody, context) {
    refuseDemoChatModelEmbedding(context.deployment, context.upstreamModel);
    const dimensions = body.dimensions ?? DEMO_EMBEDDING_DIMENSIONS;
    const inputs = embeddingInputs(body.input);
    // A full batch is millions of numbers: other requests get their turn in between.
    const data = [];
    let sinceYield = 0;
    for (const [index, input] of inputs.entries()) {
      const seed = `${context.upstreamModel}\0${typeof input === 'string' ? input : JSON.stringify(input)}`;
      data.push({ object: 'embedding' as const, index, embedding: demoVector(seed, dimensions) });
      sinceYield += dimensions;
      if (sinceYield >= YIELD_VALUES) {
        sinceYield = 0;
        await nextTurn();
        throwIfAborted(context);
      }
    }
    const texts = inputs.filter((input): input is string => typeof input === 'string');
    const tokenArrays = inputs.reduce((sum, input) => sum + (typeof input === 'string' ? 0 : input.length), 0);
    const promptTokens = (await countDemoTokensOf(texts)) + tokenArrays;
    return {
      body: {
        object: 'list',
        data,
        model: context.upstreamModel,
        usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
      },
      usage: { promptTokens, completionTokens: 0 },
    };
  },
};

/**
 * A unit vector of `dimensions` gaussian components seeded by `seed`, each a float32 value (as
 * OpenAI's are), so the float and base64 answers of one input are the same numbers.
 */
export function demoVector(seed: string, dimensions: number): number[] {
  const random = sfc32(createHash('sha256').update(seed).digest());
  const out = new Array<number>(dimensions);
  let sum = 0;
  for (let index = 0; index < dimensions; index += 1) {
    // Box-Muller: gaussian components make the direction uniform on the sphere.
    const value = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    out[index] = value;
    sum += value * value;
  }
  const norm = Math.sqrt(sum) || 1;
  for (let index = 0; index < dimensions; index += 1) out[index] = Math.fround(out[index]! / norm);
  return out;
}

/** A small, fast seeded generator (sfc32) returning floats in [0, 1). */
function sfc32(seed: Buffer): () => number {
  let a = seed.readUInt32LE(0);
  let b = seed.readUInt32LE(4);
  let c = seed.readUInt32LE(8);
  let d = seed.readUInt32LE(12);
  return () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
}
