import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { chatRequestSchema } from '../formats/chat/chat-schema.js';
import { beginPipeline, runPipeline } from '../pipeline/pipeline.js';
import { conversationEndpoint } from './conversation-endpoint.js';

/** `POST /v1/chat/completions` (no response schema: provider answers pass through as they are). */
export const chatRoutes: FastifyPluginAsync = async (app) => {
  const endpoint = conversationEndpoint('chat', '/v1/chat/completions', app.gateway);
  app
    .withTypeProvider<ZodTypeProvider>()
    .post(
      endpoint.path,
      { schema: { body: chatRequestSchema }, onRequest: beginPipeline(endpoint.endpoint, endpoint.path, app.gateway) },
      runPipeline(endpoint),
    );
};
