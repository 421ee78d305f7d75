import type { FastifyPluginAsync } from 'fastify';
import type { AuditEntry } from '../accounting/usage-entry.js';
import { chatCodec } from '../formats/codec.js';
import { embeddingsRequestSchema, type EmbeddingsBody } from '../formats/embeddings/embeddings-schema.js';
import { postInference, type InferenceEndpoint } from '../pipeline/pipeline.js';
import { usageOf, type RequestContext } from '../pipeline/request-context.js';
import { resolveEmbeddingsModel } from '../pipeline/stages/resolve-model.js';
import { executeEmbeddings } from '../providers/index.js';

function inputCount(input: EmbeddingsBody['input']): number {
  if (typeof input === 'string') return 1;
  return input.length > 0 && typeof input[0] === 'number' ? 1 : input.length;
}

/** The audit event committed with the usage row before an embeddings answer. */
function embeddingsAudit(ctx: RequestContext): AuditEntry {
  const principal = ctx.principal;
  const key = principal?.kind === 'key' ? principal.key.row : undefined;
  return {
    createdAt: Date.now(),
    actor: key ? `key:${key.id}` : 'passthrough',
    action: 'embeddings.create',
    target: ctx.model ?? null,
    requestId: ctx.requestId,
    details: {
      model: ctx.model ?? null,
      // A cache hit called no deployment: as its usage row, it names none and says where it came from.
      deployment: ctx.cached ? null : (ctx.deployment?.id ?? null),
      provider: ctx.cached ? null : (ctx.deployment?.provider ?? null),
      cached: ctx.cached,
      inputs: inputCount((ctx.body as EmbeddingsBody).input),
      prompt_tokens: usageOf(ctx)?.promptTokens ?? 0,
      user: key?.ownerUser ?? null,
      team: key?.team ?? null,
      passthrough: principal?.kind === 'passthrough',
    },
  };
}

/** `POST /v1/embeddings`: usage and audit are committed before the answer. */
export const embeddingsRoutes: FastifyPluginAsync = async (app) => {
  const services = app.gateway;
  const endpoint: InferenceEndpoint = {
    endpoint: 'embeddings',
    path: '/v1/embeddings',
    resolveModel: resolveEmbeddingsModel,
    call: (ctx, deployment) => {
      const principal = ctx.principal;
      return executeEmbeddings({
        body: ctx.body as EmbeddingsBody,
        deployment,
        pools: services.pools,
        signal: ctx.watch,
        requestId: ctx.requestId,
        traceHeaders: ctx.traceHeaders,
        report: ctx,
        // A passthrough caller's own provider key, used instead of the deployment's.
        ...(principal?.kind === 'passthrough' ? { apiKeyOverride: principal.providerKey } : {}),
      });
    },
    // Embeddings answers never stream; a failure would be reported in OpenAI's shape.
    errorFrame: chatCodec.errorFrame,
    durableAudit: embeddingsAudit,
  };
  postInference(app, endpoint, { body: embeddingsRequestSchema });
};
