import { z } from 'zod';

/**
 * The query string of an admin listing: parameters it does not know are refused, naming them and the
 * ones it takes. Ignored, a misspelt or unsupported filter (`/internal/audit?target=key_1`) answers
 * the whole unfiltered list as if it were the filtered one.
 */
export const queryParams = <S extends Record<string, z.ZodType>>(shape: S) => {
  const known = Object.keys(shape).join(', ');
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code !== 'unrecognized_keys') return undefined;
      const names = issue.keys.map((key) => `'${key}'`).join(', ');
      const noun = issue.keys.length === 1 ? 'parameter' : 'parameters';
      return `unknown query ${noun} ${names}; this endpoint takes ${known || 'none'}`;
    },
  });
};

/**
 * Query strings carry integers as plain decimal digits; `1e3`, `0x10` or ` 1` are not coerced into one.
 * Digits past a double's range (309 and more) read as its largest value, not Infinity, so a bound says
 * "must be at most", and a clamped parameter is clamped, as for any other large number.
 */
export const decimalInteger = (value: unknown): unknown => {
  if (typeof value !== 'string' || !/^-?\d+$/.test(value)) return value;
  const number = Number(value);
  return Number.isFinite(number) ? number : Math.sign(number) * Number.MAX_VALUE;
};

/** An integer query parameter of at least `min` and at most `max` (else 2^53 - 1, as every integer). */
export const queryInteger = (min: number, max?: number) => {
  const base = z.number().int().min(min);
  return z.preprocess(decimalInteger, max === undefined ? base : base.max(max));
};

/**
 * The refusal of a time query parameter's value, naming what it takes. A value with a space most
 * likely lost the '+' of its offset (`+02:00`): a URL's query string reads '+' as a space, so the
 * message says how to write it.
 */
export function queryTimeMessage(input: unknown): string {
  const shown = String(input).slice(0, 100);
  const hint = shown.includes(' ')
    ? "; a '+' in a URL query string is read as a space: write the offset's '+' as %2B (%2B02:00), or give the time in UTC with Z"
    : '';
  return `must be an ISO-8601 time or date, or Unix milliseconds, got '${shown}'${hint}`;
}

/**
 * A filter by name or id. An empty value (`?team=`, often a script's unset variable) is refused rather
 * than read as "the empty name", which would answer an empty list that looks like "none match".
 */
export const queryFilter = z.string().min(1).max(1000);
