import { z } from 'zod';
import {
  integerIn,
  MAX_EMBEDDING_DIMENSIONS,
  MAX_EMBEDDING_INPUTS,
  MAX_EMBEDDING_VALUES,
  name,
  requiredName,
} from '../limits.js';
import { validate, type Validated } from '../validation.js';
import { embeddingsInputSchema, type EmbeddingsInput } from './embeddings-input.js';
/** The embeddings request (OpenAI's `POST /v1/embeddings`); token-array inputs pass through too. */
export const embeddingsRequestSchema = z
  .looseObject({
    model: requiredName().optional(),
    input: embeddingsInputSchema,
    encoding_format: z.enum(['float', 'base64']).optional(),
    dimensions: integerIn(1, MAX_EMBEDDING_DIMENSIONS).optional(),
    user: name().optional(),
  })
  .superRefine((body, ctx) => {
    if (typeof body.input !== 'string' && !Array.isArray(body.input)) return;
    const count = embeddingInputs(body.input).length;
    if (count > MAX_EMBEDDING_INPUTS) {
      ctx.addIssue({
        code: 'custom',
        path: ['input'],
        input: body.input,
        message: `must contain at most ${MAX_EMBEDDING_INPUTS} inputs, got ${count}`,
      });
      return;
    }
    // The answer holds inputs x dimensions numbers; its size, not any one field, is what costs.
    const most = Math.floor(MAX_EMBEDDING_VALUES / count);
    const { dimensions } = body;
    if (dimensions !== undefined && dimensions <= MAX_EMBEDDING_DIMENSIONS && dimensions > most) {
      ctx.addIssue({
        code: 'custom',
        path: ['dimensions'],
        input: dimensions,
        message: `must be at most ${most} for ${count} inputs (at most ${MAX_EMBEDDING_VALUES} numbers in all), got ${dimensions}`,
      });
    }
  });

/** A validated embeddings request. */
export type EmbeddingsBody = z.output<typeof embeddingsRequestSchema>;

/** One embedding of the answer: floats, or base64 of little-endian float32 when asked. */
export interface EmbeddingItem {
  object: 'embedding';
  index: number;
  embedding: number[] | string;
}

/** The embeddings answer. */
export interface EmbeddingsResponse {
  object: 'list';
  data: EmbeddingItem[];
  model: string;
  usage: { prompt_tokens: number; total_tokens: number };
}

/** Validates an embeddings request body. */
export function validateEmbeddingsRequest(body: unknown): Validated<EmbeddingsBody> {
  return validate(embeddingsRequestSchema, body);
}

/** The inputs of a request as a list (a single string or token array is one input). */
export function embeddingInputs(input: EmbeddingsInput): Array<string | number[]> {
  if (typeof input === 'string') return [input];
  if (input.length > 0 && typeof input[0] === 'number') return [input as number[]];
  return input as Array<string | number[]>;
}
