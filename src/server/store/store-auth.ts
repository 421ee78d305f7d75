import type { FastifyRequest } from 'fastify';
import { bearerToken, generatedFileText, missingBearerMessage, secretsEqual } from '../http/secrets.js';
import { forbidden, unauthorized } from '../http/errors.js';
import { isIssuedKey } from '../gateway/keys/key-secret.js';

/** What a route needs: declared as `config: { storeAuth: { verb } }` on each store route. */
export type StoreVerb = 'read' | 'write' | 'admin';

/** A configured store token with its grants (the secret itself never leaves this module's checks). */
export interface StoreTokenGrant {
  readonly name: string;
  readonly token: string;
  readonly verbs: readonly StoreVerb[];
  readonly namespaces: readonly string[];
  /** Branch patterns the token may change (`*`, a name, or a prefix such as `agent-*`); absent: every branch. */
  readonly branches?: readonly string[];
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
  if (!found) throw unauthorized(`invalid store token${gatewaySecretHint(token)}`);
  return found;
}

/** The start of a master key the server generated (a PROXY_MASTER_KEY set by hand may look like anything). */
const GENERATED_MASTER_KEY_PREFIX = 'gk-master-';

/**
 * What a refused token is told when its shape says it is one of the gateway's secrets, the mistake a
 * newcomer makes with the two servers' credentials (the gateway tells the reverse ones apart too). Only
 * the prefix is read, as the gateway reads an API key's; the token itself is never echoed.
 */
function gatewaySecretHint(token: string): string {
  if (!isIssuedKey(token)) return '';
  const what = token.toLowerCase().startsWith(GENERATED_MASTER_KEY_PREFIX)
    ? "the gateway's master key (for its /internal/*)"
    : 'an API key of the gateway (gk-…, for its /v1/*)';
  return `: this looks like ${what}; the store takes STORE_TOKEN (or ${generatedFileText('store.token')})`;
}

/** 403 for a token without `verb` on any namespace. */
export function refuseMissingVerb(grant: StoreTokenGrant, verb: StoreVerb): void {
  if (!grant.verbs.includes(verb)) throw forbidden(`token "${grant.name}" lacks the ${verb} permission`);
}

/**
 * Throws 403 unless the grant covers the verb and the request's namespace, and, for a change, the
 * branches it changes.
 */
export function authorizeStoreRequest(request: FastifyRequest, grant: StoreTokenGrant, verb: StoreVerb): void {
  refuseMissingVerb(grant, verb);
  const namespace = requestedNamespace(request);
  if (namespace !== undefined && !grant.namespaces.some((pattern) => namespaceMatches(pattern, namespace))) {
    throw forbidden(`token "${grant.name}" is not granted namespace "${namespace}"`);
  }
  if (verb !== 'read') refuseBranchesOutsideGrant(request, grant);
}

/** Matches a branch against a grant pattern: `*` anything, `agent-*` a prefix, otherwise exact. */
export function branchMatches(pattern: string, branch: string): boolean {
  return pattern.endsWith('*') ? branch.startsWith(pattern.slice(0, -1)) : pattern === branch;
}

/** Whether a grant may change only some branches (auth disabled, no `branches` or a `*` one: every branch). */
export function limitedToBranches(
  grant: StoreTokenGrant | undefined,
): grant is StoreTokenGrant & { branches: string[] } {
  return grant?.branches !== undefined && !grant.branches.includes('*');
}

/** What a change touches: the branches it changes, or why it reaches past any one branch. */
type ChangeTarget = { readonly branches: readonly string[] } | { readonly beyondBranches: string };

/** A branch as the body names it; empty or absent, as everywhere in the store, `main`. */
const branchNamed = (value: unknown): string => (typeof value === 'string' && value !== '' ? value : 'main');

const NOT_LIMITED = 'a token not limited to branches';

/**
 * The branches a change writes, read from its validated body: the new name of a branch being created
 * (its source is only read), both names of a rename, and otherwise the scope's branch (a merge's
 * `from_branch` is only read). A change without a scope (gc, a checkpoint deletion) reaches the whole
 * namespace, and so does moving a checkpoint; a checkpoint creation targets its scope's branch here,
 * and whether it would move an existing one is decided by {@link refuseCheckpointMove}, where the
 * checkpoints route knows whether that one exists.
 */
function changeTarget(request: FastifyRequest): ChangeTarget {
  const body = (request.body ?? {}) as Record<string, unknown>;
  const scope = body.scope as { branch?: unknown } | undefined;
  const endpoint = `${request.method} ${request.routeOptions.url ?? ''}`;
  switch (endpoint) {
    case 'POST /v1/branches':
    case 'DELETE /v1/branches':
      return { branches: [branchNamed(body.name)] };
    case 'POST /v1/branches/rename':
      return { branches: [branchNamed(body.name), branchNamed(body.new_name)] };
    case 'POST /v1/checkpoints':
      return { branches: [branchNamed(scope?.branch)] };
    case 'DELETE /v1/checkpoints':
      return { beyondBranches: `checkpoints are namespace-wide: deleting one needs ${NOT_LIMITED}` };
    default:
      // A change with no scope naming its branch works on the whole namespace (gc): refused, not guessed at.
      return scope !== null && typeof scope === 'object'
        ? { branches: [branchNamed(scope.branch)] }
        : { beyondBranches: `${endpoint} works on the whole namespace, which needs ${NOT_LIMITED}` };
  }
}

/** A limited grant's branch patterns as a message lists them: `"agent-*", "scratch"`. */
const patternsOf = (grant: StoreTokenGrant & { branches: string[] }): string =>
  grant.branches.map((pattern) => `"${pattern}"`).join(', ');

/**
 * Throws 403 when a grant limited to branches would move checkpoint `name`, which `exists` says is
 * there (creating one is a change of the scope's branch alone): checkpoints belong to the namespace,
 * and one that moves can stop protecting a revision another branch's writer relied on.
 */
export function refuseCheckpointMove(grant: StoreTokenGrant | undefined, name: string, exists: () => boolean): void {
  if (!limitedToBranches(grant) || !exists()) return;
  throw forbidden(
    `token "${grant.name}" is limited to branches ${patternsOf(grant)}: checkpoint "${name}" exists, and moving it ` +
      `needs ${NOT_LIMITED} (checkpoints are namespace-wide); choose another name to create one`,
  );
}

/** Throws 403 when a grant limited to branches changes a branch outside them, or the whole namespace. */
function refuseBranchesOutsideGrant(request: FastifyRequest, grant: StoreTokenGrant): void {
  if (!limitedToBranches(grant)) return;
  const patterns = patternsOf(grant);
  const target = changeTarget(request);
  if ('beyondBranches' in target)
    throw forbidden(`token "${grant.name}" is limited to branches ${patterns}: ${target.beyondBranches}`);
  const outside = target.branches.find((branch) => !grant.branches.some((pattern) => branchMatches(pattern, branch)));
  if (outside !== undefined)
    throw forbidden(
      `token "${grant.name}" may not change branch "${outside}": it may change only branches ${patterns}`,
    );
}
