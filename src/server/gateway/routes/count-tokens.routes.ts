import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { codecFor } from '../formats/codec.js';
import { countTokensRequestSchema, type CountTokensBody } from '../formats/messages/count-tokens-schema.js';
import { messagesVersionHeadersSchema } from '../formats/messages/version-headers.js';
import { beginPipeline, gatewayShuttingDown, noteForwardedBody } from '../pipeline/pipeline.js';
import { contextOf } from '../pipeline/request-context.js';
import { resolveCountModel } from '../pipeline/stages/resolve-model.js';
import { admittedHeaders, respond } from '../pipeline/stages/respond.js';
import { ClientClosedError, route } from '../pipeline/stages/route-deployment.js';
import type { JsonAnswer, ProviderAnswer } from '../providers/answer.js';
import { countTokens, type TokenCount } from '../providers/execute-count-tokens.js';
import type { Deployment } from '../providers/types.js';

const PATH = '/v1/messages/count_tokens';

/** Says how the answer's count was made: `provider`, `exact` or `estimate`. */
const TOKEN_COUNT_HEADER = 'x-gateway-token-count';

/** Nothing is generated, so nothing is billed: the usage row records the request with zero tokens. */
const NO_USAGE = { promptTokens: 0, completionTokens: 0 } as const;

/** Stages 3 to 8 for a count: the same stages as a Messages request, with a count as the provider call. */
async function countHandler(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  const ctx = contextOf(request);
  ctx.body = request.body as Record<string, unknown>;
  const trace = ctx.trace;
  if (trace === undefined) resolveCountModel(ctx);
  else trace.run('gateway.resolve_model', () => resolveCountModel(ctx));
  // Refusals and rewrites (PII scrubbing) apply, as the prompt goes to a provider; an own answer (a
  // cache hit) is a conversation's, not a count, so it is not sent.
  for (const stage of ctx.services.policy) await stage(ctx);
  noteForwardedBody(ctx, request.rawBody);
  let count: TokenCount | undefined;
  const call = async (deployment: Deployment): Promise<JsonAnswer> => {
    count = await countTokens({
      body: ctx.body as unknown as CountTokensBody,
      deployment,
      pools: ctx.services.pools,
      signal: ctx.signal,
      requestId: ctx.requestId,
      headers: ctx.headers,
      traceHeaders: ctx.traceHeaders,
      report: ctx,
    });
    return { kind: 'json', body: { input_tokens: count.inputTokens }, usage: NO_USAGE };
  };
  let answer: ProviderAnswer;
  try {
    answer = await (trace === undefined ? route(ctx, call) : trace.run('gateway.route', () => route(ctx, call)));
  } catch (error) {
    if (error instanceof ClientClosedError) {
      // Cancelled by the gateway's shutdown: the client is still there, and is told why.
      if (ctx.signal.shuttingDown) throw gatewayShuttingDown();
      // Nobody is left to answer; the watch already finished the request as the client's leaving.
      return reply.hijack();
    }
    // Where its limits stand, on a provider's failure as on an answer.
    admittedHeaders(ctx, reply);
    throw error;
  }
  // Counted after the client left: the watch already finished the request as 499. One counted as the
  // shutdown began still goes to its client, who is there.
  if (ctx.signal.aborted && !ctx.signal.shuttingDown) return reply.hijack();
  reply.header(TOKEN_COUNT_HEADER, count!.method);
  await respond(ctx, reply, answer, codecFor('messages').errorFrame);
  return undefined;
}

/**
 * `POST /v1/messages/count_tokens`, as Anthropic's API has it (`client.messages.countTokens`): the
 * input tokens of a Messages request, `{"input_tokens": N}`, errors in Anthropic's envelope.
 */
export const countTokensRoutes: FastifyPluginAsync = async (app) => {
  app.withTypeProvider<ZodTypeProvider>().post(
    PATH,
    {
      schema: { body: countTokensRequestSchema, headers: messagesVersionHeadersSchema },
      config: { errorEnvelope: 'anthropic' },
      onRequest: beginPipeline('count_tokens', PATH, app.gateway),
    },
    countHandler,
  );
};
