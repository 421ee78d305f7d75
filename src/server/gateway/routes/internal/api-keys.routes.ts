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
import { GatewayError } from '../../gateway-error.js';
import { refuseMasterKeyAsBodyId, refuseSecretAsPathId, secretAsId } from './secret-as-id.js';

/** `/internal/api-keys`: issue (secret shown once), list, read, update, rotate (new secret shown once), revoke. */
export const apiKeysRoutes: FastifyPluginAsync = async (app) => {
  const { admin, masterKey } = app.gateway;
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.post(
    '/api-keys',
    { schema: { body: apiKeyCreateSchema, response: { 201: apiKeyCreatedSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      refuseMasterKeyAsBodyId(request.body, ['user', 'team'], masterKey);
      return reply.code(201).send(admin.createKey(request.body, { requestId: request.id }));
    },
  );

  typed.get(
    '/api-keys',
    { schema: { querystring: apiKeyListQuerySchema, response: { 200: apiKeyListSchema } } },
    async (request) => {
      const cursorProblem =
        request.query.after === undefined ? undefined : secretAsId(request.query.after, masterKey, 'key');
      if (cursorProblem !== undefined) throw new GatewayError('invalid', `after: ${cursorProblem}`);
      const { status, include_revoked: includeRevoked } = request.query;
      // Answering nothing would read as "no key is revoked".
      if (status === 'revoked' && includeRevoked === 'false')
        throw new GatewayError(
          'invalid',
          'status: revoked keys are what include_revoked=false leaves out; send one of the two',
        );
      return admin.listKeys({
        user: request.query.user,
        team: request.query.team,
        issuer: request.query.issuer,
        includeRevoked: includeRevoked === 'true',
        status,
        name: request.query.name,
        limit: request.query.limit,
        after: request.query.after,
      });
    },
  );

  typed.get(
    '/api-keys/:id',
    { schema: { params: idParamsSchema, response: { 200: apiKeyRecordSchema } } },
    async (request) => {
      refuseSecretAsPathId(request.params.id, masterKey, 'key');
      return admin.getKey(request.params.id);
    },
  );

  typed.patch(
    '/api-keys/:id',
    { schema: { params: idParamsSchema, body: apiKeyUpdateSchema, response: { 200: apiKeyRecordSchema } } },
    async (request) => {
      refuseSecretAsPathId(request.params.id, masterKey, 'key');
      refuseMasterKeyAsBodyId(request.body, ['user', 'team'], masterKey);
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
      refuseSecretAsPathId(request.params.id, masterKey, 'key');
      return admin.rotateKey(request.params.id, request.body ?? {}, { requestId: request.id });
    },
  );

  typed.delete(
    '/api-keys/:id',
    { schema: { params: idParamsSchema, response: { 200: apiKeyRecordSchema } } },
    async (request) => {
      refuseSecretAsPathId(request.params.id, masterKey, 'key');
      return admin.revokeKey(request.params.id, { requestId: request.id });
    },
  );
};
