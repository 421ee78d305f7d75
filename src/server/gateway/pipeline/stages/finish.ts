import type { UsageEntry } from '../../accounting/usage-entry.js';
import type { Usage } from '../../formats/ir.js';
import { tokensForChars } from '../../formats/token-estimate.js';
import { visitRequestTexts } from '../../guardrails/request-texts.js';
import { redactForRecords } from '../../guardrails/pii/failure-redaction.js';
import { rulesOf } from '../../guardrails/request-rules.js';
import { modelLabel } from '../../metrics/gateway-metrics.js';
import { roundUsd } from '../../accounting/pricing.js';
import { textBody } from '../../traffic/traffic-log.js';
import { ERROR_STATUS } from '../../../../shared/errors.js';
import { CLIENT_CLOSED_REQUEST, usageOf, type RequestContext } from '../request-context.js';
import { settleStreamHealth } from './route-deployment.js';

/**
 * What a request whose client left (or the gateway's shutdown ended) while a provider worked on it is
 * charged when no answer came: its prompt, which the provider had been sent (as a stream left mid-way
 * is charged its prompt and what was sent). Counted by the limits stage when it ran, else estimated from the request's texts as a
 * stream's prompt is. Without it, leaving just before every answer would spend provider tokens that
 * no budget ever saw.
 */
function abandonedUsage(ctx: RequestContext, status: number): Usage | undefined {
  const cut = status === CLIENT_CLOSED_REQUEST || ctx.watch.shuttingDown;
  // A token count costs nothing at the provider, whether or not its client waited for it.
  if (!cut || !ctx.upstreamPending || ctx.endpoint === 'count_tokens') return undefined;
  if (ctx.promptTokens !== undefined) return { promptTokens: ctx.promptTokens.tokens, completionTokens: 0 };
  let chars = 0;
  visitRequestTexts(ctx.endpoint, ctx.body, (text) => {
    chars += text.length;
  });
  return { promptTokens: tokensForChars(chars), completionTokens: 0 };
}

/**
 * A model name as usage and the traffic view record it. A name the gateway serves (or an alias of one)
 * is kept as it is, so usage groups by it; any other name is client text like the body, so the values
 * the request's PII rule finds in it are redacted (`[EMAIL_1]`), as they are in its error message.
 */
function recordedModelName(ctx: RequestContext, name: string | undefined): string | null {
  if (name === undefined) return null;
  // Without a PII rule nothing is redacted: the lookup is skipped on that common path.
  if (rulesOf(ctx).pii === undefined || ctx.services.registry.resolve(name).ok) return name;
  return redactForRecords(ctx, name);
}

/**
 * The usage row of a request, from what its context gathered. A cache hit called no upstream, so it
 * names no deployment or provider (the usage views' `(cache)` group); `cached` says where it came from.
 */
export function usageEntry(ctx: RequestContext, status: number): UsageEntry {
  const key = ctx.principal?.kind === 'key' ? ctx.principal.key.row : undefined;
  const reported = usageOf(ctx);
  const usage = reported ?? abandonedUsage(ctx, status);
  const deployment = ctx.cached ? undefined : ctx.deployment;
  const promptTokens = usage?.promptTokens ?? 0;
  const completionTokens = usage?.completionTokens ?? 0;
  const model = ctx.model ?? null;
  const recordedModel = recordedModelName(ctx, ctx.model);
  const hit = ctx.cached ? ctx.cache?.hit : undefined;
  return {
    requestId: ctx.requestId,
    createdAt: ctx.startedAtMs,
    keyId: key?.id ?? null,
    ownerUser: key?.ownerUser ?? null,
    team: key?.team ?? null,
    endpoint: ctx.endpoint,
    model: recordedModel,
    requestedModel: recordedModelName(ctx, ctx.requestedModel),
    deployment: deployment?.id ?? null,
    provider: deployment?.provider ?? null,
    promptTokens,
    completionTokens,
    cacheReadPromptTokens: usage?.cachedPromptTokens ?? null,
    cacheWritePromptTokens: usage?.cacheWritePromptTokens ?? null,
    reasoningTokens: usage?.reasoningTokens ?? null,
    costUsd: ctx.services.prices.cost(model, ctx.deployment?.upstreamModel ?? null, {
      promptTokens,
      completionTokens,
      cachedPromptTokens: usage?.cachedPromptTokens,
      cacheWritePromptTokens: usage?.cacheWritePromptTokens,
      cacheWrite1hPromptTokens: usage?.cacheWrite1hPromptTokens,
      webSearchRequests: usage?.webSearchRequests,
    }),
    latencyMs: Math.round((performance.now() - ctx.startedAt) * 1000) / 1000,
    status,
    errorType: ctx.errorType ?? null,
    stream: ctx.stream,
    cached: ctx.cached,
    admitted: ctx.admitted,
    // A trace that was not sampled (its caller's decision, or sample_ratio) was never exported: no id to find.
    traceId: ctx.trace?.recorded === true ? ctx.trace.traceId : null,
    attempts: ctx.attempts,
    // Counts the provider never reported: the client's or a cut stream's, estimated (see completeUsage).
    tokensEstimated: usage !== reported || (reported as EstimatedUsage | undefined)?.estimated === true,
    cacheStatus: ctx.cache?.status ?? null,
    savedPromptTokens: hit?.usage.promptTokens ?? null,
    savedCompletionTokens: hit?.usage.completionTokens ?? null,
    savedCostUsd: hit === undefined ? null : savedCost(ctx, model, hit.usage),
    cacheAgeS: hit === undefined ? null : Math.floor(hit.ageMs / 1000),
  };
}

