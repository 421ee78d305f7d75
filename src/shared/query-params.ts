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
