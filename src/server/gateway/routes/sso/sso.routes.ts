import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError, ERROR_STATUS, badRequest, unauthorized } from '../../../http/errors.js';
import { bearerToken, missingBearerMessage } from '../../../http/secrets.js';
import {
  ssoCallbackQuerySchema,
  ssoFailureSchema,
  ssoIssuedKeySchema,
  ssoLoginQuerySchema,
  ssoLogoutAllResultSchema,
  ssoLogoutResultSchema,
  ssoProviderListSchema,
  ssoRedeemSchema,
} from '../../../../shared/sso-api.js';
import { SsoError } from '../../sso/sso-errors.js';
import { z } from 'zod';
import { canonicalHostName } from '../../../http/host-check.js';
import { recordAction } from '../../accounting/record-action.js';
import { CONSENT_PATH } from '../../sso/loopback-consent.js';
import { publicFailureMessage, renderCallbackErrorPage, type ProviderName } from './callback-error-page.js';
import { CONSENT_PAGE_HEADERS } from './consent-page.js';
import { consentRoutes } from './consent.routes.js';
import { clearBinding, dropOldBindings, newBinding, readBinding, setBinding } from './sso-cookie.js';

/** `POST /sso/logout?all=true`: every key of the account at this provider, not only the one presented. */
const logoutQuerySchema = z.object({
  all: z.enum(['true', 'false']).optional(),
});

/** What signing out everywhere did: the presented key's sign-out, and every key revoked with it. */
/** The loopback names a browser on this machine reaches the gateway by. */
const LOOPBACK_NAMES: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * `/sso/*`: sign-in with an OpenID provider (login, callback), the user's confirmation of a hand-off
 * to a program on a loopback port (consent), the one-time hand-off of the issued key (redeem), and
 * sign-out with the key itself. No master key: these are for the users.
 */
export const ssoRoutes: FastifyPluginAsync = async (app) => {
  const { sso, config, keys, audit, bus } = app.gateway;
  const typed = app.withTypeProvider<ZodTypeProvider>();
  app.setErrorHandler((error) => {
    throw error instanceof SsoError ? new AppError(error.type, error.message) : error;
  });
  const noStore = { 'cache-control': 'no-store' };
  const ownNames = new Set(config.server.allowed_hosts.map(canonicalHostName));
  const providerNames: ProviderName[] = sso
    .providers()
    .map(({ id, name }) => ({ issuer: config.sso.providers[id]!.issuer, name }));
  /** A failed sign-in's redirect to a program on a loopback port, its description without the account's details. */
  const publicRedirect = (location: string): string => {
    const url = new URL(location);
    const description = url.searchParams.get('error_description');
    if (!url.searchParams.has('error') || description === null) return location;
    url.searchParams.set('error_description', publicFailureMessage(description, providerNames));
    return url.toString();
  };
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
      // Chosen here for this sign-in alone: a value the browser brings may have been set by a page on
      // another port of this machine, which would then know the binding.
      const binding = newBinding();
      const location = await sso.startLogin({
        provider,
        returnTo,
        challenge,
        binding,
        gatewayOrigin: origin,
        ownName: (hostname) => LOOPBACK_NAMES.has(hostname) || ownNames.has(canonicalHostName(hostname)),
      });
      // The cookie goes out with the redirect to the provider only (its address carries the state); a
      // provider that cannot be used sends the browser back with `error`, bound to nothing.
      const sent = new URL(location);
      const state = sent.searchParams.get('state');
      if (state !== null && !sent.searchParams.has('error')) {
        dropOldBindings(request, reply);
        setBinding(request, reply, state, binding, config.sso.login_timeout_seconds);
      }
      return reply.headers(noStore).redirect(publicRedirect(location), 302);
    },
  );

  typed.get('/callback', { schema: { querystring: ssoCallbackQuerySchema } }, async (request, reply) => {
    const { state } = request.query;
    try {
      const binding = readBinding(request, state);
      const outcome = await sso.callback(request.query, binding, request.id);
      // The state is used up: its cookie goes. A confirmation page comes next for a program on a
      // loopback port, bound to this browser under the confirmation's own name.
      clearBinding(request, reply, state!);
      if (outcome.redirect.startsWith(`${CONSENT_PATH}?`)) {
        const consent = new URLSearchParams(outcome.redirect.slice(CONSENT_PATH.length + 1)).get('request')!;
        setBinding(request, reply, consent, binding!, config.sso.login_timeout_seconds);
        return reply.headers(noStore).redirect(outcome.redirect, 302);
      }
      return reply.headers(noStore).redirect(publicRedirect(outcome.redirect), 302);
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
      return reply
        .headers(noStore)
        .send({ type: failure.type, message: publicFailureMessage(failure.message, providerNames) });
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

  typed.post(
    '/logout',
    {
      schema: {
        querystring: logoutQuerySchema,
        response: { 200: z.union([ssoLogoutAllResultSchema, ssoLogoutResultSchema]) },
      },
    },
    async (request) => {
      const key = bearerToken(request.headers.authorization);
      if (key === undefined)
        throw unauthorized(missingBearerMessage('API key', 'the key to sign out', request.headers.authorization));
      const signedOut = await sso.logout(key, request.id);
      return request.query.all === 'true'
        ? { ...signedOut, ...revokeRest(signedOut.session_id, request.id) }
        : signedOut;
    },
  );

  /**
   * Signing out everywhere: revokes the other keys the same account (issuer and subject) holds at the
   * same provider. Revoking a key ends its session and revokes its refresh token at the provider (the
   * sessions follow the keys), as an admin's revocation does. Counts the presented key too.
   */
  const revokeRest = (sessionId: string, requestId: string): { revoked_keys: number; key_ids: string[] } => {
    const own = sso.sessions.session(sessionId);
    const revoked = [own.key_id];
    const rest = sso.sessions
      .listSessions({ provider: own.provider, includeEnded: false })
      .filter((session) => session.issuer === own.issuer && session.subject === own.subject);
    for (const session of rest) {
      const before = keys.get(session.key_id);
      if (before === undefined || before.revokedAt !== null) continue;
      keys.revoke(session.key_id, requestId);
      revoked.push(session.key_id);
      const entry = {
        createdAt: Date.now(),
        actor: `sso:${own.provider}`,
        action: 'api_key.revoke',
        target: session.key_id,
        requestId,
        details: { name: before.name, reason: 'signed out everywhere' },
      };
      recordAction(audit, bus, entry, { topic: 'api-keys', ids: [session.key_id] });
    }
    return { revoked_keys: revoked.length, key_ids: revoked };
  };
};
