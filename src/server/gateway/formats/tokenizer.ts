import { createRequire } from 'node:module';

type CountTokens = (text: string, options: { disallowedSpecial: Set<string> }) => number;

const require = createRequire(import.meta.url);
/** Text that merely looks like a special token (`<|endoftext|>`) is counted as text, never refused. */
const AS_TEXT = { disallowedSpecial: new Set<string>() };
let counter: CountTokens | undefined;

/**
 * Tokens of a text under OpenAI's o200k encoding (GPT-4o and later). The encoding's tables cost about
 * 70 MB and a quarter of a second to load, so they are loaded the first time a count is needed (a
 * token limit, budget or input cap), never by a gateway that counts nothing.
 */
export function countTextTokens(text: string): number {
  counter ??= (require('gpt-tokenizer/encoding/o200k_base') as { countTokens: CountTokens }).countTokens;
  return counter(text, AS_TEXT);
}
