import type { FastifyPluginAsync } from 'fastify';
import { codecFor } from '../formats/codec.js';
import { countTokensRequestSchema, type CountTokensBody } from '../formats/messages/count-tokens-schema.js';
import { messagesVersionHeadersSchema } from '../formats/messages/version-headers.js';
import { postInference, type InferenceEndpoint } from '../pipeline/pipeline.js';
import type { RequestContext } from '../pipeline/request-context.js';
import { resolveCountModel } from '../pipeline/stages/resolve-model.js';
import type { JsonAnswer } from '../providers/answer.js';
import { countTokens } from '../providers/execute-count-tokens.js';
import type { Deployment } from '../providers/types.js';

/** Says how the answer's count was made: `provider`, `exact` or `estimate`. */
const TOKEN_COUNT_HEADER = 'x-gateway-token-count';

/** Nothing is generated, so nothing is billed: the usage row records the request with zero tokens. */
const NO_USAGE = { promptTokens: 0, completionTokens: 0 } as const;

/** The provider call of a count: the deployment's count (or the gateway's own), as `{"input_tokens": N}`. */
async function callCount(ctx: RequestContext, deployment: Deployment): Promise<JsonAnswer> {
  const count = await countTokens({
    body: ctx.body as unknown as CountTokensBody,
    deployment,
    pools: ctx.services.pools,
    signal: ctx.watch,
    requestId: ctx.requestId,
    headers: ctx.headers,
    traceHeaders: ctx.traceHeaders,
    report: ctx,
  });
  // Only the attempt that counted knows how: its answer carries the header.
  ctx.replyHeaders = { ...ctx.replyHeaders, [TOKEN_COUNT_HEADER]: count.method };
  return { kind: 'json', body: { input_tokens: count.inputTokens }, usage: NO_USAGE };
}

/**
 * A count on the one pipeline, as a Messages request with a count as its provider call: the stages'
 * refusals and rewrites (PII scrubbing, RAG context) apply, as the prompt goes to a provider, and so
 * do the request's deadline and retries; a stage's own answer (a cache hit) is a conversation's, not a
 * count, so it is not sent.
 */
const countTokensEndpoint: InferenceEndpoint = {
  endpoint: 'count_tokens',
  path: '/v1/messages/count_tokens',
  resolveModel: resolveCountModel,
  call: callCount,
  errorFrame: codecFor('messages').errorFrame,
  takesStageAnswers: false,
};

/**
 * `POST /v1/messages/count_tokens`, as Anthropic's API has it (`client.messages.countTokens`): the
 * input tokens of a Messages request, `{"input_tokens": N}`, errors in Anthropic's envelope.
 */
export const countTokensRoutes: FastifyPluginAsync = async (app) => {
  postInference(app, countTokensEndpoint, {
    body: countTokensRequestSchema,
    headers: messagesVersionHeadersSchema,
    config: { errorEnvelope: 'anthropic' },
  });
};
