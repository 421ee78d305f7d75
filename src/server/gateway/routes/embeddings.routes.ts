import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { embeddingsRequestSchema } from '../formats/embeddings/embeddings-schema.js';
import { handleEmbeddings } from '../pipeline/embeddings.js';
import type { GatewayRouteOptions } from './route-options.js';
import { startPipeline } from './v1-hooks.js';

/** `POST /v1/embeddings`: usage and audit are committed before the answer. */
export const embeddingsRoutes: FastifyPluginAsync<GatewayRouteOptions> = async (app, { services }) => {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/embeddings',
    {
      schema: { body: embeddingsRequestSchema },
      onRequest: startPipeline('embeddings', '/v1/embeddings', services),
    },
    (request, reply) => handleEmbeddings(request, reply, services),
  );
};
