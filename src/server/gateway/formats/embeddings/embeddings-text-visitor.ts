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
