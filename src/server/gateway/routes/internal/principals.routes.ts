import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParamsSchema } from '../../../../shared/gateway-api.js';
import {
  teamCreateSchema,
  teamListQuerySchema,
  teamListSchema,
  teamRecordSchema,
  teamUpdateSchema,
  userCreateSchema,
  userListQuerySchema,
  userListSchema,
  userRecordSchema,
  userUpdateSchema,
} from '../../../../shared/principals-api.js';
import { answerWithoutEchoingSecret, refuseMasterKeyAsBodyId } from './secret-as-id.js';

/** `DELETE /internal/users/{id}?revoke_keys=true`: the user's active keys are revoked with the user. */
const userDeleteQuerySchema = z.object({
  revoke_keys: z.enum(['true', 'false']).optional(),
});

/** `/internal/users` and `/internal/teams`: records with their limits, today's spend and where the limits stand. */
export const principalsRoutes: FastifyPluginAsync = async (app) => {
  const { principalsAdmin: admin, admin: keysAdmin, principals, masterKey } = app.gateway;
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const actor = (request: { id: string }) => ({ requestId: request.id });

  typed.get(
    '/teams',
    { schema: { querystring: teamListQuerySchema, response: { 200: teamListSchema } } },
    async (request) => admin.teams(request.query),
  );
  typed.post(
    '/teams',
    { schema: { body: teamCreateSchema, response: { 201: teamRecordSchema } } },
    async (request, reply) => {
      refuseMasterKeyAsBodyId(request.body, ['id'], masterKey);
      return reply.code(201).send(admin.createTeam(request.body, actor(request)));
    },
  );
  typed.get(
    '/teams/:id',
    { schema: { params: idParamsSchema, response: { 200: teamRecordSchema } } },
    async (request) => {
      return answerWithoutEchoingSecret(request.params.id, masterKey, 'team', () => admin.team(request.params.id));
    },
  );
  typed.patch(
    '/teams/:id',
    { schema: { params: idParamsSchema, body: teamUpdateSchema, response: { 200: teamRecordSchema } } },
    async (request) => {
      return answerWithoutEchoingSecret(request.params.id, masterKey, 'team', () =>
        admin.updateTeam(request.params.id, request.body, actor(request)),
      );
    },
  );
  typed.delete(
    '/teams/:id',
    { schema: { params: idParamsSchema, response: { 200: teamRecordSchema } } },
    async (request) => {
      return answerWithoutEchoingSecret(request.params.id, masterKey, 'team', () =>
        admin.deleteTeam(request.params.id, actor(request)),
      );
    },
  );

  typed.get(
    '/users',
    { schema: { querystring: userListQuerySchema, response: { 200: userListSchema } } },
    async (request) => {
      const { team, ...page } = request.query;
      return admin.users(team, page);
    },
  );
  typed.post(
    '/users',
    { schema: { body: userCreateSchema, response: { 201: userRecordSchema } } },
    async (request, reply) => {
      refuseMasterKeyAsBodyId(request.body, ['id', 'team'], masterKey);
      return reply.code(201).send(admin.createUser(request.body, actor(request)));
    },
  );
  typed.get(
    '/users/:id',
    { schema: { params: idParamsSchema, response: { 200: userRecordSchema } } },
    async (request) => {
      return answerWithoutEchoingSecret(request.params.id, masterKey, 'user', () => admin.user(request.params.id));
    },
  );
  typed.patch(
    '/users/:id',
    { schema: { params: idParamsSchema, body: userUpdateSchema, response: { 200: userRecordSchema } } },
    async (request) => {
      refuseMasterKeyAsBodyId(request.body, ['team'], masterKey);
      return answerWithoutEchoingSecret(request.params.id, masterKey, 'user', () =>
        admin.updateUser(request.params.id, request.body, actor(request)),
      );
    },
  );
  typed.delete(
    '/users/:id',
    { schema: { params: idParamsSchema, querystring: userDeleteQuerySchema, response: { 200: userRecordSchema } } },
    async (request) => {
      return answerWithoutEchoingSecret(request.params.id, masterKey, 'user', () => {
        if (request.query.revoke_keys !== 'true') return admin.deleteUser(request.params.id, actor(request));
        // Looked up first: the 404 of an unknown user, and today's usage written before the transaction.
        const id = admin.user(request.params.id).id;
        // Revoked as the admin API revokes a key (audited, and each SSO key's session ended with it),
        // and deleted with them: a failure leaves the user with every key, never half of them.
        return principals.inTransaction(() => {
          for (const key of principals.activeKeyIds(id)) keysAdmin.revokeKey(key, actor(request));
          return admin.deleteUser(id, actor(request));
        });
      });
    },
  );
};
