import { useQuery } from '@tanstack/react-query';
import { tokenResponseSchema, type TokenResponse } from '../../../shared/store-api.js';
import { useApi } from './api-context.js';

/** What the signed-in store token may do in one namespace, or (without one) in any namespace at all. */
export interface StoreAccess {
  /** The token's name in `store.auth.tokens`; null without store auth, or while its grant is read. */
  readonly tokenName: string | null;
  readonly write: boolean;
  readonly admin: boolean;
}

/**
 * Under the namespace's prefix, so the invalidations that follow its writes reach it too; a grant
 * read across namespaces sits beside the namespace list, never under a namespace's name.
 */
const storeAccessKey = (namespace: string | undefined) =>
  namespace === undefined ? (['store', '#token'] as const) : (['store', namespace, 'token'] as const);

/** While the grant is unknown every action stays offered: the store refuses what it must anyway. */
const UNKNOWN: StoreAccess = { tokenName: null, write: true, admin: true };

function accessOf(grant: TokenResponse): StoreAccess {
  // Without a namespace: a verb counts when the token holds it on some namespace.
  const verbs = grant.namespace?.verbs ?? (grant.namespaces.length > 0 ? grant.verbs : []);
  return { tokenName: grant.name, write: verbs.includes('write'), admin: verbs.includes('admin') };
}

/**
 * Whether the store token may write to and administer `namespace` (any namespace when undefined),
 * from `GET /v1/token`, so a screen can show the actions it may not take as disabled rather than
 * let them end in a 403. Allowed while loading or when the grant cannot be read.
 */
export function useStoreAccess(namespace?: string): StoreAccess {
  const api = useApi();
  const grant = useQuery({
    queryKey: storeAccessKey(namespace),
    queryFn: ({ signal }) =>
      api.request('store', '/v1/token', {
        // As everywhere in the store, an empty namespace is `default` (an empty parameter would be left out).
        query: { namespace: namespace === '' ? 'default' : namespace },
        schema: tokenResponseSchema,
        signal,
      }),
  });
  return grant.data ? accessOf(grant.data) : UNKNOWN;
}
