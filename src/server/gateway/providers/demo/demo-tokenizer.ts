import { setImmediate as nextTurn } from 'node:timers/promises';
import type { IrPart, IrRequest } from '../../formats/ir.js';

/**
 * The demo model's tokenizer: a token is one word with the whitespace before it, so the streamed
 * deltas are exactly the tokens counted. It scans character by character and builds nothing for a
 * text as a whole: a megabyte prompt costs no array of words, and long counts yield to the event
 * loop so other requests keep being served.
 */

/** Characters scanned between two yields to the event loop. */
export const YIELD_CHARS = 256 * 1024;

/** Whitespace as the regular expression `\s` sees it. */
function isSpace(code: number): boolean {
  if (code > 32 && code < 0xa0) return false;
  return (
    code === 32 ||
    (code >= 9 && code <= 13) ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** Where the token starting at `from` ends (its whitespace, then its word); -1 when only whitespace is left. */
export function tokenEnd(text: string, from: number): number {
  let index = from;
  while (index < text.length && isSpace(text.charCodeAt(index))) index += 1;
  if (index === text.length) return -1;
  while (index < text.length && !isSpace(text.charCodeAt(index))) index += 1;
  return index;
}

/** Where the first word of `text` starts (its length when there is none). */
export function firstWordStart(text: string): number {
  let index = 0;
  while (index < text.length && isSpace(text.charCodeAt(index))) index += 1;
  return index;
}

/** Token count of `text` from `from` to `to`, and whether `to` falls inside a word. */
function countRange(text: string, from: number, to: number, inWord: boolean): { count: number; inWord: boolean } {
  let count = 0;
  let word = inWord;
  for (let index = from; index < to; index += 1) {
    const space = isSpace(text.charCodeAt(index));
    if (!space && !word) count += 1;
    word = !space;
  }
  return { count, inWord: word };
}

/** Token count of several texts, yielding to the event loop every {@link YIELD_CHARS} characters. */
export async function countDemoTokensOf(texts: Iterable<string>): Promise<number> {
  let count = 0;
  let sinceYield = 0;
  for (const text of texts) {
    let inWord = false;
    for (let from = 0; from < text.length;) {
      const to = Math.min(text.length, from + YIELD_CHARS - sinceYield);
      const part = countRange(text, from, to, inWord);
      count += part.count;
      inWord = part.inWord;
      sinceYield += to - from;
      from = to;
      if (sinceYield >= YIELD_CHARS) {
        sinceYield = 0;
        await nextTurn();
      }
    }
  }
  return count;
}

/** Prompt tokens of a request: every text the model reads, tool definitions included. */
export function countDemoPromptTokens(request: IrRequest): Promise<number> {
  return countDemoTokensOf(promptTexts(request));
}

/** The texts of a prompt; texts joined by a space count as the sum of their counts, so none is joined. */
function* promptTexts(request: IrRequest): Generator<string> {
  yield* request.system;
  for (const message of request.messages) for (const part of message.content) yield* partTexts(part);
  for (const tool of request.tools ?? []) {
    yield tool.name;
    if (tool.description !== undefined) yield tool.description;
    yield JSON.stringify(tool.parameters) ?? '';
  }
}

function* partTexts(part: IrPart): Generator<string> {
  switch (part.type) {
    case 'text':
      yield part.text;
      return;
    case 'image':
      // One token per image, as before: any single word counts one.
      yield 'image';
      return;
    case 'file':
      yield 'file';
      return;
    case 'tool_call':
      yield part.name;
      yield part.arguments;
      return;
    case 'tool_result':
      for (const inner of part.content) yield* partTexts(inner);
      return;
  }
}
