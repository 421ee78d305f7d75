import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { chatRoutes } from './chat.routes.js';
import { embeddingsRoutes } from './embeddings.routes.js';
import { messagesRoutes } from './messages.routes.js';
import { modelsRoutes } from './models.routes.js';
import type { GatewayRouteOptions } from './route-options.js';
import { installV1Hooks } from './v1-hooks.js';

/** The public inference API (`/v1/*`), every route behind the pipeline's hooks. */
export const v1Routes: FastifyPluginAsync<GatewayRouteOptions> = async (app, options) => {
  installV1Hooks(app as unknown as FastifyInstance, options.services);
  await app.register(chatRoutes, options);
  await app.register(messagesRoutes, options);
  await app.register(embeddingsRoutes, options);
  await app.register(modelsRoutes, options);
};
