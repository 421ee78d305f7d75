import type { FastifyPluginAsync } from 'fastify';
import { chatRequestSchema } from '../formats/chat/chat-schema.js';
import { postInference } from '../pipeline/pipeline.js';
import { conversationEndpoint } from './conversation-endpoint.js';

/** `POST /v1/chat/completions` (no response schema: provider answers pass through as they are). */
export const chatRoutes: FastifyPluginAsync = async (app) => {
  postInference(app, conversationEndpoint('chat', '/v1/chat/completions', app.gateway), { body: chatRequestSchema });
};
