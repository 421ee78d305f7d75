import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { chatRequestSchema } from '../formats/chat/chat-schema.js';
import { handleConversation } from '../pipeline/conversation.js';
import type { GatewayRouteOptions } from './route-options.js';
import { startPipeline } from './v1-hooks.js';

/** `POST /v1/chat/completions` (no response schema: provider answers pass through as they are). */
export const chatRoutes: FastifyPluginAsync<GatewayRouteOptions> = async (app, { services }) => {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/chat/completions',
    {
      schema: { body: chatRequestSchema },
      onRequest: startPipeline('chat', '/v1/chat/completions', services),
    },
    (request, reply) => handleConversation('chat', request, reply, services),
  );
};
