import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError, unauthorized } from '../../../http/errors.js';
import { bearerToken, missingBearerMessage } from '../../../http/secrets.js';
import {
  ssoCallbackQuerySchema,
  ssoIssuedKeySchema,
  ssoLoginQuerySchema,
  ssoLogoutResultSchema,
  ssoProviderListSchema,
  ssoRedeemSchema,
} from '../../../../shared/sso-api.js';
import { SsoError } from '../../sso/sso-errors.js';
import { consentRoutes } from './consent.routes.js';
import { ensureBinding, readBinding } from './sso-cookie.js';

/**
 * `/sso/*`: sign-in with an OpenID provider (login, callback), the user's confirmation of a hand-off
 * to a program on a loopback port (consent), the one-time hand-off of the issued key (redeem), and
 * sign-out with the key itself. No master key: these are for the users.
 */
export const ssoRoutes: FastifyPluginAsync = async (app) => {
  const { sso, config } = app.gateway;
  const typed = app.withTypeProvider<ZodTypeProvider>();
  app.setErrorHandler((error) => {
    throw error instanceof SsoError ? new AppError(error.type, error.message) : error;
  });
  const noStore = { 'cache-control': 'no-store' };
  await app.register(consentRoutes);

  typed.get('/providers', { schema: { response: { 200: ssoProviderListSchema } } }, async () => ({
    data: sso.providers(),
  }));

  typed.get(
    '/login',
    {
      schema: { querystring: ssoLoginQuerySchema },
      // The provider first: a name that is not configured is the likelier mistake than the rest.
      preValidation: async (request) => {
        const { provider } = request.query as Record<string, unknown>;
        if (typeof provider === 'string' && provider !== '') sso.assertProvider(provider);
      },
    },
    async (request, reply) => {
      const binding = ensureBinding(request, reply, config.sso.login_timeout_seconds);
      const location = await sso.startLogin({
        provider: request.query.provider,
        returnTo: request.query.return_to,
        challenge: request.query.challenge,
        binding,
        gatewayOrigin: `${request.protocol}://${request.host}`,
      });
      return reply.headers(noStore).redirect(location, 302);
    },
  );

  typed.get('/callback', { schema: { querystring: ssoCallbackQuerySchema } }, async (request, reply) => {
    const outcome = await sso.callback(request.query, readBinding(request), request.id);
    return reply.headers(noStore).redirect(outcome.redirect, 302);
  });

  typed.post(
    '/redeem',
    { schema: { body: ssoRedeemSchema, response: { 201: ssoIssuedKeySchema } } },
    async (request, reply) => reply.code(201).headers(noStore).send(sso.redeem(request.body, request.id)),
  );

  typed.post('/logout', { schema: { response: { 200: ssoLogoutResultSchema } } }, async (request) => {
    const key = bearerToken(request.headers.authorization);
    if (key === undefined)
      throw unauthorized(missingBearerMessage('API key', 'the key to sign out', request.headers.authorization));
    return sso.logout(key, request.id);
  });
};
