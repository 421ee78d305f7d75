import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { embeddingsRequestSchema } from '../formats/embeddings/embeddings-schema.js';
import { handleEmbeddings } from '../pipeline/embeddings.js';
import type { GatewayRouteOptions, V1RouteConfig } from './route-options.js';

/** `POST /v1/embeddings`: usage and audit are committed before the answer. */
export const embeddingsRoutes: FastifyPluginAsync<GatewayRouteOptions> = async (app, { services }) => {
  app.withTypeProvider<ZodTypeProvider>().post('/v1/embeddings', {
    schema: { body: embeddingsRequestSchema },
    config: { endpoint: 'embeddings' } satisfies V1RouteConfig,
  }, (request, reply) => handleEmbeddings(request, reply, services));
};
