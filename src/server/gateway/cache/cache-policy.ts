import type { CacheRule, CacheSettings } from '../../../shared/cache-api.js';
import type { Endpoint, RequestContext } from '../pipeline/request-context.js';

/** Endpoints whose answers are kept (a token count runs the policy stages too, but is never an answer to keep). */
export const CACHED_ENDPOINTS: ReadonlySet<Endpoint> = new Set(['chat', 'messages', 'responses', 'embeddings']);

/**
 * Which requests the cache may answer, and for how long, from the settings in force: a key's rule
 * wins over its model's, a model's over the global settings; a field a rule leaves out is inherited.
 */
export class CachePolicy {
  /** False when no setting turns the cache on anywhere: the stage then returns at once. */
  readonly active: boolean;
  readonly #settings: CacheSettings;
  // Maps, not the records: a key id or model named `constructor` must not find Object's members.
  readonly #models: ReadonlyMap<string, CacheRule>;
  readonly #keys: ReadonlyMap<string, CacheRule>;

  constructor(settings: CacheSettings) {
    this.#settings = settings;
    this.#models = new Map(Object.entries(settings.models));
    this.#keys = new Map(Object.entries(settings.keys));
    const rules = [...this.#models.values(), ...this.#keys.values()];
    this.active = settings.enabled || rules.some((rule) => rule.enabled === true);
  }

  /**
   * How long the answer to this request may be kept (ms), or undefined when the cache does not apply:
   * turned off for its key or model, a caller's own provider key (no tenant to scope it to), a
   * Responses request that keeps its answer (`store: true` writes a stored response each time), or
   * a sampled request (temperature absent or above 0) where `sampled` is off. Embeddings are
   * deterministic and always qualify.
   */
  ttlMs(ctx: RequestContext): number | undefined {
    const principal = ctx.principal;
    if (principal?.kind !== 'key' || !CACHED_ENDPOINTS.has(ctx.endpoint)) return undefined;
    const keyRule = this.#keys.get(principal.key.row.id);
    const modelRule = ctx.model === undefined ? undefined : this.#models.get(ctx.model);
    const settings = this.#settings;
    if (!(keyRule?.enabled ?? modelRule?.enabled ?? settings.enabled)) return undefined;
    const body = ctx.body;
    if (ctx.endpoint === 'responses' && body.store === true) return undefined;
    if (ctx.endpoint !== 'embeddings' && body.temperature !== 0) {
      if (!(keyRule?.sampled ?? modelRule?.sampled ?? settings.sampled)) return undefined;
    }
    return (keyRule?.ttl_seconds ?? modelRule?.ttl_seconds ?? settings.ttl_seconds) * 1000;
  }
}
