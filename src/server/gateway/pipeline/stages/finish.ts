import type { UsageEntry } from '../../accounting/usage-entry.js';
import { UNKNOWN_MODEL } from '../../metrics/gateway-metrics.js';
import type { GatewayServices } from '../gateway-services.js';
import type { RequestContext } from '../request-context.js';

/** The usage row of a request, from what its context gathered. */
export function usageEntry(ctx: RequestContext, status: number, services: GatewayServices): UsageEntry {
  const key = ctx.principal?.kind === 'key' ? ctx.principal.key.row : undefined;
  const promptTokens = ctx.usage?.promptTokens ?? 0;
  const completionTokens = ctx.usage?.completionTokens ?? 0;
  const model = ctx.model ?? null;
  return {
    requestId: ctx.requestId,
    createdAt: ctx.startedAtMs,
    keyId: key?.id ?? null,
    ownerUser: key?.ownerUser ?? null,
    team: key?.team ?? null,
    endpoint: ctx.endpoint,
    model,
    deployment: ctx.deployment?.id ?? null,
    provider: ctx.deployment?.provider ?? null,
    promptTokens,
    completionTokens,
    costUsd: services.prices.cost(model, ctx.deployment?.upstreamModel ?? null, { promptTokens, completionTokens }),
    latencyMs: Math.round((performance.now() - ctx.startedAt) * 1000) / 1000,
    status,
    errorType: ctx.errorType ?? null,
    stream: ctx.stream,
    cached: ctx.cached,
  };
}

/**
 * The last stage, on every path (success, error, stream end, client gone): the usage row (batched,
 * unless already committed), the seven metrics, the traffic event and the key's last use.
 */
export function finishRequest(ctx: RequestContext, replyStatus: number, services: GatewayServices): void {
  if (ctx.finished) return;
  ctx.finished = true;
  const status = ctx.statusOverride ?? replyStatus;
  const entry = usageEntry(ctx, status, services);
  const accounted = ctx.endpoint !== 'models';
  if (accounted && !ctx.committed) services.recorder.record(entry);
  if (accounted) {
    // Only canonical (allowed) names become label values: client input must not grow the series.
    const label = entry.model !== null && services.registry.isAllowed(entry.model) ? entry.model : UNKNOWN_MODEL;
    services.metrics.observeRequest(label, status, entry.latencyMs / 1000, entry.promptTokens, entry.completionTokens);
  }
  if (ctx.principal?.kind === 'key') services.keys.noteUsed(ctx.principal.key.row.id);
  const key = ctx.principal?.kind === 'key' ? ctx.principal.key.row : undefined;
  services.traffic.record({
    request_id: ctx.requestId,
    startedAtMs: ctx.startedAtMs,
    endpoint: ctx.endpoint,
    method: ctx.method,
    path: ctx.path,
    status,
    error_type: entry.errorType,
    requested_model: ctx.requestedModel ?? null,
    model: entry.model,
    deployment: entry.deployment,
    provider: entry.provider,
    key_id: entry.keyId,
    key_name: key?.name ?? null,
    user: entry.ownerUser,
    team: entry.team,
    stream: ctx.stream,
    cached: ctx.cached,
    attempts: ctx.attempts,
    latency_ms: entry.latencyMs,
    prompt_tokens: entry.promptTokens,
    completion_tokens: entry.completionTokens,
    cost_usd: entry.costUsd,
    requestBody: ctx.forwardedBody,
    responseBody: ctx.responseBody,
  });
}
