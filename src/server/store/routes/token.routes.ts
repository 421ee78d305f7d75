import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { tokenQuerySchema, tokenResponseSchema, type TokenResponse } from '../../../shared/store-api.js';
import { grantCovers, limitedToBranches, type StoreTokenGrant } from '../store-auth.js';
import { errorResponses } from './operation.js';

const EVERY_VERB = ['read', 'write', 'admin'] as const;

/**
 * GET /v1/token (Gatehouse extension): what the caller's token may do, so a script or the UI can tell
 * before it tries (and is refused with 403). Any valid token may ask, a write-only one included; the
 * answer never holds the token.
 */
export const tokenRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/v1/token',
    {
      config: { storeAuth: { verb: 'any' } },
      schema: { querystring: tokenQuerySchema, response: { 200: tokenResponseSchema, ...errorResponses } },
    },
    async (request) => describeGrant(request.storeGrant, request.query.namespace),
  );
};

function describeGrant(grant: StoreTokenGrant | undefined, namespace: string | undefined): TokenResponse {
  const verbs = grant ? [...grant.verbs] : [...EVERY_VERB];
  const described: TokenResponse = {
    auth: grant !== undefined,
    name: grant?.name ?? null,
    verbs,
    namespaces: grant ? [...grant.namespaces] : ['*'],
    ...(limitedToBranches(grant) ? { branches: [...grant.branches] } : {}),
  };
  if (namespace === undefined) return described;
  // As everywhere in the store, an empty namespace is `default`.
  const name = namespace || 'default';
  return { ...described, namespace: { name, verbs: grantCovers(grant)(name) ? verbs : [] } };
}
