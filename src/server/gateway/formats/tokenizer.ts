import { createRequire } from 'node:module';

/** Text that merely looks like a special token (`<|endoftext|>`) is counted as text, never refused. */
type EncodeOptions = { disallowedSpecial: Set<string> };

interface O200k {
  countTokens(text: string, options: EncodeOptions): number;
  isWithinTokenLimit(text: string, limit: number, options: EncodeOptions): number | false;
}

// Not named `require`: the desktop bundle declares its own at the top of the same module scope.
const requireCommonJs = createRequire(import.meta.url);
const AS_TEXT: EncodeOptions = { disallowedSpecial: new Set<string>() };
/**
 * Byte-pair encoding takes time quadratic in the length of a run without spaces (100 KB of one letter
 * takes seconds, on the one thread every request shares). Runs longer than this are counted in pieces
 * of this size, which keeps counting linear; a piece boundary can only add a token, never lose one.
 */
const PIECE = 256;
const LONG_RUN = new RegExp(`\\S{${PIECE},}`, 'g');
let encoding: O200k | undefined;

/**
 * OpenAI's o200k encoding (GPT-4o and later). Its tables cost about 70 MB and a quarter of a second to
 * load, so they are loaded the first time a count is needed (a token limit, budget or input cap), never
 * by a gateway that counts nothing.
 */
function o200k(): O200k {
  encoding ??= requireCommonJs('gpt-tokenizer/encoding/o200k_base') as O200k;
  return encoding;
}

/** Tokens of a text under the o200k encoding, in time linear in its length. */
export function countTextTokens(text: string): number {
  const tokenizer = o200k();
  if (text.length < PIECE) return tokenizer.countTokens(text, AS_TEXT);
  let tokens = 0;
  let rest = '';
  let last = 0;
  for (const run of text.matchAll(LONG_RUN)) {
    rest += `${text.slice(last, run.index)} `;
    for (let at = 0; at < run[0].length; at += PIECE)
      tokens += tokenizer.countTokens(run[0].slice(at, at + PIECE), AS_TEXT);
    last = run.index + run[0].length;
  }
  if (last === 0) return tokenizer.countTokens(text, AS_TEXT);
  return tokens + tokenizer.countTokens(rest + text.slice(last), AS_TEXT);
}

/** The text's tokens when they are at most `limit`, else false (stops counting once past it). */
export function tokensWithin(text: string, limit: number): number | false {
  if (text.length >= PIECE && new RegExp(LONG_RUN.source).test(text)) {
    const tokens = countTextTokens(text);
    return tokens <= limit ? tokens : false;
  }
  return o200k().isWithinTokenLimit(text, limit, AS_TEXT);
}
