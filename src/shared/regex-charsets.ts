import { types, type SetToken, type Token } from 'ret';

/**
 * The characters a part of a regular expression (as `ret` reads it) can match, enough to tell whether
 * two parts can match the same character. Sets are unions of ranges, maybe complemented: two of them
 * meet if and only if one holds an end point of the other's ranges, so `points` lists those.
 */
export interface CharSet {
  readonly has: (code: number) => boolean;
  readonly points: readonly number[];
}

const LAST_CODE_POINT = 0x10ffff;

export const NO_CHARS: CharSet = { has: () => false, points: [] };
export const ANY_CHAR: CharSet = { has: () => true, points: [0, LAST_CODE_POINT] };

export function unionOf(a: CharSet, b: CharSet): CharSet {
  if (a === NO_CHARS) return b;
  if (b === NO_CHARS) return a;
  return { has: (code) => a.has(code) || b.has(code), points: [...a.points, ...b.points] };
}

function rangeOf(from: number, to: number): CharSet {
  return { has: (code) => code >= from && code <= to, points: [from, to] };
}

function complementOf(set: CharSet): CharSet {
  const points = [0, LAST_CODE_POINT];
  for (const point of set.points) points.push(point - 1, point + 1);
  return { has: (code) => !set.has(code), points: points.filter((code) => code >= 0 && code <= LAST_CODE_POINT) };
}

/** The characters of one character token: a literal, a range, or a class (`[...]`, `\w`, `.`). */
export function charSetOf(token: Token | SetToken): CharSet {
  switch (token.type) {
    case types.CHAR:
      return rangeOf(token.value, token.value);
    case types.RANGE:
      return rangeOf(token.from, token.to);
    case types.SET: {
      const members = token.set.reduce<CharSet>((all, member) => unionOf(all, charSetOf(member)), NO_CHARS);
      return token.not ? complementOf(members) : members;
    }
    default:
      return ANY_CHAR;
  }
}

/** The code point in both letter cases (the gateway's patterns match ignoring case). */
function caseVariants(code: number): number[] {
  const char = String.fromCodePoint(code);
  return [code, char.toLowerCase().codePointAt(0)!, char.toUpperCase().codePointAt(0)!];
}

/** Whether some character, in either letter case, is in both sets. */
export function meet(a: CharSet, b: CharSet): boolean {
  const hasEither = (set: CharSet, code: number) => caseVariants(code).some((variant) => set.has(variant));
  return [...a.points, ...b.points].some((code) =>
    caseVariants(code).some((variant) => hasEither(a, variant) && hasEither(b, variant)),
  );
}

/** Whether every character of `inner` is in `outer` (ignoring case, as `meet`). */
export function within(inner: CharSet, outer: CharSet): boolean {
  return !meet(inner, complementOf(outer));
}

/** Word characters, as `\b` tells them apart. */
export const WORD_CHARS: CharSet = [
  rangeOf(0x30, 0x39),
  rangeOf(0x41, 0x5a),
  rangeOf(0x5f, 0x5f),
  rangeOf(0x61, 0x7a),
].reduce(unionOf, NO_CHARS);
