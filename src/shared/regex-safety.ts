import ret, { types, type Token, type Tokens } from 'ret';
import { backtrackingOf, type Backtracking } from './regex-backtracking.js';

// The package's module.exports is the tokenizer itself; its type declarations describe an ES module
// whose default export it is, which TypeScript, reading the package as CommonJS, does not apply.
const tokenize = ret as unknown as (source: string) => Tokens;

/** A lookbehind's opening, not escaped: `(?<=` or `(?<!`. */
const LOOKBEHIND = /(?<!\\)\(\?<[=!]/g;

/** Longest run of a bounded repetition that may hold a varying part: `(?:\d{4}[ -]?){3}` tries 2^3 ways at most. */
const MAX_BOUNDED_RUN = 10;

/**
 * Whether a regular expression repeats something of varying length (`(a+)+`, `(\w+\s?)*`,
 * `(.*a){2}`, `(a?){30}`): the shape that makes a backtracking engine such as V8's take exponential
 * (or high polynomial) time on an input that almost matches. A pattern the gateway runs over every
 * prompt must not have it: one crafted prompt would then hold the whole process, the admin API
 * included. Fine: repeating a fixed length (`(ab{2})+`), an optional varying part (`(ab+)?`), and a
 * short bounded run of optional parts (`(?:\d{4}[ -]?){3}`). A pattern this parser cannot read
 * is not judged.
 */
export function hasNestedRepetition(source: string): boolean {
  const tree = parsed(source);
  return tree !== undefined && repeatsInside(tree, 1);
}

/**
 * The shape that makes the pattern slow on a crafted prompt, if any: `nested` repetition (see
 * hasNestedRepetition), or one of {@link Backtracking}'s. A pattern this parser cannot read is not judged.
 */
export function slowShapeOf(source: string): 'nested' | Backtracking | undefined {
  const tree = parsed(source);
  if (tree === undefined) return undefined;
  return repeatsInside(tree, 1) ? 'nested' : backtrackingOf(tree);
}

function parsed(source: string): Tokens | undefined {
  try {
    // The parser knows no lookbehind; read as a plain group, its content is judged as any other's.
    return tokenize(source.replace(LOOKBEHIND, '(?:'));
  } catch {
    return undefined;
  }
}

/** Whether `token`, inside repetitions of at most `times` in all, repeats a varying part too often. */
function repeatsInside(token: Tokens, times: number): boolean {
  if (token.type === types.REPETITION) {
    const varying = token.min !== token.max;
    // Inside `times` repetitions, a part of varying length can be split `times * (max - min)` ways and more.
    if (varying && times > 1 && (token.max === Infinity || times * (token.max - token.min) > MAX_BOUNDED_RUN))
      return true;
    return repeatsInside(token.value, times * token.max);
  }
  if (token.type !== types.ROOT && token.type !== types.GROUP) return false;
  const branches: Token[][] = [...(token.stack ? [token.stack] : []), ...(token.options ?? [])];
  return branches.some((branch) => branch.some((inner) => repeatsInside(inner, times)));
}
