import type { BlockedPattern } from '../rules.js';
import { readingsForPolicy } from './policy-text.js';

/** The first pattern that matches the text, as written or as a reader takes it (see readingsForPolicy). */
export function firstMatch(patterns: readonly BlockedPattern[], text: string): BlockedPattern | undefined {
  const readings = readingsForPolicy(text);
  for (const pattern of patterns)
    if (pattern.regex.test(text) || readings.some((reading) => pattern.regex.test(reading))) return pattern;
  return undefined;
}

/**
 * A pattern as a refusal or a stop names it: in quotes, exactly as configured (`"launch\s+codes"`), so
 * it can be copied back into the settings; JSON-escaped, its backslashes read doubled.
 */
export function quotedPattern(pattern: BlockedPattern): string {
  return `"${pattern.source}"`;
}
