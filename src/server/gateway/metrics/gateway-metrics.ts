import { Counter, Gauge, type Registry } from 'prom-client';
import { PII_ENTITY_TYPES } from '../../../shared/guardrails-api.js';
import { LIMIT_TYPES, type LimitType } from '../../../shared/principals-api.js';
import { LabelledHistogram } from './labelled-histogram.js';
import { UPSTREAM_FAILURE_REASONS, type UpstreamFailureReason } from './upstream-failure-reason.js';

/** Label value for requests whose model was never resolved: raw client input must not become a label. */
export const UNKNOWN_MODEL = 'unknown';

/**
 * Label value for requests refused with 401 before a model was known (credentials missing, wrong,
 * expired or revoked): apart from `unknown`'s bad model names, since repeated refusals are answered
 * slowly on purpose (one a second), which would read as the latency of real requests.
 */
export const UNAUTHENTICATED_MODEL = 'unauthenticated';

/**
 * The long end of the latency buckets: a deployment's `timeout_ms` defaults to 600 s because reasoning
 * models may think for minutes, and a request past the last bucket is lost to `histogram_quantile`.
 */
const MINUTES_BUCKETS = [120, 180, 300, 600];

/** A request's model as a label value: only canonical (allowed) names, so client input never grows the series. */
export function modelLabel(model: string | null | undefined, allowList: { isAllowed(model: string): boolean }): string {
  return model !== null && model !== undefined && allowList.isAllowed(model) ? model : UNKNOWN_MODEL;
}

/**
 * An upstream call's deployment as a label value: a deployment an admin configured, or the one derived
 * for an allowed model (named by it); any other (a passthrough caller's own model name) is `unknown`,
 * so client input never grows the series.
 */
export function deploymentLabel(
  deployment: { readonly id: string; readonly explicit: boolean } | undefined,
  allowList: { isAllowed(model: string): boolean },
): string {
  if (deployment === undefined) return UNKNOWN_MODEL;
  return deployment.explicit || allowList.isAllowed(deployment.id) ? deployment.id : UNKNOWN_MODEL;
}

/** What the metrics read from the gateway when Prometheus scrapes, beside the allowed models. */
export interface MetricsSources {
  /** The ids of the deployments serving an allowed model, whose upstream series are shown from 0. */
  readonly deploymentsOf?: (model: string) => readonly string[];
  /** Requests the pipeline has begun and not yet finished. */
  readonly inFlight?: () => number;
  /** Spans the trace exporter dropped so far, by reason (only when tracing is on). */
  readonly droppedSpans?: () => Readonly<Record<SpanDropReason, number>>;
}

/** Why spans were lost: the export queue was full, or the OTLP endpoint refused or missed an export. */
export type SpanDropReason = 'queue_full' | 'export_failed';
const SPAN_DROP_REASONS: readonly SpanDropReason[] = ['queue_full', 'export_failed'];

/** The statuses alerts are written on (success, refusals by limits, clients leaving, provider failures). */
const ZERO_STATUSES = ['200', '429', '499', '502'];

/** When an upstream attempt failed: before the answer started, or in a stream after its 200 went out. */
type UpstreamPhase = 'before_answer' | 'mid_stream';
const UPSTREAM_PHASES: readonly UpstreamPhase[] = ['before_answer', 'mid_stream'];

/** Counts of one (model, status) since the last scrape. */
interface Pending {
  readonly model: string;
  readonly status: string;
  requests: number;
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
}

/**
 * The `gateway_*` metrics: the seven of the interface document, with their exact names and labels, and
 * the upstream failures, retries and fallbacks, the cost and the requests in flight.
 * prom-client hashes the label set on every increment (labelled children included), so request and
 * token counts are added up in plain numbers and handed over when Prometheus scrapes (`collect`).
 */
export class GatewayMetrics {
  readonly requests: Counter<'model' | 'status'>;
  readonly duration: LabelledHistogram;
  readonly upstreamDuration: LabelledHistogram;
  readonly timeToFirstToken: LabelledHistogram;
  readonly tokens: Counter<'model' | 'type'>;
  readonly rateLimitHits: Counter<'limit_type'>;
  readonly cacheHits: Counter<'model'>;
  readonly cacheMisses: Counter<'model'>;
  readonly cacheSavedUsd: Counter<'model'>;
  readonly cacheNotKept: Counter<'reason'>;
  readonly cacheStores: Counter;
  readonly cacheBypasses: Counter;
  readonly cacheRefreshes: Counter;
  readonly cacheCollapsed: Counter;
  readonly cacheEntries: Gauge;
  readonly cacheBytes: Gauge;
  readonly piiEntities: Counter<'entity_type'>;
  readonly contentPolicyBlocks: Counter;
  readonly contentPolicyAnswerStops: Counter;
  readonly adminAuthFailures: Counter;
  readonly upstreamFailures: Counter<'model' | 'deployment' | 'phase' | 'reason'>;
  readonly upstreamRetries: Counter<'model' | 'deployment'>;
  readonly upstreamFallbacks: Counter<'model' | 'deployment'>;
  readonly cost: Counter<'model'>;
  readonly inFlight: Gauge;
  /** Counts since the last scrape, by model then status (no key string built per request). */
  private pending = new Map<string, Map<number, Pending>>();
  /** Models, and model and deployment pairs, whose series exist already (see zeroSeries). */
  private readonly seriesOf = new Set<string>();
  /** What the response cache holds now, read when Prometheus scrapes (see readCacheSize). */
  private cacheSize: () => { readonly entries: number; readonly bytes: number } = () => ({ entries: 0, bytes: 0 });

