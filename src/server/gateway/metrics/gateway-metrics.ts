import { Counter, Histogram, type Registry } from 'prom-client';

/** `limit_type` values of the rate-limit counter (decisions.md), pre-created so dashboards see zeros. */
export const LIMIT_TYPES = ['requests', 'tokens', 'user_minute', 'user_daily', 'team_minute', 'team_daily'] as const;
/** One `limit_type`. */
export type LimitType = (typeof LIMIT_TYPES)[number];

/** Label value for requests whose model was never resolved: raw client input must not become a label. */
export const UNKNOWN_MODEL = 'unknown';

type Child<T> = T extends Counter<string> ? ReturnType<T['labels']> : T extends Histogram<string> ? ReturnType<T['labels']> : never;

/**
 * The seven `gateway_*` metrics of the interface document, with their exact names and labels.
 * Labelled children are cached: prom-client hashes the label set on every `inc` otherwise.
 */
export class GatewayMetrics {
  readonly requests: Counter<'model' | 'status'>;
  readonly duration: Histogram<'model'>;
  readonly tokens: Counter<'model' | 'type'>;
  readonly rateLimitHits: Counter<'limit_type'>;
  readonly cacheHits: Counter;
  readonly piiEntities: Counter<'entity_type'>;
  readonly contentPolicyBlocks: Counter;
  private readonly requestChildren = new Map<string, Child<Counter<'model' | 'status'>>>();
  private readonly durationChildren = new Map<string, Child<Histogram<'model'>>>();
  private readonly tokenChildren = new Map<string, { prompt: Child<Counter<'model' | 'type'>>; completion: Child<Counter<'model' | 'type'>> }>();

  constructor(registry: Registry) {
    const registers = [registry];
    this.requests = new Counter({ name: 'gateway_requests_total', help: 'Inference requests by model and HTTP status', labelNames: ['model', 'status'], registers });
    this.duration = new Histogram({
      name: 'gateway_request_duration_seconds',
      help: 'Inference request duration in seconds (to the last byte, streams included)',
      labelNames: ['model'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
      registers,
    });
    this.tokens = new Counter({ name: 'gateway_tokens_total', help: 'Tokens by model and type (prompt or completion)', labelNames: ['model', 'type'], registers });
    this.rateLimitHits = new Counter({ name: 'gateway_rate_limit_hits_total', help: 'Requests refused by a rate limit or budget', labelNames: ['limit_type'], registers });
    this.cacheHits = new Counter({ name: 'gateway_cache_hits_total', help: 'Requests answered from the response cache', registers });
    this.piiEntities = new Counter({ name: 'gateway_pii_entities_total', help: 'PII entities scrubbed, by entity type', labelNames: ['entity_type'], registers });
    this.contentPolicyBlocks = new Counter({ name: 'gateway_content_policy_blocks_total', help: 'Requests blocked by the content policy', registers });
    for (const limitType of LIMIT_TYPES) this.rateLimitHits.labels(limitType).inc(0);
  }

  /** Counts one finished request with its duration and tokens. */
  observeRequest(model: string, status: number, seconds: number, promptTokens: number, completionTokens: number): void {
    const key = `${model}\u0000${status}`;
    let requests = this.requestChildren.get(key);
    if (!requests) {
      requests = this.requests.labels(model, String(status));
      this.requestChildren.set(key, requests);
    }
    requests.inc();
    let duration = this.durationChildren.get(model);
    if (!duration) {
      duration = this.duration.labels(model);
      this.durationChildren.set(model, duration);
    }
    duration.observe(seconds);
    if (promptTokens > 0 || completionTokens > 0) {
      let tokens = this.tokenChildren.get(model);
      if (!tokens) {
        tokens = { prompt: this.tokens.labels(model, 'prompt'), completion: this.tokens.labels(model, 'completion') };
        this.tokenChildren.set(model, tokens);
      }
      if (promptTokens > 0) tokens.prompt.inc(promptTokens);
      if (completionTokens > 0) tokens.completion.inc(completionTokens);
    }
  }

  /** Counts a refusal by a rate limit or budget (used by the rate-limit stage). */
  rateLimitHit(limitType: LimitType): void {
    this.rateLimitHits.labels(limitType).inc();
  }
}
