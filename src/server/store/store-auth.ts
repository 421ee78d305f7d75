import type { FastifyRequest } from 'fastify';
import { bearerToken, missingBearerMessage, secretsEqual } from '../http/secrets.js';
import { forbidden, unauthorized } from '../http/errors.js';

/** What a route needs: declared as `config: { storeAuth: { verb } }` on each store route. */
export type StoreVerb = 'read' | 'write' | 'admin';

/** A configured store token with its grants (the secret itself never leaves this module's checks). */
export interface StoreTokenGrant {
  readonly name: string;
  readonly token: string;
  readonly verbs: readonly StoreVerb[];
  readonly namespaces: readonly string[];
}

/** Matches a namespace against a grant pattern: `*` anything, `team/*` a subtree, otherwise exact. */
export function namespaceMatches(pattern: string, namespace: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('/*')) {
    const base = pattern.slice(0, -2);
    return namespace === base || namespace.startsWith(`${base}/`);
  }
  return pattern === namespace;
}

/** Whether a grant's namespace patterns reach a namespace (everything without a grant: auth disabled). */
export function grantCovers(grant: StoreTokenGrant | undefined): (namespace: string) => boolean {
  return (namespace) => !grant || grant.namespaces.some((pattern) => namespaceMatches(pattern, namespace));
}

/**
 * The namespaces a grant may administer, as a filter; undefined means every one (a `*` grant, or auth
 * disabled), so whole-store operations such as gc stay whole-store for full access. Throws 403 when the
 * grant may administer none.
 */
export function administeredNamespaces(
  grant: StoreTokenGrant | undefined,
): ((namespace: string) => boolean) | undefined {
  if (!grant || (grant.verbs.includes('admin') && grant.namespaces.includes('*'))) return undefined;
  if (!grant.verbs.includes('admin') || grant.namespaces.length === 0) {
    throw forbidden(`token "${grant.name}" may administer no namespace`);
  }
  return grantCovers(grant);
}

function requestedNamespace(request: FastifyRequest): string | undefined {
  const body = request.body as { scope?: { namespace?: unknown }; namespace?: unknown } | undefined;
  const query = request.query as { namespace?: unknown } | undefined;
  const candidate = body?.scope?.namespace ?? body?.namespace ?? query?.namespace;
  return typeof candidate === 'string' && candidate !== '' ? candidate : candidate === '' ? 'default' : undefined;
}

/** Finds the grant for the request's bearer token, or throws 401. */
export function authenticateStoreToken(request: FastifyRequest, grants: readonly StoreTokenGrant[]): StoreTokenGrant {
  const token = bearerToken(request.headers.authorization);
  if (!token)
    throw unauthorized(
      missingBearerMessage('bearer token', 'STORE_TOKEN', request.headers.authorization, 'store.token'),
    );
  // Compare against every grant so timing does not reveal which one matched.
  let found: StoreTokenGrant | undefined;
  for (const grant of grants) if (secretsEqual(grant.token, token)) found ??= grant;
  if (!found) throw unauthorized('invalid store token');
  return found;
}

/** 403 for a token without `verb` on any namespace. */
export function refuseMissingVerb(grant: StoreTokenGrant, verb: StoreVerb): void {
  if (!grant.verbs.includes(verb)) throw forbidden(`token "${grant.name}" lacks the ${verb} permission`);
}

/** Throws 403 unless the grant covers the verb and the request's namespace. */
export function authorizeStoreRequest(request: FastifyRequest, grant: StoreTokenGrant, verb: StoreVerb): void {
  refuseMissingVerb(grant, verb);
  const namespace = requestedNamespace(request);
  if (namespace !== undefined && !grant.namespaces.some((pattern) => namespaceMatches(pattern, namespace))) {
    throw forbidden(`token "${grant.name}" is not granted namespace "${namespace}"`);
  }
}
