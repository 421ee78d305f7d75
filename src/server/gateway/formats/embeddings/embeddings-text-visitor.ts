import type { TextVisitor } from '../text-visitor.js';
import type { EmbeddingsBody } from './embeddings-schema.js';

/** Visits every text input of an embeddings request (token-array inputs are not text), mutably. */
export function visitEmbeddingsInputText(body: EmbeddingsBody, visitor: TextVisitor): void {
  const input = body.input as unknown;
  if (typeof input === 'string') {
    const replaced = visitor(input, { kind: 'input', role: 'user', messageIndex: 0, path: 'input' });
    if (typeof replaced === 'string') (body as { input: unknown }).input = replaced;
    return;
  }
  if (!Array.isArray(input)) return;
  for (let index = 0; index < input.length; index += 1) {
    const value: unknown = input[index];
    if (typeof value !== 'string') continue;
    const replaced = visitor(value, { kind: 'input', role: 'user', messageIndex: index, path: `input[${index}]` });
    if (typeof replaced === 'string') input[index] = replaced;
  }
}

/** Inputs of an embeddings request given as token ids, not text: where each is, and how many ids in all. */
export interface TokenIdInputs {
  readonly paths: readonly string[];
  readonly tokens: number;
}

/** The token-id inputs of an embeddings request (`input: [1, 2]`, or arrays of them), if it has any. */
export function tokenIdInputs(body: EmbeddingsBody): TokenIdInputs | undefined {
  const input = body.input as unknown;
  if (!Array.isArray(input) || input.length === 0) return undefined;
  if (typeof input[0] === 'number') return { paths: ['input'], tokens: input.length };
  const paths: string[] = [];
  let tokens = 0;
  input.forEach((value: unknown, index) => {
    if (!Array.isArray(value)) return;
    paths.push(`input[${index}]`);
    tokens += value.length;
  });
  return paths.length === 0 ? undefined : { paths, tokens };
}
