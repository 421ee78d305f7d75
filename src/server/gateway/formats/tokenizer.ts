import { createRequire } from 'node:module';

/** Text that merely looks like a special token (`<|endoftext|>`) is counted as text, never refused. */
type EncodeOptions = { disallowedSpecial: Set<string> };

interface O200k {
  countTokens(text: string, options: EncodeOptions): number;
  isWithinTokenLimit(text: string, limit: number, options: EncodeOptions): number | false;
}

const require = createRequire(import.meta.url);
const AS_TEXT: EncodeOptions = { disallowedSpecial: new Set<string>() };
let encoding: O200k | undefined;

/**
 * OpenAI's o200k encoding (GPT-4o and later). Its tables cost about 70 MB and a quarter of a second to
 * load, so they are loaded the first time a count is needed (a token limit, budget or input cap), never
 * by a gateway that counts nothing.
 */
function o200k(): O200k {
  encoding ??= require('gpt-tokenizer/encoding/o200k_base') as O200k;
  return encoding;
}

/** Tokens of a text under the o200k encoding. */
export function countTextTokens(text: string): number {
  return o200k().countTokens(text, AS_TEXT);
}

/** The text's tokens when they are at most `limit`, else false (stops counting once past it). */
export function tokensWithin(text: string, limit: number): number | false {
  return o200k().isWithinTokenLimit(text, limit, AS_TEXT);
}
