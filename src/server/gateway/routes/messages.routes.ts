import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messagesCodec } from '../formats/codec.js';
import { messagesRequestSchema, type MessagesBody } from '../formats/messages/messages-schema.js';
import { beginPipeline, runPipeline, type InferenceEndpoint } from '../pipeline/pipeline.js';
import { resolveConversationModel } from '../pipeline/stages/resolve-model.js';
import { executeChat } from '../providers/index.js';

// A calendar date: `2023-13-45` is refused. The validator adds the value received.
const dated = z.iso.date({ error: 'must be a date (YYYY-MM-DD)' });

/** Anthropic clients send `anthropic-version`; the interface document calls it `vendor-version`. Any real date is accepted. */
const messagesHeadersSchema = z.looseObject({
  'anthropic-version': dated.optional(),
  'vendor-version': dated.optional(),
});

/** `POST /v1/messages`, answering errors in Anthropic's envelope (`type: "error"` beside `error`). */
export const messagesRoutes: FastifyPluginAsync = async (app) => {
  const services = app.gateway;
  const endpoint: InferenceEndpoint = {
    endpoint: 'messages',
    path: '/v1/messages',
    resolveModel: resolveConversationModel,
    call: (ctx, deployment) =>
      executeChat({
        format: 'messages',
        body: ctx.body as MessagesBody,
        deployment,
        pools: services.pools,
        signal: ctx.signal,
        requestId: ctx.requestId,
        headers: ctx.headers,
      }),
    errorFrame: messagesCodec.errorFrame,
  };
  app.withTypeProvider<ZodTypeProvider>().post(
    endpoint.path,
    {
      schema: { body: messagesRequestSchema, headers: messagesHeadersSchema },
      config: { errorEnvelope: 'anthropic' },
      onRequest: beginPipeline(endpoint.endpoint, endpoint.path, services),
    },
    runPipeline(endpoint),
  );
};
