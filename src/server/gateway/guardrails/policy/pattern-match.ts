import type { BlockedPattern } from '../rules.js';
import { readingsForPolicy } from './policy-text.js';

/** The first pattern that matches the text, as written or as a reader takes it (see readingsForPolicy). */
export function firstMatch(patterns: readonly BlockedPattern[], text: string): BlockedPattern | undefined {
  const readings = readingsForPolicy(text);
  for (const pattern of patterns)
    if (pattern.regex.test(text) || readings.some((reading) => pattern.regex.test(reading))) return pattern;
  return undefined;
}
