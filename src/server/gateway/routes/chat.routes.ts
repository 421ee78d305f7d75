import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { chatCodec } from '../formats/codec.js';
import { chatRequestSchema, type ChatBody } from '../formats/chat/chat-schema.js';
import { beginPipeline, runPipeline, type InferenceEndpoint } from '../pipeline/pipeline.js';
import { resolveConversationModel } from '../pipeline/stages/resolve-model.js';
import { executeChat } from '../providers/index.js';

/** `POST /v1/chat/completions` (no response schema: provider answers pass through as they are). */
export const chatRoutes: FastifyPluginAsync = async (app) => {
  const services = app.gateway;
  const endpoint: InferenceEndpoint = {
    endpoint: 'chat',
    path: '/v1/chat/completions',
    resolveModel: resolveConversationModel,
    call: (ctx, deployment) =>
      executeChat({
        format: 'chat',
        body: ctx.body as ChatBody,
        deployment,
        pools: services.pools,
        signal: ctx.signal,
        requestId: ctx.requestId,
        headers: ctx.headers,
      }),
    errorFrame: chatCodec.errorFrame,
  };
  app
    .withTypeProvider<ZodTypeProvider>()
    .post(
      endpoint.path,
      { schema: { body: chatRequestSchema }, onRequest: beginPipeline(endpoint.endpoint, endpoint.path, services) },
      runPipeline(endpoint),
    );
};
