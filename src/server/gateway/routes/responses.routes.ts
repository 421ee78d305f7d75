import type { FastifyPluginAsync } from 'fastify';
import { responsesRequestSchema, type ResponsesBody } from '../formats/responses/responses-schema.js';
import { responsesErrorFrame } from '../formats/responses/responses-stream-encoder.js';
import { postInference, type InferenceEndpoint } from '../pipeline/pipeline.js';
import { resolveResponsesModel } from '../pipeline/stages/resolve-model.js';
import { executeResponses } from '../providers/index.js';

/** `POST /v1/responses` (the `responses` scope), served over each provider's chat API through the IR. */
export const responsesRoutes: FastifyPluginAsync = async (app) => {
  const services = app.gateway;
  const endpoint: InferenceEndpoint = {
    endpoint: 'responses',
    path: '/v1/responses',
    resolveModel: resolveResponsesModel,
    call: (ctx, deployment) =>
      executeResponses({
        body: ctx.body as ResponsesBody,
        deployment,
        pools: services.pools,
        signal: ctx.signal,
        requestId: ctx.requestId,
      }),
    errorFrame: responsesErrorFrame,
  };
  postInference(app, endpoint, { body: responsesRequestSchema });
};
