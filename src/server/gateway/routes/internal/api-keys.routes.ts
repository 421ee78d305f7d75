import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  apiKeyCreatedSchema,
  apiKeyCreateSchema,
  apiKeyListQuerySchema,
  apiKeyListSchema,
  apiKeyRecordSchema,
  apiKeyRotateSchema,
  apiKeyUpdateSchema,
  idParamsSchema,
} from '../../../../shared/gateway-api.js';
import { secretsEqual } from '../../../http/secrets.js';
import { GatewayError } from '../../gateway-error.js';
import { KEY_PREFIX } from '../../keys/key-secret.js';

/**
 * What is wrong with a key id that is a secret (a key's own, or the master key), or undefined when it
 * is none. The two are easily mixed up, and an answer echoing one would put it in every log that
 * keeps answers, so the value is never repeated.
 */
function secretAsId(value: string, masterKey: string): string | undefined {
  const find = "ids start with 'key_'; find the id in GET /internal/api-keys";
  if (secretsEqual(value, masterKey)) return `that is the master key, not an API key's id: ${find}`;
  if (value.startsWith(KEY_PREFIX))
    return `that is an API key's secret, not its id: ${find} (the secret's first characters are its key_prefix)`;
  return undefined;
}

/** Refuses a secret sent as the `:id` of a key route, as no key has that id, without echoing it. */
function refuseSecretAsId(id: string, masterKey: string): void {
  const problem = secretAsId(id, masterKey);
  if (problem !== undefined) throw new GatewayError('not_found', problem);
}

/** `/internal/api-keys`: issue (secret shown once), list, read, update, rotate (new secret shown once), revoke. */
export const apiKeysRoutes: FastifyPluginAsync = async (app) => {
  const { admin, masterKey } = app.gateway;
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.post(
    '/api-keys',
    { schema: { body: apiKeyCreateSchema, response: { 201: apiKeyCreatedSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return reply.code(201).send(admin.createKey(request.body, { requestId: request.id }));
    },
  );

  typed.get(
    '/api-keys',
    { schema: { querystring: apiKeyListQuerySchema, response: { 200: apiKeyListSchema } } },
    async (request) => {
      const cursorProblem = request.query.after === undefined ? undefined : secretAsId(request.query.after, masterKey);
      if (cursorProblem !== undefined) throw new GatewayError('invalid', `after: ${cursorProblem}`);
      return admin.listKeys({
        user: request.query.user,
        team: request.query.team,
        issuer: request.query.issuer,
        includeRevoked: request.query.include_revoked === 'true',
        limit: request.query.limit,
        after: request.query.after,
      });
    },
  );

  typed.get(
    '/api-keys/:id',
    { schema: { params: idParamsSchema, response: { 200: apiKeyRecordSchema } } },
    async (request) => {
      refuseSecretAsId(request.params.id, masterKey);
      return admin.getKey(request.params.id);
    },
  );

  typed.patch(
    '/api-keys/:id',
    { schema: { params: idParamsSchema, body: apiKeyUpdateSchema, response: { 200: apiKeyRecordSchema } } },
    async (request) => {
      refuseSecretAsId(request.params.id, masterKey);
      return admin.updateKey(request.params.id, request.body, { requestId: request.id });
    },
  );

  // Options are optional, and so is the body: a bare POST rotates with no grace period.
  typed.post(
    '/api-keys/:id/rotate',
    {
      schema: { params: idParamsSchema, body: apiKeyRotateSchema.nullish(), response: { 200: apiKeyCreatedSchema } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      refuseSecretAsId(request.params.id, masterKey);
      return admin.rotateKey(request.params.id, request.body ?? {}, { requestId: request.id });
    },
  );

  typed.delete(
    '/api-keys/:id',
    { schema: { params: idParamsSchema, response: { 200: apiKeyRecordSchema } } },
    async (request) => {
      refuseSecretAsId(request.params.id, masterKey);
      return admin.revokeKey(request.params.id, { requestId: request.id });
    },
  );
};
