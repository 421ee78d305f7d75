import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messagesRequestSchema } from '../formats/messages/messages-schema.js';
import { handleConversation } from '../pipeline/conversation.js';
import type { GatewayRouteOptions } from './route-options.js';
import { startPipeline } from './v1-hooks.js';

// A calendar date: `2023-13-45` is refused. The validator adds the value received.
const dated = z.iso.date({ error: 'must be a date (YYYY-MM-DD)' });

/** Anthropic clients send `anthropic-version`; the interface document calls it `vendor-version`. Any real date is accepted. */
const messagesHeadersSchema = z.looseObject({
  'anthropic-version': dated.optional(),
  'vendor-version': dated.optional(),
});

/** `POST /v1/messages`, answering errors in Anthropic's envelope (`type: "error"` beside `error`). */
export const messagesRoutes: FastifyPluginAsync<GatewayRouteOptions> = async (app, { services }) => {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/messages',
    {
      schema: { body: messagesRequestSchema, headers: messagesHeadersSchema },
      config: { errorEnvelope: 'anthropic' },
      onRequest: startPipeline('messages', '/v1/messages', services),
    },
    (request, reply) => handleConversation('messages', request, reply, services),
  );
};
