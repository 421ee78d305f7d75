import { z } from 'zod';
import { MAX_EMBEDDING_INPUT_TOKENS } from '../limits.js';

/** An embeddings `input`: a text, texts, a token list, or token lists. */
export type EmbeddingsInput = string | string[] | number[] | number[][];

interface Problem {
  readonly path: ReadonlyArray<string | number>;
  readonly message: string;
  readonly input: unknown;
}

/**
 * `input`, checked by hand in one pass: as a zod union, a list of a million tokens was first tried
 * as a list of texts, which made a million issues and took seconds of CPU before the right variant
 * was tried. The first problem found is reported, at its path.
 */
export const embeddingsInputSchema = z
  .unknown()
  .check((ctx) => {
    const problem = inputProblem(ctx.value);
    if (problem !== undefined)
      ctx.issues.push({ code: 'custom', path: [...problem.path], message: problem.message, input: problem.input });
  })
  .transform((value) => value as EmbeddingsInput);

function inputProblem(value: unknown): Problem | undefined {
  if (value === undefined) return { path: [], message: 'is required', input: value };
  // Providers refuse an empty text (OpenAI: "input cannot be an empty string"): the client's 400, not a 502.
  if (typeof value === 'string') return value === '' ? { path: [], message: EMPTY_TEXT, input: value } : undefined;
  if (!Array.isArray(value))
    return { path: [], message: `must be a string or an array, got ${describeValue(value)}`, input: value };
  if (value.length === 0) return { path: [], message: 'must contain at least 1 item', input: value };
  const first: unknown = value[0];
  if (typeof first === 'string') {
    const problem = everyItem(value, [], (item) => typeof item === 'string' && item !== '', 'a string');
    return problem?.input === '' ? { ...problem, message: EMPTY_TEXT } : problem;
  }
  if (typeof first === 'number') return tokensProblem(value, []);
  if (Array.isArray(first)) {
    for (const [index, item] of value.entries()) {
      if (!Array.isArray(item))
        return { path: [index], message: `must be an array of token ids, got ${describeValue(item)}`, input: item };
      if (item.length === 0) return { path: [index], message: 'must contain at least 1 item', input: item };
      const problem = tokensProblem(item, [index]);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  return {
    path: [0],
    message: `must be a string, a token id or an array of token ids, got ${describeValue(first)}`,
    input: first,
  };
}

const EMPTY_TEXT = 'must not be an empty string';

function tokensProblem(tokens: readonly unknown[], path: ReadonlyArray<number>): Problem | undefined {
  if (tokens.length > MAX_EMBEDDING_INPUT_TOKENS)
    return {
      path,
      message: `must contain at most ${MAX_EMBEDDING_INPUT_TOKENS} items, got ${tokens.length} items`,
      input: tokens,
    };
  // Token ids index a vocabulary: a negative one is refused upstream, as a 502 the client cannot read.
  return everyItem(tokens, path, isTokenId, 'a non-negative integer (a token id)');
}

function isTokenId(item: unknown): boolean {
  return Number.isSafeInteger(item) && (item as number) >= 0;
}

function everyItem(
  items: readonly unknown[],
  path: ReadonlyArray<number>,
  ok: (item: unknown) => boolean,
  expected: string,
): Problem | undefined {
  const index = items.findIndex((item) => !ok(item));
  if (index === -1) return undefined;
  return {
    path: [...path, index],
    message: `must be ${expected}, got ${describeValue(items[index])}`,
    input: items[index],
  };
}

/** A value as a message shows it: quoted when text, cut at 40 characters. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  const text = typeof value === 'string' ? `'${value}'` : String(value);
  return text.length > 40 ? `${text.slice(0, 40)}...` : text;
}
