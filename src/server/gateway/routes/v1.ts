import type { FastifyPluginAsync } from 'fastify';
import { toErrorResponse } from '../../http/error-handler.js';
import { noteFailure } from '../pipeline/pipeline.js';
import { chatRoutes } from './chat.routes.js';
import { countTokensRoutes } from './count-tokens.routes.js';
import { embeddingsRoutes } from './embeddings.routes.js';
import { messagesRoutes } from './messages.routes.js';
import { modelsRoutes } from './models.routes.js';
import { responsesRoutes } from './responses.routes.js';

/** The public inference API (`/v1/*`), every route on the one pipeline. */
export const v1Routes: FastifyPluginAsync = async (app) => {
  app.decorateRequest('gatewayRequest', null);
  // OpenAI's SDKs read `error.param`; routes that answer in Anthropic's shape say so themselves.
  app.addHook('onRoute', (route) => {
    route.config = { errorEnvelope: 'openai', ...route.config };
  });
  // A failed request's error type and body, for the finishing stage's usage row and traffic event.
  app.addHook('onError', (request, _reply, error, done) => {
    const { body } = toErrorResponse(error, request);
    noteFailure(request, body.error.type, body);
    done();
  });
  await app.register(chatRoutes);
  await app.register(messagesRoutes);
  await app.register(countTokensRoutes);
  await app.register(responsesRoutes);
  await app.register(embeddingsRoutes);
  await app.register(modelsRoutes);
};
