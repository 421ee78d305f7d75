import type { FastifyInstance } from 'fastify';

/** `server.cors_origins`: any origin. */
export const ANY_ORIGIN = '*';

/**
 * Lets web pages on the configured origins call the model API (`/v1/*`) from a browser: a web app on
 * a dev server, a browser extension. The API takes keys as bearer tokens only, never cookies, so a
 * page can use no credential it was not given; the admin API (`/internal/*`) and the UI stay
 * same-origin whatever is listed. The preflight allows the headers the page asks for: the SDKs send
 * their own (`x-stainless-*`, `anthropic-version`), and `Authorization` is never covered by a wildcard.
 */
export function allowApiOrigins(app: FastifyInstance, origins: readonly string[]): void {
  if (origins.length === 0) return;
  const any = origins.includes(ANY_ORIGIN);
  const listed = new Set(origins);
  // Callback style: an async hook costs a promise on every request, and most carry no Origin.
  app.addHook('onRequest', (request, reply, done) => {
    const origin = request.headers.origin;
    if (origin === undefined || !request.url.startsWith('/v1/') || !(any || listed.has(origin))) {
      done();
      return;
    }
    reply.header('access-control-allow-origin', any ? ANY_ORIGIN : origin);
    if (!any) reply.header('vary', 'origin');
    // Request ids, waits and limits: what a client reads from an answer's headers.
    reply.header('access-control-expose-headers', '*');
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined) {
      reply.header('access-control-allow-methods', 'GET, POST, DELETE, OPTIONS');
      const asked = request.headers['access-control-request-headers'];
      if (asked) reply.header('access-control-allow-headers', asked);
      reply.header('access-control-max-age', '600');
      reply.code(204).send();
      return;
    }
    done();
  });
}
