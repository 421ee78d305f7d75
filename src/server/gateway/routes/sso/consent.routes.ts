import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { forbidden } from '../../../http/errors.js';
import { CONSENT_PAGE_HEADERS, renderConsentPage } from './consent-page.js';
import { clearBinding, readBinding } from './sso-cookie.js';

/** The confirmation page's form, as the browser posts it. */
const consentFormSchema = z.object({
  request: z.string().min(1).max(200),
  token: z.string().min(1).max(200),
  decision: z.enum(['allow', 'deny']),
});

/**
 * `/sso/consent`: the user allows or denies the hand-off of a sign-in to a program on a loopback
 * port. GET shows the question, POST takes the answer and sends the browser on to the program.
 */
export const consentRoutes: FastifyPluginAsync = async (app) => {
  const { sso } = app.gateway;
  const typed = app.withTypeProvider<ZodTypeProvider>();
  // A plain HTML form posts this; only this plugin takes it.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  typed.get(
    '/consent',
    { schema: { querystring: z.object({ request: z.string().min(1).max(200) }) } },
    async (request, reply) => {
      const view = sso.consent(request.query.request, readBinding(request, request.query.request));
      return reply.code(200).headers(CONSENT_PAGE_HEADERS).send(renderConsentPage(view));
    },
  );

  typed.post('/consent', { schema: { body: consentFormSchema } }, async (request, reply) => {
    assertOwnPage(request);
    const { request: id, token, decision } = request.body;
    const location = sso.answerConsent({ request: id, token, allow: decision === 'allow' }, readBinding(request, id));
    clearBinding(request, reply, id);
    return reply.headers({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' }).redirect(location, 303);
  });
};

/**
 * Refuses an answer a browser says another page sent. The form's token is what stops a forgery; this
 * only turns one away sooner. The page's `no-referrer` makes browsers send `Origin: null` for it.
 */
function assertOwnPage(request: FastifyRequest): void {
  const origin = request.headers.origin;
  const site = request.headers['sec-fetch-site'];
  const own = `${request.protocol}://${request.host}`;
  if ((origin !== undefined && origin !== 'null' && origin !== own) || (site !== undefined && site !== 'same-origin'))
    throw forbidden("this answer did not come from the gateway's confirmation page");
}
