import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError, ERROR_STATUS, badRequest, unauthorized } from '../../../http/errors.js';
import { bearerToken, missingBearerMessage } from '../../../http/secrets.js';
import {
  ssoCallbackQuerySchema,
  ssoFailureSchema,
  ssoIssuedKeySchema,
  ssoLoginQuerySchema,
  ssoLogoutResultSchema,
  ssoProviderListSchema,
  ssoRedeemSchema,
} from '../../../../shared/sso-api.js';
import { SsoError } from '../../sso/sso-errors.js';
import { z } from 'zod';
import { canonicalHostName } from '../../../http/host-check.js';
import { renderCallbackErrorPage } from './callback-error-page.js';
import { CONSENT_PAGE_HEADERS } from './consent-page.js';
import { consentRoutes } from './consent.routes.js';
import { ensureBinding, readBinding } from './sso-cookie.js';

/** The loopback names a browser on this machine reaches the gateway by. */
const LOOPBACK_NAMES: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

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
  const ownNames = new Set(config.server.allowed_hosts.map(canonicalHostName));
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
      const { provider, return_to: returnTo, challenge, moved } = request.query;
      // HTTP/1.0 may leave Host out (health checkers do); a sign-in needs it for every address it makes.
      if (!request.host)
        throw badRequest('the Host header is missing; /sso/login needs it to build the addresses of the sign-in');
      const origin = `${request.protocol}://${request.host}`;
      // The cookie must be set on the host the provider sends the browser back to, or the callback
      // finds none: a sign-in reached under another name (localhost for 127.0.0.1, an alias) starts
      // again there, coming back afterwards to the page it started from.
      const callbackOrigin = sso.callbackOrigin(provider);
      if (callbackOrigin !== undefined && new URL(callbackOrigin).host !== request.host && moved === undefined) {
        const back = returnTo.startsWith('/') && !returnTo.startsWith('//') ? new URL(returnTo, origin) : returnTo;
        const query = new URLSearchParams({ provider, return_to: back.toString(), challenge, moved: '1' });
        return reply.headers(noStore).redirect(`${callbackOrigin}/sso/login?${query}`, 302);
      }
      const binding = ensureBinding(request, reply, config.sso.login_timeout_seconds);
      let location: string;
      try {
        location = await sso.startLogin({
          provider,
          returnTo,
          challenge,
          binding,
          gatewayOrigin: origin,
          ownName: (hostname) => LOOPBACK_NAMES.has(hostname) || ownNames.has(canonicalHostName(hostname)),
        });
      } catch (error) {
        // The cookie goes out with the redirect only: a refused sign-in (a return_to not allowed)
        // started nothing the browser needs to be bound to.
        reply.removeHeader('set-cookie');
        throw error;
      }
      return reply.headers(noStore).redirect(location, 302);
    },
  );

  typed.get('/callback', { schema: { querystring: ssoCallbackQuerySchema } }, async (request, reply) => {
    try {
      const outcome = await sso.callback(request.query, readBinding(request), request.id);
      return reply.headers(noStore).redirect(outcome.redirect, 302);
    } catch (error) {
      // A person, not a program, reads this: the browser was sent here by the provider.
      if (!(error instanceof SsoError) || !request.headers.accept?.includes('text/html')) throw error;
      return reply
        .code(ERROR_STATUS[error.type])
        .headers(CONSENT_PAGE_HEADERS)
        .send(renderCallbackErrorPage(error.message));
    }
  });

  typed.get(
    '/failures/:ref',
    {
      schema: {
        params: z.object({ ref: z.string().min(1).max(100) }),
        response: { 200: ssoFailureSchema },
      },
    },
    async (request, reply) => {
      const failure = sso.failure(request.params.ref);
      if (failure === undefined)
        throw new SsoError('not_found_error', 'this failed sign-in is unknown or too old to look up');
      return reply.headers(noStore).send(failure);
    },
  );

  typed.post(
    '/redeem',
    { schema: { body: ssoRedeemSchema, response: { 201: ssoIssuedKeySchema } } },
    async (request, reply) =>
      reply
        .code(201)
        .headers(noStore)
        .send(await sso.redeem(request.body, request.id)),
  );

  typed.post('/logout', { schema: { response: { 200: ssoLogoutResultSchema } } }, async (request) => {
    const key = bearerToken(request.headers.authorization);
    if (key === undefined)
      throw unauthorized(missingBearerMessage('API key', 'the key to sign out', request.headers.authorization));
    return sso.logout(key, request.id);
  });
};
