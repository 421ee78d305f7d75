import type { FastifyInstance } from 'fastify';

/**
 * Lets the UI (served from the gateway's origin) call this app from a browser. Only listed origins are
 * answered: a web page elsewhere must never be able to drive a localhost service.
 */
export function allowOrigins(app: FastifyInstance, origins: () => readonly string[]): void {
  app.addHook('onRequest', async (request, reply) => {
    const origin = request.headers.origin;
    if (!origin || !origins().includes(origin)) return;
    reply.header('access-control-allow-origin', origin);
    reply.header('vary', 'origin');
    reply.header('access-control-expose-headers', 'x-request-id, retry-after');
    if (request.method === 'OPTIONS') {
      reply.header('access-control-allow-methods', 'GET, POST, PATCH, PUT, DELETE, OPTIONS');
      reply.header('access-control-allow-headers', 'authorization, content-type, x-request-id');
      reply.header('access-control-max-age', '600');
      return reply.code(204).send();
    }
  });
}
