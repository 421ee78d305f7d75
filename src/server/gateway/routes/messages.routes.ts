import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messagesRequestSchema } from '../formats/messages/messages-schema.js';
import { beginPipeline, runPipeline } from '../pipeline/pipeline.js';
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
  const endpoint = conversationEndpoint('messages', '/v1/messages', app.gateway);
  app.withTypeProvider<ZodTypeProvider>().post(
    endpoint.path,
    {
      schema: { body: messagesRequestSchema, headers: messagesHeadersSchema },
      config: { errorEnvelope: 'anthropic' },
      onRequest: beginPipeline(endpoint.endpoint, endpoint.path, app.gateway),
    },
    runPipeline(endpoint),
  );
};
