import type { FastifyPluginAsync } from 'fastify';
import { messagesRequestSchema } from '../formats/messages/messages-schema.js';
import { messagesVersionHeadersSchema } from '../formats/messages/version-headers.js';
import { postInference } from '../pipeline/pipeline.js';
import { conversationEndpoint } from './conversation-endpoint.js';

/** `POST /v1/messages`, answering errors in Anthropic's envelope (`type: "error"` beside `error`). */
export const messagesRoutes: FastifyPluginAsync = async (app) => {
  postInference(app, conversationEndpoint('messages', '/v1/messages', app.gateway), {
    body: messagesRequestSchema,
    headers: messagesVersionHeadersSchema,
    config: { errorEnvelope: 'anthropic' },
  });
};
