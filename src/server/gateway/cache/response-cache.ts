import type { IncomingHttpHeaders } from 'node:http';
import type { CachePurge, CacheSettings, CacheStats } from '../../../shared/cache-api.js';
import type { Usage } from '../formats/ir.js';
import type { GatewayMetrics } from '../metrics/gateway-metrics.js';
import type { ModelRegistry } from '../model-registry/model-registry.js';
import type { ProviderAnswer, StreamAnswer } from '../providers/answer.js';
import type { RequestContext } from '../pipeline/request-context.js';
import { cacheKey } from './cache-key.js';
import { CachePolicy } from './cache-policy.js';
import { keptJson, keptStream, replayed, type CachedBody } from './kept-body.js';
import { ResponseStore, type CachedAnswer, type StoreBounds } from './response-store.js';

const NO_USAGE: Usage = Object.freeze({ promptTokens: 0, completionTokens: 0 });
const NO_CACHE = /\bno-cache\b/i;
const NO_STORE = /\bno-store\b/i;

function boundsOf(settings: CacheSettings): StoreBounds {
  return {
    maxEntries: settings.max_entries,
    maxBytes: settings.max_bytes,
    maxEntryBytes: settings.max_entry_bytes,
  };
}

/** Request headers that change the answer besides the body (Anthropic's beta features, forwarded natively). */
function variantOf(headers: IncomingHttpHeaders): string {
  const beta = headers['anthropic-beta'];
  return beta === undefined ? '' : String(beta);
}

async function* framesOf(frames: readonly string[]): AsyncGenerator<string> {
  for (const frame of frames) yield frame;
}

/**
 * The longest time to live any setting gives (ms): older answers are read by no one, whatever their key
 * or model.
 */
function longestTtlMs(settings: CacheSettings): number {
  let seconds = settings.ttl_seconds;
  for (const rule of [...Object.values(settings.models), ...Object.values(settings.keys)])
    seconds = Math.max(seconds, rule.ttl_seconds ?? 0);
  return seconds * 1000;
}

/**
 * A kept answer as the respond stage sends it: the same bytes but for fresh ids and the hit's time,
 * and no upstream tokens.
 */
function answerOf(body: CachedBody): ProviderAnswer {
  const replay = replayed(body);
  if (replay.kind === 'stream')
    return { kind: 'stream', events: framesOf(replay.frames), usage: () => NO_USAGE, error: () => undefined };
  const text = replay.text;
  // Parsed only when an output stage (PII restore) needs the object, and afresh each time, since it may rewrite it.
  return {
    kind: 'json',
    text,
    usage: NO_USAGE,
    get body(): object {
      return JSON.parse(text) as object;
    },
  };
}

/**
 * The response cache: the `cacheLookup` policy stage (answers a request from memory, scoped to its
 * key's team or to the key), and `capture`, which keeps a successful provider answer on its way to
 * the client. Settings change live (`configure`).
 */
export class ResponseCache {
  #policy: CachePolicy;
  #settings: CacheSettings;
  readonly #store: ResponseStore;

