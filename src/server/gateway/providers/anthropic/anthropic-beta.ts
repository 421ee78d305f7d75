import type { ClientHeaders } from '../types.js';

/** Beta names look like `prompt-caching-2024-07-31`; anything else is left behind, not sent upstream. */
const BETA_NAME = /^[a-z0-9][a-z0-9._-]*$/i;

/**
 * The client's `anthropic-beta` header (any case, repeated or comma-separated) as one value of
 * well-formed beta names, so that Messages clients keep the betas they opted into on the native path:
 * on their messages and on the token counts of those messages, which a beta can change.
 */
export function anthropicBeta(headers: ClientHeaders | undefined): string | undefined {
  if (headers === undefined) return undefined;
  const names = Object.entries(headers)
    .filter(([name]) => name.toLowerCase() === 'anthropic-beta')
    .flatMap(([, value]) => (value === undefined ? [] : typeof value === 'string' ? [value] : [...value]))
    .flatMap((value) => value.split(','))
    .map((name) => name.trim())
    .filter((name) => BETA_NAME.test(name));
  return names.length === 0 ? undefined : [...new Set(names)].join(',');
}
