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

/**
 * An optional field where null means absent, as chat completions takes it: Python clients send None
 * for what they leave unset. It becomes undefined, so it is neither read as a value nor forwarded.
 */
function absentIfNull<T extends z.ZodType>(schema: T) {
  // The outer optional keeps the key optional in the output type, as `.optional()` alone did.
  return schema
    .nullish()
    .transform((value) => value ?? undefined)
    .optional();
}

/** The embeddings request (OpenAI's `POST /v1/embeddings`); token-array inputs pass through too. */
export const embeddingsRequestSchema = z
  .looseObject({
    model: absentIfNull(requiredName()),
    input: embeddingsInputSchema,
    encoding_format: absentIfNull(z.enum(['float', 'base64'])),
    dimensions: absentIfNull(integerIn(1, MAX_EMBEDDING_DIMENSIONS)),
    user: absentIfNull(name()),
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
