import type { IncomingHttpHeaders } from 'node:http';
import { MAX_CACHE_TTL_SECONDS } from '../../../shared/cache-api.js';
import { badRequest } from '../../http/errors.js';

/** What one request asks of the cache, within what its key's and model's settings allow. */
export interface RequestCacheControl {
  /** Answer from a kept answer (`no-cache`, `no-store` and `x-gatehouse-cache` skip it). */
  readonly lookup: boolean;
  /** Keep this request's answer (`no-store`, `x-gatehouse-cache: off` do not). */
  readonly store: boolean;
  /** The oldest kept answer this request accepts (`max-age`), in ms. */
  readonly maxAgeMs: number | undefined;
  /** How long this request's answer is kept (`x-gatehouse-cache-ttl`), in ms. */
  readonly ttlMs: number | undefined;
}

/** A request without cache headers: the settings alone decide. */
export const DEFAULT_CACHE_CONTROL: RequestCacheControl = Object.freeze({
  lookup: true,
  store: true,
  maxAgeMs: undefined,
  ttlMs: undefined,
});

const WHOLE_SECONDS = /^\d+$/;

function headerText(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The `Cache-Control` directives a request may send (others are ignored, as HTTP caches ignore them). */
function directivesOf(control: string): { noCache: boolean; noStore: boolean; maxAge: string | undefined } {
  let noCache = false;
  let noStore = false;
  let maxAge: string | undefined;
  for (const part of control.split(',')) {
    const directive = part.trim();
    const [name = '', value] = directive.split('=', 2);
    switch (name.trim().toLowerCase()) {
      case 'no-cache':
        noCache = true;
        break;
      case 'no-store':
        noStore = true;
        break;
      case 'max-age':
        maxAge = (value ?? '').trim().replace(/^"(.*)"$/, '$1');
        break;
    }
  }
  return { noCache, noStore, maxAge };
}

/**
 * Reads a request's cache headers: `Cache-Control` (`no-cache`, `no-store`, `max-age=<s>`),
 * `x-gatehouse-cache` (`refresh`, `off`) and `x-gatehouse-cache-ttl` (`<s>`). A value that cannot be
 * read is a 400 naming the header, whether or not the cache applies to the request, so a typo is
 * never silently ignored.
 */
export function requestCacheControl(headers: IncomingHttpHeaders): RequestCacheControl {
  const control = headerText(headers, 'cache-control');
  const mode = headerText(headers, 'x-gatehouse-cache');
  const ttl = headerText(headers, 'x-gatehouse-cache-ttl');
  if (control === undefined && mode === undefined && ttl === undefined) return DEFAULT_CACHE_CONTROL;
  const directives = directivesOf(control ?? '');
  const modeValue = mode?.trim().toLowerCase();
  if (modeValue !== undefined && modeValue !== 'refresh' && modeValue !== 'off')
    throw badRequest(`header x-gatehouse-cache must be 'refresh' or 'off', got '${mode}'`, 'x-gatehouse-cache');
  const store = !directives.noStore && modeValue !== 'off';
  const lookup = store && !directives.noCache && modeValue !== 'refresh';
  let maxAgeMs: number | undefined;
  if (directives.maxAge !== undefined) {
    if (!WHOLE_SECONDS.test(directives.maxAge))
      throw badRequest(
        `header Cache-Control: max-age must be a whole number of seconds, got '${directives.maxAge}'`,
        'cache-control',
      );
    maxAgeMs = Number(directives.maxAge) * 1000;
  }
  let ttlMs: number | undefined;
  if (ttl !== undefined) {
    const text = ttl.trim();
    const seconds = Number(text);
    if (!WHOLE_SECONDS.test(text) || seconds < 1 || seconds > MAX_CACHE_TTL_SECONDS)
      throw badRequest(
        `header x-gatehouse-cache-ttl must be a whole number of seconds from 1 to ${MAX_CACHE_TTL_SECONDS}, got '${ttl}'`,
        'x-gatehouse-cache-ttl',
      );
    ttlMs = seconds * 1000;
  }
  return { lookup, store, maxAgeMs, ttlMs };
}
