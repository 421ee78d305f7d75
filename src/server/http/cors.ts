import type { FastifyInstance } from 'fastify';

/**
 * Lets the UI (served from the gateway's origin) call this app from a browser. Only listed origins are
 * answered: a web page elsewhere must never be able to drive a localhost service.
 */
export function allowOrigins(app: FastifyInstance, allowed: (origin: string) => boolean): void {
  // Callback style: an async hook costs a promise on every request, and most carry no Origin.
  app.addHook('onRequest', (request, reply, done) => {
    const origin = request.headers.origin;
    if (!origin || !allowed(origin)) {
      done();
      return;
    }
    reply.header('access-control-allow-origin', origin);
    reply.header('vary', 'origin');
    reply.header('access-control-expose-headers', 'x-request-id, retry-after');
    if (request.method === 'OPTIONS') {
      reply.header('access-control-allow-methods', 'GET, POST, PATCH, PUT, DELETE, OPTIONS');
      reply.header('access-control-allow-headers', 'authorization, content-type, x-request-id');
      reply.header('access-control-max-age', '600');
      reply.code(204).send();
      return;
    }
    done();
  });
}
