import type { FastifyInstance } from 'fastify';
import { forbidden } from './errors.js';

/**
 * Lets the UI (served from the gateway's origin) call this app from a browser. Only listed origins are
 * answered: a web page elsewhere must never be able to drive a localhost service. `methods` are the
 * ones the app's routes answer, so a preflight promises nothing they would then refuse.
 */
export function allowOrigins(app: FastifyInstance, allowed: (origin: string) => boolean, methods: string): void {
  // Callback style: an async hook costs a promise on every request, and most carry no Origin.
  app.addHook('onRequest', (request, reply, done) => {
    const origin = request.headers.origin;
    if (!origin) {
      done();
      return;
    }
    if (!allowed(origin)) {
      // A preflight from elsewhere is told why, rather than "no route OPTIONS"; the browser refuses
      // the call either way. Other requests go on without CORS headers, so the browser hides the answer.
      if (request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined)
        done(
          forbidden(
            `origin '${origin.slice(0, 200)}' may not call this service from a browser: only the UI's own origin may`,
          ),
        );
      else done();
      return;
    }
    reply.header('access-control-allow-origin', origin);
    reply.header('vary', 'origin');
    reply.header('access-control-expose-headers', 'x-request-id, retry-after, etag, idempotent-replayed');
    if (request.method === 'OPTIONS') {
      reply.header('access-control-allow-methods', `${methods}, OPTIONS`);
      reply.header(
        'access-control-allow-headers',
        'authorization, content-type, x-request-id, idempotency-key, if-none-match',
      );
      reply.header('access-control-max-age', '600');
      reply.code(204).send();
      return;
    }
    done();
  });
}