  constructor(
    settings: CacheSettings,
    private readonly registry: ModelRegistry,
    private readonly metrics: GatewayMetrics,
  ) {
    this.#settings = settings;
    this.#policy = new CachePolicy(settings);
    this.#store = new ResponseStore(boundsOf(settings));
    metrics.readCacheSize(() => this.#store.stats());
  }

  /** The settings in force. */
  settings(): CacheSettings {
    return this.#settings;
  }

  /**
   * Applies new settings at once. Turning the cache off forgets every kept answer, so turning it on
   * again starts empty rather than bringing back answers from before; otherwise kept answers stay
   * (within the new bounds) but those older than any time to live now in force. Returns how many
   * were forgotten.
   */
  configure(settings: CacheSettings): number {
    const before = this.#settings;
    const wasActive = this.#policy.active;
    this.#settings = settings;
    this.#policy = new CachePolicy(settings);
    if (
      before.max_entries !== settings.max_entries ||
      before.max_bytes !== settings.max_bytes ||
      before.max_entry_bytes !== settings.max_entry_bytes
    )
      this.#store.resize(boundsOf(settings));
    const turnedOff = (before.enabled && !settings.enabled) || (wasActive && !this.#policy.active);
    return turnedOff ? this.#store.purge({}) : this.#store.prune(longestTtlMs(settings));
  }

  /** Forgets kept answers (all, or those of a team, key or model); returns how many. */
  purge(filter: CachePurge): number {
    return this.#store.purge(filter);
  }

  /** True when some kept answer matches every given field. */
  holds(filter: CachePurge): boolean {
    return this.#store.holds(filter);
  }

  /** Counters and size. */
  stats(): CacheStats {
    return this.#store.stats();
  }

  /**
   * The `cacheLookup` stage. The key is the body as it would be routed (after alias, caps and the
   * earlier policy stages rewrote it), so two requests that differ only in an alias share an entry.
   * `Cache-Control: no-cache` skips the lookup but refreshes the entry; `no-store` does neither.
   */
  readonly lookup = (ctx: RequestContext): ProviderAnswer | undefined => {
    const policy = this.#policy;
    if (!policy.active) return undefined;
    const ttlMs = policy.ttlMs(ctx);
    if (ttlMs === undefined) return undefined;
    const control = ctx.headers['cache-control'];
    if (control !== undefined && NO_STORE.test(control)) {
      ctx.cache = { key: undefined, ttlMs, bypassed: true };
      return undefined;
    }
    const row = ctx.principal?.kind === 'key' ? ctx.principal.key.row : undefined;
    if (row === undefined) return undefined;
    const scope = row.team !== null ? `team:${row.team}` : `key:${row.id}`;
    const key = cacheKey(scope, ctx.endpoint, ctx.body, variantOf(ctx.headers));
    const bypassed = control !== undefined && NO_CACHE.test(control);
    ctx.cache = { key, ttlMs, bypassed };
    if (bypassed) return undefined;
    const entry = this.#store.get(key, ttlMs);
    if (entry === undefined) {
      this.metrics.cacheMisses.inc();
      return undefined;
    }
    ctx.cached = true;
    this.metrics.cacheHits.inc();
    // The deployment that answered first, when it still serves the model: its id goes in the answer's header.
    if (entry.deploymentId !== undefined)
      ctx.deployment = this.registry.deploymentsFor(entry.model).find((d) => d.id === entry.deploymentId);
    return answerOf(entry.body);
  };

  /** Keeps a provider's answer for the request's entry: JSON at once, a stream once it ended without failure. */
  capture(ctx: RequestContext, answer: ProviderAnswer): ProviderAnswer {
    const state = ctx.cache;
    const row = ctx.principal?.kind === 'key' ? ctx.principal.key.row : undefined;
    if (state?.key === undefined || row === undefined || ctx.model === undefined) return answer;
    const key = state.key;
    const model = ctx.model;
    const deploymentId = ctx.deployment?.id;
    // Cutting the answer where a replay changes it walks it once: run after the answer went out, not before.
    const keep = (kept: () => CachedBody | undefined): void => {
      setImmediate(() => {
        const body = kept();
        if (body === undefined || body.size > this.#settings.max_entry_bytes) return;
        // A team deleted while the answer was on its way takes no entry with it into a team of its id.
        if (!ctx.services.principals.sameTeamSince(row.team, ctx.startedAtMs)) return;
        const entry: CachedAnswer = { body, team: row.team, keyId: row.id, model, deploymentId };
        this.#store.set(key, entry, state.ttlMs);
        this.metrics.cacheStores.inc();
      });
    };
    if (answer.kind === 'json') {
      const { body, text } = answer;
      if ((text ?? '').length <= this.#settings.max_entry_bytes) keep(() => keptJson(ctx.endpoint, body, text));
      return answer;
    }
    return { ...answer, events: this.#recording(ctx, answer, keep) } satisfies StreamAnswer;
  }

  /** The stream's frames as they pass; kept only when the stream ended by itself, complete and without failure. */
  async *#recording(
    ctx: RequestContext,
    answer: StreamAnswer,
    keep: (kept: () => CachedBody | undefined) => void,
  ): AsyncGenerator<string> {
    const limit = this.#settings.max_entry_bytes;
    let frames: string[] | undefined = [];
    let size = 0;
    for await (const frame of answer.events) {
      if (frames !== undefined) {
        size += frame.length;
        if (size > limit) frames = undefined;
        else frames.push(frame);
      }
      yield frame;
    }
    if (frames !== undefined && answer.error() === undefined && !ctx.signal.aborted && ctx.errorType === undefined)
      keep(() => keptStream(ctx.endpoint, frames));
  }
}