/**
 * What a cache hit's kept answer costs at today's prices (of the deployment that answered it, as the
 * original row was priced): the spend the hit saved. Prices changed since are today's on purpose, so
 * savings read in the money of the time they are looked at.
 */
function savedCost(ctx: RequestContext, model: string | null, usage: Usage): number {
  return ctx.services.prices.cost(model, ctx.deployment?.upstreamModel ?? null, usage);
}

/** Usage whose counts the gateway estimated carries a (non-enumerable) `estimated: true`. */
type EstimatedUsage = Usage & { readonly estimated?: boolean };

/**
 * How a request ended, as usage, metrics and traffic record it: a response that closed before it was
 * completely sent is the client's leaving (499), whatever status line had gone out; one the gateway
 * ended because it is shutting down (a stream's shutdown error event, or a cut connection) is a
 * server-side end, 503, though a stream's status line said 200.
 */
function endStatus(ctx: RequestContext, replyStatus: number, completed: boolean): number {
  if (ctx.watch.shuttingDown && (!completed || ctx.errorType === 'service_unavailable')) {
    ctx.errorType ??= 'service_unavailable';
    return ERROR_STATUS.service_unavailable;
  }
  if (completed) return replyStatus;
  ctx.errorType ??= 'client_closed';
  return CLIENT_CLOSED_REQUEST;
}

/**
 * The last stage, reached once per request when its response closes (the pipeline's client watch
 * calls it): the usage row (batched, unless already committed), the metrics, the traffic event and
 * the key's last use, under the status {@link endStatus} gives.
 */
export function finishRequest(ctx: RequestContext, replyStatus: number, completed: boolean): void {
  const services = ctx.services;
  const status = endStatus(ctx, replyStatus, completed);
  services.limits.release(ctx);
  settleStreamHealth(ctx);
  const entry = usageEntry(ctx, status);
  if (ctx.reservation !== undefined)
    services.limits.settle(ctx.reservation, entry.promptTokens + entry.completionTokens, entry.costUsd, ctx.committed);
  // A stream whose client left: what had been sent by then.
  if (ctx.responseBody === undefined && ctx.transcript !== undefined)
    ctx.responseBody = textBody(ctx.transcript.frames.join(''), ctx.transcript.truncated);
  // Listings and kept-response reads call no model: no usage row, no request metrics.
  const accounted =
    ctx.endpoint !== 'models' && ctx.endpoint !== 'rag_collections' && ctx.endpoint !== 'stored_responses';
  if (accounted && !ctx.committed) services.recorder.record(entry);
  if (accounted) {
    const label = modelLabel(entry.model, services.registry);
    const seconds = entry.latencyMs / 1000;
    services.metrics.observeRequest(label, status, seconds, entry.promptTokens, entry.completionTokens, entry.costUsd);
    if (entry.savedCostUsd) services.metrics.cacheSavedUsd.inc({ model: label }, entry.savedCostUsd);
  }
  if (ctx.principal?.kind === 'key') services.keys.noteUsed(ctx.principal.key.row.id);
  ctx.trace?.finish({
    status,
    errorType: entry.errorType ?? undefined,
    usage: usageOf(ctx),
    model: entry.model ?? undefined,
    cached: ctx.cache === undefined ? undefined : ctx.cached,
    keyId: entry.keyId ?? undefined,
    user: entry.ownerUser ?? undefined,
    team: entry.team ?? undefined,
    costUsd: entry.costUsd,
  });
  const key = ctx.principal?.kind === 'key' ? ctx.principal.key.row : undefined;
  services.traffic.record({
    request_id: ctx.requestId,
    startedAtMs: ctx.startedAtMs,
    endpoint: ctx.endpoint,
    method: ctx.method,
    path: ctx.path,
    status,
    error_type: entry.errorType,
    requested_model: entry.requestedModel,
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
    limits:
      ctx.reservation !== undefined && ctx.promptTokens !== undefined
        ? {
            prompt_tokens: ctx.promptTokens.tokens,
            estimated: ctx.promptTokens.estimated,
            reserved_tokens: ctx.reservation.cost.tokens,
          }
        : null,
    latency_ms: entry.latencyMs,
    prompt_tokens: entry.promptTokens,
    completion_tokens: entry.completionTokens,
    cache_read_prompt_tokens: entry.cacheReadPromptTokens,
    cache_write_prompt_tokens: entry.cacheWritePromptTokens,
    reasoning_tokens: entry.reasoningTokens,
    cost_usd: roundUsd(entry.costUsd),
    rag_chunks: ctx.rag ? [...ctx.rag.chunks] : null,
    guardrails: ctx.guardrails ?? null,
    cache: ctx.cache === undefined ? null : ctx.cached ? 'hit' : ctx.cache.bypassed ? 'bypass' : 'miss',
    trace_id: entry.traceId ?? null,
    requestBody: ctx.forwardedBody,
    responseBody: ctx.responseBody,
  });
}
