import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuditEntry } from '../accounting/usage-entry.js';
import type { EmbeddingsBody } from '../formats/embeddings/embeddings-schema.js';
import { jsonBody } from '../traffic/traffic-log.js';
import type { GatewayServices } from './gateway-services.js';
import { finishClientGone, watchClient } from './client-connection.js';
import { contextOf, type RequestContext } from './request-context.js';
import { usageEntry } from './stages/finish.js';
import { runPolicyStages } from './stages/policy-stages.js';
import { resolveEmbeddingsModel } from './stages/resolve-model.js';
import { ClientClosedError, withFallback } from './stages/route-deployment.js';

function inputCount(input: EmbeddingsBody['input']): number {
  if (typeof input === 'string') return 1;
  return input.length > 0 && typeof input[0] === 'number' ? 1 : input.length;
}

function auditOf(ctx: RequestContext, body: EmbeddingsBody): AuditEntry {
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
      deployment: ctx.deployment?.id ?? null,
      provider: ctx.deployment?.provider ?? null,
      inputs: inputCount(body.input),
      prompt_tokens: ctx.usage?.promptTokens ?? 0,
      user: key?.ownerUser ?? null,
      team: key?.team ?? null,
      passthrough: principal?.kind === 'passthrough',
    },
  };
}

/**
 * Embeddings: resolve the model (default model, Claude rejection, allow-list), policy stages,
 * route with fallback, then — before answering, as the contract demands — commit the usage row and
 * its audit event in one durable transaction.
 */
export async function handleEmbeddings(
  request: FastifyRequest,
  reply: FastifyReply,
  services: GatewayServices,
): Promise<unknown> {
  const ctx = contextOf(request);
  const body = request.body as EmbeddingsBody;
  const model = resolveEmbeddingsModel(ctx, body, services.registry);
  if (services.policy.length > 0) {
    const outcome = await runPolicyStages(services.policy, { ctx, format: 'embeddings', body, reply });
    if (outcome !== undefined) {
      ctx.responseBody = { kind: 'value', value: outcome.body };
      return outcome.body;
    }
  }
  if (request.rawBody !== null) ctx.forwardedBody = jsonBody(request.rawBody, { model });
  const principal = ctx.principal;
  const apiKeyOverride = principal?.kind === 'passthrough' ? principal.providerKey : undefined;

  const watch = watchClient(reply);
  let result;
  try {
    result = await withFallback(ctx, services.registry.deploymentsFor(model), services.health, watch, (deployment) =>
      services.providers.executeEmbeddings({
        body,
        deployment,
        signal: watch,
        requestId: ctx.requestId,
        ...(apiKeyOverride !== undefined ? { apiKeyOverride } : {}),
      }),
    );
  } catch (error) {
    if (error instanceof ClientClosedError) return finishClientGone(ctx, reply, services);
    throw error;
  } finally {
    watch.release();
  }
  ctx.usage = result.usage;
  const text = JSON.stringify(result.body);
  ctx.responseBody = jsonBody(text);
  services.recorder.commitNow(usageEntry(ctx, 200, services), auditOf(ctx, body));
  ctx.committed = true;
  return reply.header('x-gateway-deployment', ctx.deployment!.id).type('application/json; charset=utf-8').send(text);
}