  /** `allowedModels`: the models allowed now, whose series are shown from 0 before their first request. */
  constructor(
    registry: Registry,
    private readonly allowedModels: () => readonly string[] = () => [],
    private readonly sources: MetricsSources = {},
  ) {
    const registers = [registry];
    const drain = (): void => this.drain();
    this.requests = new Counter({
      name: 'gateway_requests_total',
      help: 'Inference requests by model and HTTP status',
      labelNames: ['model', 'status'],
      registers,
      collect: drain,
    });
    this.duration = new LabelledHistogram(
      'gateway_request_duration_seconds',
      'Inference request duration in seconds (to the last byte, streams included)',
      'model',
      // 1 ms and 5 ms for cache hits; nothing finer, to keep the series per model few.
      [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, ...MINUTES_BUCKETS],
      registry,
    );
    // gateway_request_duration_seconds mixes cache hits, streams (to their last byte) and token counts
    // under one model: these two give the provider's own latency and a stream's wait, apart.
    this.upstreamDuration = new LabelledHistogram(
      'gateway_upstream_duration_seconds',
      'Answered upstream calls of whole (non-streamed) answers, from sending to the answer read: no cache hits, streams or token counts',
      ['model', 'deployment'],
      [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, ...MINUTES_BUCKETS],
      registry,
    );
    this.timeToFirstToken = new LabelledHistogram(
      'gateway_time_to_first_token_seconds',
      "Streamed answers, from the request's arrival to the upstream's first frame (the stream's start)",
      'model',
      [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, ...MINUTES_BUCKETS],
      registry,
    );
    this.tokens = new Counter({
      name: 'gateway_tokens_total',
      help: 'Tokens by model and type (prompt or completion)',
      labelNames: ['model', 'type'],
      registers,
      collect: drain,
    });
    this.rateLimitHits = new Counter({
      name: 'gateway_rate_limit_hits_total',
      help: 'Requests refused by a rate limit or budget',
      labelNames: ['limit_type'],
      registers,
    });
    this.cacheHits = new Counter({
      name: 'gateway_cache_hits_total',
      help: 'Requests answered from the response cache, by model',
      labelNames: ['model'],
      registers,
    });
    this.cacheMisses = new Counter({
      name: 'gateway_cache_misses_total',
      help: 'Cache lookups that found no answer young enough for the request (bypasses are not lookups), by model',
      labelNames: ['model'],
      registers,
    });
    this.cacheSavedUsd = new Counter({
      name: 'gateway_cache_saved_usd_total',
      help: "What the cache hits' kept answers cost at the prices of each hit's time: spend the cache saved, by model",
      labelNames: ['model'],
      registers,
    });
    this.cacheNotKept = new Counter({
      name: 'gateway_cache_not_kept_total',
      help: 'Answers the response cache did not keep, by reason (too_large, incomplete, client_left, error)',
      labelNames: ['reason'],
      registers,
    });
    // A fixed set: each shown from 0, so the first answer not kept is an increase.
    for (const reason of ['too_large', 'incomplete', 'client_left', 'error']) this.cacheNotKept.labels(reason).inc(0);
    this.cacheStores = new Counter({
      name: 'gateway_cache_stores_total',
      help: 'Answers kept by the response cache',
      registers,
    });
    this.cacheBypasses = new Counter({
      name: 'gateway_cache_bypasses_total',
      help: 'Cacheable requests that asked not to use the cache (Cache-Control: no-store, x-gatehouse-cache: off)',
      registers,
    });
    this.cacheRefreshes = new Counter({
      name: 'gateway_cache_refreshes_total',
      help: 'Cacheable requests that skipped the lookup and kept a fresh answer (Cache-Control: no-cache, x-gatehouse-cache: refresh)',
      registers,
    });
    this.cacheCollapsed = new Counter({
      name: 'gateway_cache_collapsed_total',
      help: "Requests answered with an identical concurrent request's fresh answer instead of calling the provider (also counted as hits)",
      registers,
    });
    const cacheSize = (): { readonly entries: number; readonly bytes: number } => this.cacheSize();
    this.cacheEntries = new Gauge({
      name: 'gateway_cache_entries',
      help: 'Answers the response cache holds now',
      registers,
      collect() {
        this.set(cacheSize().entries);
      },
    });
    this.cacheBytes = new Gauge({
      name: 'gateway_cache_bytes',
      help: 'Bytes (UTF-8) of the answers the response cache holds now (its max_bytes bound counts these)',
      registers,
      collect() {
        this.set(cacheSize().bytes);
      },
    });
    this.piiEntities = new Counter({
      name: 'gateway_pii_entities_total',
      help: 'PII entities scrubbed, by entity type',
      labelNames: ['entity_type'],
      registers,
    });
    this.contentPolicyBlocks = new Counter({
      name: 'gateway_content_policy_blocks_total',
      help: 'Requests blocked by the content policy',
      registers,
    });
    this.contentPolicyAnswerStops = new Counter({
      name: 'gateway_content_policy_answer_stops_total',
      help: 'Answers stopped by the content policy (blocked_answer_patterns)',
      registers,
    });
    this.adminAuthFailures = new Counter({
      name: 'gateway_admin_auth_failures_total',
      help: 'Requests to /internal/* refused for a missing or wrong master key',
      registers,
    });
    this.upstreamFailures = new Counter({
      name: 'gateway_upstream_failures_total',
      help: 'Failed upstream attempts by model, deployment, phase (before_answer: retried, fallen back or answered 502; mid_stream: after a stream started) and reason (429, 5xx, 4xx, timeout, connection, invalid_answer, other)',
      labelNames: ['model', 'deployment', 'phase', 'reason'],
      registers,
    });
    this.upstreamRetries = new Counter({
      name: 'gateway_upstream_retries_total',
      help: 'Upstream calls sent again to the same deployment after a retryable failure',
      labelNames: ['model', 'deployment'],
      registers,
    });
    this.upstreamFallbacks = new Counter({
      name: 'gateway_upstream_fallbacks_total',
      help: 'Requests moved on to another deployment of their model, by the deployment given up on',
      labelNames: ['model', 'deployment'],
      registers,
    });
    this.cost = new Counter({
      name: 'gateway_cost_usd_total',
      help: 'Cost of the requests in US dollars, as usage rows price them, by model',
      labelNames: ['model'],
      registers,
      collect: drain,
    });
    const inFlight = sources.inFlight;
    this.inFlight = new Gauge({
      name: 'gateway_requests_in_flight',
      help: 'Requests the gateway has begun and not yet finished',
      registers,
      collect() {
        if (inFlight !== undefined) this.set(inFlight());
      },
    });
    if (sources.droppedSpans !== undefined) this.countDroppedSpans(registry, sources.droppedSpans);
    // Every limit_type pre-created, so dashboards see zeros rather than no series.
    for (const limitType of LIMIT_TYPES) this.rateLimitHits.labels(limitType).inc(0);
    for (const entityType of PII_ENTITY_TYPES) this.piiEntities.labels(entityType).inc(0);
  }

