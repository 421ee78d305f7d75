import { describeValue } from './embeddings-input.js';
import { checkVector } from './embeddings-vector.js';

/** What a request asked of the upstream, which its answer's `data` must match. */
export interface EmbeddingsAsked {
  /** Inputs of the request: one vector each. */
  readonly inputs: number;
  /** The encoding asked of the upstream (the client's own, forwarded as it is). */
  readonly encoding: 'float' | 'base64';
  readonly dimensions: number | undefined;
}

/** One vector of a checked answer: finite floats, or base64 of finite float32 values, and its length. */
export interface CheckedEmbedding {
  readonly index: number;
  readonly embedding: number[] | string;
  readonly dimensions: number;
}

/**
 * The outcome of checking an answer: its vectors in input order, or what the upstream answered
 * instead (`retryable` false when another try would get the same, as a model's own length does).
 */
export type EmbeddingsAnswerCheck =
  | { readonly ok: true; readonly embeddings: readonly CheckedEmbedding[] }
  | { readonly ok: false; readonly problem: string; readonly retryable: boolean };

/**
 * Checks an upstream's `data` against the request: one item per input, each index 0..n-1 exactly once
 * (an item without one takes its place in the list), vectors of finite numbers (base64 only where
 * base64 was asked), all of one length and none shorter than `dimensions`. A body whose `data` is a
 * list can still be no answer: relayed, it would be charged and cached, and fail in the client (or in
 * the gateway, as a 500) instead.
 */
export function checkEmbeddingsAnswer(data: unknown, asked: EmbeddingsAsked): EmbeddingsAnswerCheck {
  if (!Array.isArray(data)) return invalid(`its 'data' is ${describeValue(data)}, not a list`);
  const items = data as unknown[];
  if (items.length !== asked.inputs)
    return invalid(`${count(items.length, 'embedding')} for ${count(asked.inputs, 'input')}`);
  const ordered = new Array<CheckedEmbedding | undefined>(items.length);
  const placeOf = new Array<number>(items.length);
  let length: number | undefined;
  for (const [place, item] of items.entries()) {
    const where = `data[${place}]`;
    if (item === null || typeof item !== 'object' || Array.isArray(item))
      return invalid(`${where} is ${describeValue(item)}, not an embedding object`);
    const { index, embedding } = item as { index?: unknown; embedding?: unknown };
    // Without an index (or with a null one), clients would read the list's order: so does the gateway.
    const at = index ?? place;
    if (typeof at !== 'number' || !Number.isInteger(at) || at < 0 || at >= items.length)
      return invalid(`${where}.index is ${describeValue(at)}, not an input's index (0 to ${items.length - 1})`);
    if (ordered[at] !== undefined) return invalid(`index ${at} twice (data[${placeOf[at]}] and ${where})`);
    const vector = checkVector(embedding, `${where}.embedding`, asked.encoding);
    if (typeof vector === 'string') return invalid(vector);
    length ??= vector.dimensions;
    if (vector.dimensions !== length)
      return invalid(`${where}.embedding has ${count(vector.dimensions, 'dimension')}, data[0].embedding ${length}`);
    ordered[at] = { index: at, ...vector };
    placeOf[at] = place;
  }
  // Shorter than asked cannot be made longer; a model's length is its own, so no retry gets more.
  if (length !== undefined && asked.dimensions !== undefined && length < asked.dimensions)
    return {
      ok: false,
      problem: `vectors shorter than asked: the model returned ${length} dimensions; the request asked for ${asked.dimensions}`,
      retryable: false,
    };
  return { ok: true, embeddings: ordered as CheckedEmbedding[] };
}

function invalid(problem: string): EmbeddingsAnswerCheck {
  return { ok: false, problem: `JSON that is no embeddings answer: ${problem}`, retryable: true };
}

/** `1 input`, `2 inputs`. */
function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
