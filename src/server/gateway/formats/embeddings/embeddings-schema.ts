import { z } from 'zod';
import { minInteger, validate, type Validated } from '../validation.js';

/** The embeddings request (OpenAI's `POST /v1/embeddings`); token-array inputs pass through too. */
export const embeddingsRequestSchema = z.looseObject({
  model: z.string().min(1).optional(),
  input: z.union([
    z.string(),
    z.array(z.string()).min(1),
    z.array(z.number().int()).min(1),
    z.array(z.array(z.number().int()).min(1)).min(1),
  ]),
  encoding_format: z.enum(['float', 'base64']).optional(),
  dimensions: minInteger(1).optional(),
  user: z.string().optional(),
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
export function embeddingInputs(input: EmbeddingsBody['input']): Array<string | number[]> {
  if (typeof input === 'string') return [input];
  if (input.length > 0 && typeof input[0] === 'number') return [input as number[]];
  return input as Array<string | number[]>;
}