  /**
   * Counts one finished request with its duration, tokens and cost; a 401 without a model label is
   * counted under {@link UNAUTHENTICATED_MODEL}.
   */
  observeRequest(
    label: string,
    status: number,
    seconds: number,
    promptTokens: number,
    completionTokens: number,
    costUsd = 0,
  ): void {
    const model = status === 401 && label === UNKNOWN_MODEL ? UNAUTHENTICATED_MODEL : label;
    let byStatus = this.pending.get(model);
    if (!byStatus) {
      byStatus = new Map();
      this.pending.set(model, byStatus);
    }
    let entry = byStatus.get(status);
    if (!entry) {
      entry = { model, status: String(status), requests: 0, promptTokens: 0, completionTokens: 0, costUsd: 0 };
      byStatus.set(status, entry);
    }
    entry.requests += 1;
    entry.promptTokens += promptTokens;
    entry.completionTokens += completionTokens;
    entry.costUsd += costUsd;
    this.duration.observe(model, seconds);
  }

  /**
   * Series of every allowed model at 0, from the first scrape: Prometheus sees no increase in a series
   * that first appears at 1, so without them the first failure after a start (or of a model just
   * allowed) would be missed by `increase()` and `rate()` alerts.
   */
  private zeroSeries(): void {
    // Refused credentials too, so an alert on their increase sees the first burst after a start.
    if (!this.seriesOf.has(UNAUTHENTICATED_MODEL)) {
      this.seriesOf.add(UNAUTHENTICATED_MODEL);
      this.requests.labels(UNAUTHENTICATED_MODEL, '401').inc(0);
    }
    for (const model of this.allowedModels()) {
      this.zeroDeploymentSeries(model);
      if (this.seriesOf.has(model)) continue;
      this.seriesOf.add(model);
      for (const status of ZERO_STATUSES) this.requests.labels(model, status).inc(0);
      for (const type of ['prompt', 'completion']) this.tokens.labels(model, type).inc(0);
      this.cost.labels(model).inc(0);
      if (this.sources.deploymentsOf === undefined) this.zeroFailureSeries({ model });
    }
  }

