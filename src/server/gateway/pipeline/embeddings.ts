import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuditEntry } from '../accounting/usage-entry.js';
import type { EmbeddingsBody, EmbeddingsResponse } from '../formats/embeddings/embeddings-schema.js';
import { boundedBody } from '../traffic/traffic-log.js';
import type { GatewayServices } from './gateway-services.js';
import { finishClientGone, watchClient } from './client-connection.js';
import { contextOf, type RequestContext } from './request-context.js';
import { usageEntry } from './stages/finish.js';
import { runPolicyStages } from './stages/policy-stages.js';
import { resolveEmbeddingsModel } from './stages/resolve-model.js';
import { ClientClosedError, withFallback } from './stages/route-deployment.js';

/** Rough JSON size of an answer, to decide whether the traffic view may keep it by reference. */
function answerSize(body: EmbeddingsResponse): number {
  let chars = 256;
  for (const item of body.data) chars += typeof item.embedding === 'string' ? item.embedding.length : item.embedding.length * 20;
  return chars;
}

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
export async function handleEmbeddings(request: FastifyRequest, reply: FastifyReply, services: GatewayServices): Promise<unknown> {
  const ctx = contextOf(request);
  const body = request.body as EmbeddingsBody;
  const model = resolveEmbeddingsModel(ctx, body, services.registry);
  if (services.policy.length > 0) {
    const outcome = await runPolicyStages(services.policy, { ctx, format: 'embeddings', body, reply });
    if (outcome !== undefined) return outcome.body;
  }
  const forwarded = boundedBody(body, Number(request.headers['content-length'] ?? 0));
  ctx.forwardedBody = forwarded.body;
  ctx.truncated = forwarded.truncated;
  const principal = ctx.principal;
  const apiKeyOverride = principal?.kind === 'passthrough' ? principal.providerKey : undefined;

  const watch = watchClient(reply);
  const abort = watch.controller;
  let result;
  try {
    result = await withFallback(ctx, services.registry.deploymentsFor(model), services.health, abort.signal, (deployment) =>
      services.providers.executeEmbeddings({
        body,
        deployment,
        signal: abort.signal,
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
  const shown = boundedBody(result.body, answerSize(result.body));
  ctx.responseBody = shown.body;
  ctx.truncated ||= shown.truncated;
  services.recorder.commitNow(usageEntry(ctx, 200, services), auditOf(ctx, body));
  ctx.committed = true;
  reply.header('x-gateway-deployment', ctx.deployment!.id);
  return result.body;
}
