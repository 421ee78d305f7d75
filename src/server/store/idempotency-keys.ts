import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest, conflict } from '../http/errors.js';
import type { IdempotencySlot } from './engine/idempotency-repository.js';
import { normaliseScope } from './engine/selectors.js';

// `Idempotency-Key` (IETF draft-ietf-httpapi-idempotency-key-header, as Stripe has it) on the store's
// writes: a retry after a lost answer gets the first answer instead of writing again.

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route keeps its answers for retries sent with the same `Idempotency-Key`. */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    idempotencySlot?: IdempotencySlot;
  }
}

/** Longest key accepted (a UUID is 36 characters). */
const MAX_KEY_LENGTH = 255;

/**
 * The key of the header, a Structured Field string as the draft has it (`"8e03978e-..."`) or bare as
 * Stripe's clients send it; undefined when none was sent. Throws 400 for one that cannot be a key.
 */
export function idempotencyKey(request: FastifyRequest): string | undefined {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return undefined;
  const sent = Array.isArray(header) ? header.join(',') : header;
  const quoted = /^"((?:[^"\\]|\\["\\])*)"$/.exec(sent.trim());
  const key = quoted ? quoted[1].replace(/\\(["\\])/g, '$1') : sent.trim();
  if (key === '' || key.length > MAX_KEY_LENGTH || !/^[\x20-\x7e]+$/.test(key)) {
    throw badRequest(
      `header Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} printable ASCII characters (a UUID, say), got ${JSON.stringify(asSent(sent))}`,
      'Idempotency-Key',
    );
  }
  return key;
}

/**
 * A header value as the client typed it. Node reads header bytes as Latin-1, so a key typed as `clé`
 * and sent as UTF-8 (as curl and most clients do) arrives as `clÃ©`; bytes that are not UTF-8 are
 * shown as `\xE9` escapes rather than guessed at.
 */
function asSent(value: string): string {
  const bytes = Buffer.from(value, 'latin1');
  const text = bytes.toString('utf8');
  if (Buffer.from(text, 'utf8').equals(bytes)) return text;
  return value.replace(/[\x80-\xff]/g, (char) => `\\x${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * SHA-256 of the validated body (its schema's defaults filled in, and the scope's too: an empty or
 * missing namespace is `default`, branch `main`): the same key with another body is refused rather
 * than answered. Fields sent as `false` or `null` count as left out, since on every store write those
 * mean the same as absence (`dry_run`, `create_only`, `delete`, `expected_revision`): one client
 * library spelling them out and another leaving them out send the same request.
 */
export function requestFingerprint(request: FastifyRequest): string {
  const canonical = JSON.stringify(withScopeDefaults(request.body ?? {}), (_key, value: unknown) =>
    value === false || value === null ? undefined : value,
  );
  return createHash('sha256').update(canonical).digest('hex');
}

/**
 * The body with what the engine reads an empty scope as spelt out: the schemas default the names to
 * `''`, so without this `{"branch":"main"}` and no branch at all would fingerprint differently.
 */
function withScopeDefaults(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const filled: Record<string, unknown> = { ...body };
  if (typeof filled.scope === 'object' && filled.scope !== null) {
    filled.scope = { ...filled.scope, ...normaliseScope(filled.scope as { namespace?: string; branch?: string }) };
  }
  // Branch deletion and rename, checkpoint deletion: a namespace of their own, no branch.
  if (typeof filled.namespace === 'string')
    filled.namespace = normaliseScope({ namespace: filled.namespace }).namespace;
  return filled;
}

/**
 * Whose keys these are: a SHA-256 of the caller's token, not its name, so two tokens configured under
 * one name still never share answers (and the secret itself is never stored); empty with auth disabled.
 */
function tokenScope(request: FastifyRequest): string {
  const token = request.storeGrant?.token;
  return token === undefined ? '' : createHash('sha256').update(token).digest('hex');
}

/**
 * Reads the key of an idempotent route's request into its slot (scoped to the token and the endpoint,
 * so one token never gets another's answer), and refuses with 409 a request whose slot another
 * request in this process still holds: two copies running at once would both write. Runs after
 * authentication, so a stranger learns nothing of others' keys. Copies in other processes on the same
 * database are serialised by the write lock instead; the later one gets the kept answer.
 */
export function registerIdempotencyKeys(app: FastifyInstance): void {
  const inFlight = new Set<string>();
  app.addHook('onRequest', async (request, reply) => {
    if (!request.routeOptions.config?.idempotent) return;
    const key = idempotencyKey(request);
    if (key === undefined) return;
    const slot = {
      token: tokenScope(request),
      endpoint: `${request.method} ${request.routeOptions.url ?? ''}`,
      key,
    };
    const held = JSON.stringify([slot.token, slot.endpoint, slot.key]);
    if (inFlight.has(held)) {
      throw conflict(`a request with Idempotency-Key "${key}" is still in progress; retry once it has been answered`, {
        conflict: { reason: 'in_progress' },
        headers: { 'retry-after': '1' },
      });
    }
    inFlight.add(held);
    reply.raw.once('close', () => inFlight.delete(held));
    request.idempotencySlot = slot;
  });
}
