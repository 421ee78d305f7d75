import { createHash } from 'node:crypto';

/**
 * JSON with every object's keys in sorted order, so two bodies that differ only in key order (one
 * SDK's field order against another's) are the same request. `undefined` members are left out, as
 * JSON.stringify leaves them out.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let out = '[';
    for (let index = 0; index < value.length; index += 1) {
      if (index > 0) out += ',';
      const item: unknown = value[index];
      out += item === undefined ? 'null' : canonicalJson(item);
    }
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  let out = '{';
  let first = true;
  for (const key of keys) {
    const member = record[key];
    if (member === undefined || typeof member === 'function') continue;
    if (!first) out += ',';
    first = false;
    out += `${JSON.stringify(key)}:${canonicalJson(member)}`;
  }
  return `${out}}`;
}

/**
 * The body as its answer depends on it: without `stream: false` (the default every format has) and,
 * but on Messages, without top-level nulls. Chat completions, Responses and embeddings take a null as
 * absent (Python clients send None for what they leave unset; the gateway reads both alike), so a
 * framework that sends its defaults shares entries with an SDK that leaves them out. The Messages
 * schema admits null for none of its fields: a null there is one the gateway does not know, forwarded
 * as sent, and whether the provider takes it as absent is not the gateway's to say. The body itself
 * is left as it is (it is routed after the lookup); a copy is made only when something is left out.
 */
function keyedBody(endpoint: string, body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const record = body as Record<string, unknown>;
  const foldsNulls = endpoint !== 'messages';
  let keyed: Record<string, unknown> | undefined;
  for (const field of Object.keys(record)) {
    const value = record[field];
    if ((field === 'stream' && value === false) || (foldsNulls && value === null)) {
      keyed ??= { ...record };
      delete keyed[field];
    }
  }
  return keyed ?? body;
}

/**
 * The cache key of a request: its tenant scope, the endpoint, the headers that change an answer and
 * the body about to be routed (as keyedBody reads it), hashed once. The scope comes first in clear so
 * that a purge can pick a tenant's entries; the hash keeps the prompt out of memory dumps of the key set.
 */
export function cacheKey(scope: string, endpoint: string, body: unknown, variant: string): string {
  const digest = createHash('sha256')
    .update(endpoint)
    .update('\n')
    .update(variant)
    .update('\n')
    .update(canonicalJson(keyedBody(endpoint, body)))
    .digest('base64url');
  return `${scope}|${digest}`;
}
