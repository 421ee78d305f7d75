import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { messagesRequestSchema } from '../formats/messages/messages-schema.js';
import { postInference } from '../pipeline/pipeline.js';
import { conversationEndpoint } from './conversation-endpoint.js';

// A calendar date: `2023-13-45` is refused. The validator adds the value received.
const dated = z.iso.date({ error: 'must be a date (YYYY-MM-DD)' });

/** Anthropic clients send `anthropic-version`; the interface document calls it `vendor-version`. Any real date is accepted. */
const messagesHeadersSchema = z.looseObject({
  'anthropic-version': dated.optional(),
  'vendor-version': dated.optional(),
});

/** `POST /v1/messages`, answering errors in Anthropic's envelope (`type: "error"` beside `error`). */
export const messagesRoutes: FastifyPluginAsync = async (app) => {
  postInference(app, conversationEndpoint('messages', '/v1/messages', app.gateway), {
    body: messagesRequestSchema,
    headers: messagesHeadersSchema,
    config: { errorEnvelope: 'anthropic' },
  });
};