  /** The upstream series of each deployment of a model (one saved later too), at 0. */
  private zeroDeploymentSeries(model: string): void {
    for (const deployment of this.sources.deploymentsOf?.(model) ?? []) {
      const pair = `${model}\u0000${deployment}`;
      if (this.seriesOf.has(pair)) continue;
      this.seriesOf.add(pair);
      this.zeroFailureSeries({ model, deployment });
      this.upstreamRetries.inc({ model, deployment }, 0);
      this.upstreamFallbacks.inc({ model, deployment }, 0);
    }
  }

  /** Every phase and reason of a model's (or a deployment's) upstream failures, at 0. */
  private zeroFailureSeries(labels: { readonly model: string; readonly deployment?: string }): void {
    for (const phase of UPSTREAM_PHASES)
      for (const reason of UPSTREAM_FAILURE_REASONS) this.upstreamFailures.inc({ ...labels, phase, reason }, 0);
  }

  /**
   * `gateway_otlp_spans_dropped_total`, read from the tracer's running totals when Prometheus scrapes:
   * the exporter's drops happen off the request path, and tracing off registers nothing.
   */
  private countDroppedSpans(registry: Registry, droppedSpans: () => Readonly<Record<SpanDropReason, number>>): void {
    const counted: Record<SpanDropReason, number> = { queue_full: 0, export_failed: 0 };
    new Counter({
      name: 'gateway_otlp_spans_dropped_total',
      help: 'Spans lost on their way to the OTLP endpoint, by reason (queue_full: the export queue was full; export_failed: the endpoint refused the export or did not answer in time)',
      labelNames: ['reason'],
      registers: [registry],
      collect() {
        const now = droppedSpans();
        for (const reason of SPAN_DROP_REASONS) {
          this.inc({ reason }, now[reason] - counted[reason]);
          counted[reason] = now[reason];
        }
      },
    });
  }

  /** Hands the counts gathered since the last scrape to prom-client. */
  private drain(): void {
    this.zeroSeries();
    if (this.pending.size === 0) return;
    const pending = this.pending;
    this.pending = new Map();
    for (const byStatus of pending.values()) {
      for (const entry of byStatus.values()) {
        this.requests.inc({ model: entry.model, status: entry.status }, entry.requests);
        if (entry.promptTokens > 0) this.tokens.inc({ model: entry.model, type: 'prompt' }, entry.promptTokens);
        if (entry.completionTokens > 0)
          this.tokens.inc({ model: entry.model, type: 'completion' }, entry.completionTokens);
        if (entry.costUsd > 0) this.cost.inc({ model: entry.model }, entry.costUsd);
      }
    }
  }

  /**
   * Counts a failed upstream attempt of a deployment (see {@link deploymentLabel}): `before_answer` (a
   * retry, fallback or 502 follows) or `mid_stream` (the stream had started: the client got a 200 and
   * an error event), with what failed (see {@link upstreamFailureReason}).
   */
  upstreamFailure(
    model: string,
    phase: UpstreamPhase,
    deployment?: string,
    reason: UpstreamFailureReason = 'other',
  ): void {
    this.upstreamFailures.inc(
      deployment === undefined ? { model, phase, reason } : { model, deployment, phase, reason },
    );
  }

  /** The time an upstream call of a whole answer took, by model and deployment. */
  observeUpstream(model: string, deployment: string, seconds: number): void {
    this.upstreamDuration.observe([model, deployment], seconds);
  }

  /** Counts a call sent again to the same deployment after a retryable failure. */
  upstreamRetry(model: string, deployment: string): void {
    this.upstreamRetries.inc({ model, deployment });
  }

  /** Counts a request moving on from `deployment` to another deployment of its model. */
  upstreamFallback(model: string, deployment: string): void {
    this.upstreamFallbacks.inc({ model, deployment });
  }

  /** Where the cache gauges read what the response cache holds, when Prometheus scrapes. */
  readCacheSize(size: () => { readonly entries: number; readonly bytes: number }): void {
    this.cacheSize = size;
  }

  /** Counts a refusal by a rate limit or budget (used by the rate-limit stage). */
  rateLimitHit(limitType: LimitType): void {
    this.rateLimitHits.labels(limitType).inc();
  }
}
