import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParamsSchema } from '../../../../shared/gateway-api.js';
import {
  ssoRefreshResultSchema,
  ssoSessionListQuerySchema,
  ssoSessionListSchema,
  ssoSessionRecordSchema,
} from '../../../../shared/sso-api.js';
import { AppError } from '../../../http/errors.js';
import { SsoError } from '../../sso/sso-errors.js';

/** `/internal/sso/*`: the sessions behind SSO-issued keys; check them now, or end one (its key is revoked). */
export const internalSsoRoutes: FastifyPluginAsync = async (app) => {
  const { sso } = app.gateway;
  const typed = app.withTypeProvider<ZodTypeProvider>();
  app.setErrorHandler((error) => {
    throw error instanceof SsoError ? new AppError(error.type, error.message) : error;
  });

  typed.get(
    '/sso/sessions',
    { schema: { querystring: ssoSessionListQuerySchema, response: { 200: ssoSessionListSchema } } },
    async (request) => ({
      data: sso.sessions.listSessions({
        provider: request.query.provider,
        includeEnded: request.query.include_ended === 'true',
      }),
    }),
  );

  typed.get(
    '/sso/sessions/:id',
    { schema: { params: idParamsSchema, response: { 200: ssoSessionRecordSchema } } },
    async (request) => sso.sessions.session(request.params.id),
  );

  typed.post(
    '/sso/sessions/:id/refresh',
    { schema: { params: idParamsSchema, response: { 200: ssoSessionRecordSchema } } },
    async (request) => sso.sessions.refreshSession(request.params.id, request.id),
  );

  typed.delete(
    '/sso/sessions/:id',
    { schema: { params: idParamsSchema, response: { 200: ssoSessionRecordSchema } } },
    async (request) => sso.sessions.endByAdmin(request.params.id, request.id),
  );

  typed.post('/sso/refresh', { schema: { response: { 200: ssoRefreshResultSchema } } }, async (request) =>
    sso.sessions.refreshAll(request.id, false),
  );
};
