import type { IncomingHttpHeaders } from 'node:http';
import type { CachePurge, CacheSettings, CacheStats, NotKeptReason } from '../../../shared/cache-api.js';
import type { CacheStatus } from '../accounting/usage-entry.js';
import type { Usage } from '../formats/ir.js';
import { modelLabel, type GatewayMetrics } from '../metrics/gateway-metrics.js';
import type { ModelRegistry } from '../model-registry/model-registry.js';
import type { ProviderAnswer, StreamAnswer } from '../providers/answer.js';
import type { RequestContext } from '../pipeline/request-context.js';
import { DEFAULT_TIMEOUT_MS } from '../providers/provider-settings.js';
import { deadlineEndsAt } from '../pipeline/stages/request-deadline.js';
import { cacheKey } from './cache-key.js';
import { CACHED_ENDPOINTS, CachePolicy } from './cache-policy.js';
import { CollapsedRequests } from './collapsed-requests.js';
import { keptJson, keptStream, replayed, type CachedBody } from './kept-body.js';
import { DEFAULT_CACHE_CONTROL, requestCacheControl } from './request-cache-control.js';
import { ResponseStore, type CachedAnswer, type StoreBounds } from './response-store.js';
import type { CacheHit } from './cache-state.js';
import { NotKeptLog } from './not-kept-log.js';

/** Response header on a whole answer the cache did not keep, naming why (`too_large`); absent otherwise. */
export const CACHE_NOT_KEPT_HEADER = 'x-gatehouse-cache-not-kept';

const NO_USAGE: Usage = Object.freeze({ promptTokens: 0, completionTokens: 0 });

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
  readonly #collapsed = new CollapsedRequests();
  readonly #counts = { bypasses: 0, refreshes: 0, collapsed: 0 };
  readonly #notKept: Record<NotKeptReason, number> = { too_large: 0, incomplete: 0, client_left: 0, error: 0 };
  readonly #notKeptLog: NotKeptLog;

  constructor(
    settings: CacheSettings,
    private readonly registry: ModelRegistry,
    private readonly metrics: GatewayMetrics,
    /** Where a warning goes (an answer too large to keep); at most one a minute per reason. */
    warn: (message: string) => void = () => {},
  ) {
    this.#notKeptLog = new NotKeptLog(warn);
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
    return { ...this.#store.stats(), ...this.#counts, not_kept: { ...this.#notKept } };
  }

  /**
   * The `cacheLookup` stage. The key is the body as it would be routed (after alias, caps and the
   * earlier policy stages rewrote it), so two requests that differ only in an alias share an entry.
   * The request's headers only narrow what its settings allow: `no-cache` (`x-gatehouse-cache:
   * refresh`) skips the lookup but refreshes the entry, `no-store` (`off`) does neither, `max-age`
   * lowers the age accepted and `x-gatehouse-cache-ttl` the time the answer is kept. A whole answer
   * that misses while an identical request is being answered waits for that answer, at most until
   * its own deadline.
   */
  readonly lookup = (ctx: RequestContext): ProviderAnswer | undefined | Promise<ProviderAnswer | undefined> => {
    // Read before the cache's own switch, by design (docs/cache-and-traces.md): a header that cannot be
    // read is refused whether or not the cache applies, so a typo never goes unnoticed. Without cache
    // headers this is three property reads.
    const request = CACHED_ENDPOINTS.has(ctx.endpoint) ? requestCacheControl(ctx.headers) : DEFAULT_CACHE_CONTROL;
    const policy = this.#policy;
    if (!policy.active) return undefined;
    const settingsTtlMs = policy.ttlMs(ctx);
    if (settingsTtlMs === undefined) return undefined;
    const ttlMs = Math.min(settingsTtlMs, request.ttlMs ?? settingsTtlMs);
    if (!request.store) {
      ctx.cache = { key: undefined, ttlMs, bypassed: true, status: 'bypass' };
      told(ctx, 'bypass');
      this.#counts.bypasses += 1;
      this.metrics.cacheBypasses.inc();
      return undefined;
    }
    const row = ctx.principal?.kind === 'key' ? ctx.principal.key.row : undefined;
    if (row === undefined) return undefined;
    const scope = row.team !== null ? `team:${row.team}` : `key:${row.id}`;
    const key = cacheKey(scope, ctx.endpoint, ctx.body, variantOf(ctx.headers));
    if (!request.lookup) {
      ctx.cache = { key, ttlMs, bypassed: true, status: 'refresh' };
      told(ctx, 'refresh');
      this.#counts.refreshes += 1;
      this.metrics.cacheRefreshes.inc();
      return undefined;
    }
    ctx.cache = { key, ttlMs, bypassed: false, status: 'miss' };
    const entry = this.#store.get(key, Math.min(settingsTtlMs, request.maxAgeMs ?? settingsTtlMs));
    if (entry !== undefined) return this.#answerFromCache(ctx, entry, performance.now() - entry.storedAt);
    // Streams are relayed as they come: only whole answers are collapsed.
    if (ctx.body.stream === true) return this.#missed(ctx);
    // A wait ends with the request's deadline too: the route stage then answers the deadline's miss.
    const waiting = this.#collapsed.waitFor(key, ctx.watch, () => deadlineEndsAt(ctx));
    if (waiting === undefined) {
      this.#leadFor(ctx, key, ttlMs);
      return this.#missed(ctx);
    }
    return waiting.then((answer) => {
      if (answer === undefined) return this.#missed(ctx);
      this.#store.missAnswered();
      this.#counts.collapsed += 1;
      this.metrics.cacheCollapsed.inc();
      // The identical request's answer is fresh: it was made while this one waited.
      return this.#answerFromCache(ctx, answer, 0);
    });
  };

  #missed(ctx: RequestContext): undefined {
    told(ctx, 'miss');
    this.metrics.cacheMisses.inc({ model: modelLabel(ctx.model, this.registry) });
    return undefined;
  }

  /**
   * A kept answer (or an identical request's fresh one) as this request's: accounted as a hit, no
   * tokens; what the kept answer cost is recorded beside it as saved (the finishing stage prices it).
   */
  #answerFromCache(ctx: RequestContext, entry: CachedAnswer, ageMs: number): ProviderAnswer {
    ctx.cached = true;
    const hit: CacheHit = { usage: entry.usage, ageMs };
    ctx.cache = { ...ctx.cache!, status: 'hit', hit };
    // HTTP's Age: whole seconds the answer spent in the cache.
    told(ctx, 'hit', String(Math.floor(ageMs / 1000)));
    this.metrics.cacheHits.inc({ model: modelLabel(ctx.model, this.registry) });
    // The deployment that answered first, when it still serves the model: its id goes in the answer's header.
    if (entry.deploymentId !== undefined)
      ctx.deployment = this.registry.deploymentsFor(entry.model).find((d) => d.id === entry.deploymentId);
    return answerOf(entry.body);
  }

  /**
   * Makes this request the one identical requests wait for, for as long as its longest upstream call
   * may take; a client that leaves settles the wait with nothing.
   */
  #leadFor(ctx: RequestContext, key: string, ttlMs: number): void {
    const deployments = ctx.model === undefined ? [] : this.registry.deploymentsFor(ctx.model);
    const timeoutMs = deployments.reduce((longest, d) => Math.max(longest, d.timeoutMs), 0) || DEFAULT_TIMEOUT_MS;
    const lead = this.#collapsed.lead(key, timeoutMs);
    if (lead === undefined) return;
    ctx.cache = { key, ttlMs, bypassed: false, status: 'miss', lead };
    ctx.watch.once('abort', () => lead(undefined));
  }

  /** Lets the requests waiting for this one call the provider themselves: its call failed, or its client left. */
  release(ctx: RequestContext): void {
    const state = ctx.cache;
    if (state?.key === undefined) return;
    state.lead?.(undefined);
    this.#notKeptFor(ctx.watch.aborted && !ctx.watch.shuttingDown ? 'client_left' : 'error');
  }

  #notKeptFor(reason: NotKeptReason): void {
    this.#notKept[reason] += 1;
    this.metrics.cacheNotKept.inc({ reason });
  }

  /** An answer of `bytes` over `cache.max_entry_bytes`: counted, and said in the log (at most once a minute). */
  #tooLarge(ctx: RequestContext, model: string, bytes: number): void {
    this.#notKeptFor('too_large');
    this.#notKeptLog.tooLarge(ctx.endpoint, model, bytes, this.#settings.max_entry_bytes);
  }

  /**
   * Keeps a provider's answer for the request's entry: JSON at once, a stream once it ended without
   * failure. The requests waiting for this one get the kept answer, or nothing when it is not kept.
   */
  capture(ctx: RequestContext, answer: ProviderAnswer): ProviderAnswer {
    const state = ctx.cache;
    const row = ctx.principal?.kind === 'key' ? ctx.principal.key.row : undefined;
    const lead = state?.lead ?? ((): void => undefined);
    if (state?.key === undefined || row === undefined || ctx.model === undefined) {
      lead(undefined);
      return answer;
    }
    const key = state.key;
    const model = ctx.model;
    const deploymentId = ctx.deployment?.id;
    // Cutting the answer where a replay changes it walks it once: run after the answer went out, not before.
    // Its size was measured (in UTF-8 bytes) and checked against max_entry_bytes before.
    const keep = (kept: () => CachedBody | undefined, usage: Usage): void => {
      setImmediate(() => {
        const body = kept();
        if (body === undefined) this.#notKeptFor('incomplete');
        // A team deleted while the answer was on its way takes no entry with it into a team of its id.
        if (body === undefined || !ctx.services.principals.sameTeamSince(row.team, ctx.startedAtMs)) {
          lead(undefined);
          return;
        }
        const entry: CachedAnswer = { body, usage: { ...usage }, team: row.team, keyId: row.id, model, deploymentId };
        this.#store.set(key, entry, state.ttlMs);
        this.metrics.cacheStores.inc();
        lead(entry);
      });
    };
    if (answer.kind === 'json') {
      const { body } = answer;
      // Serialised here when the answer came without its text (translated): the respond stage would anyway.
      const text = answer.text ?? JSON.stringify(body);
      // Measured once, before the headers go out, so that the answer can say it was not kept.
      const bytes = Buffer.byteLength(text);
      if (bytes <= this.#settings.max_entry_bytes) keep(() => keptJson(ctx.endpoint, body, text, bytes), answer.usage);
      else {
        this.#tooLarge(ctx, model, bytes);
        ctx.replyHeaders = { ...ctx.replyHeaders, [CACHE_NOT_KEPT_HEADER]: 'too_large' };
        lead(undefined);
      }
      // The text made here goes out as it is: nothing changes the body after the cache saw it.
      return answer.text === text ? answer : { ...answer, text };
    }
    lead(undefined);
    return { ...answer, events: this.#recording(ctx, model, answer, keep) } satisfies StreamAnswer;
  }

  /** The stream's frames as they pass; kept only when the stream ended by itself, complete and without failure. */
  async *#recording(
    ctx: RequestContext,
    model: string,
    answer: StreamAnswer,
    keep: (kept: () => CachedBody | undefined, usage: Usage) => void,
  ): AsyncGenerator<string> {
    const limit = this.#settings.max_entry_bytes;
    let frames: string[] | undefined = [];
    let size = 0;
    let ended = false;
    try {
      for await (const frame of answer.events) {
        // Measured on: the log says how large the answer was that the cache could not keep.
        size += Buffer.byteLength(frame);
        if (frames !== undefined) {
          if (size > limit) frames = undefined;
          else frames.push(frame);
        }
        yield frame;
      }
      ended = true;
    } finally {
      // Not read to its end: its client left (the relay stopped pulling), or the upstream stream threw.
      if (!ended) this.#notKeptFor(ctx.watch.aborted ? 'client_left' : 'error');
    }
    if (frames === undefined) this.#tooLarge(ctx, model, size);
    else if (ctx.watch.aborted) this.#notKeptFor('client_left');
    else if (answer.error() !== undefined || ctx.errorType !== undefined) this.#notKeptFor('error');
    else keep(() => keptStream(ctx.endpoint, frames, size), answer.usage());
  }
}

/** Says what the cache did in the answer's headers (`x-gatehouse-cache`, and `Age` on a hit). */
function told(ctx: RequestContext, status: CacheStatus, age?: string): void {
  ctx.replyHeaders =
    age === undefined
      ? { ...ctx.replyHeaders, 'x-gatehouse-cache': status }
      : { ...ctx.replyHeaders, 'x-gatehouse-cache': status, age };
}
