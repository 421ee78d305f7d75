import { randomUUID } from 'node:crypto';
import type { Dispatcher } from 'undici';
import { Pool } from './undici-parts.js';
import { UpstreamError } from './upstream-error.js';
import { withinGrace } from '../../within-grace.js';

/** The header that carries {@link UpstreamPools.loopMark}. */
export const LOOP_MARK_HEADER = 'x-gatehouse-via';

/**
 * A call that starts after the gateway closed its pools (the shutdown began): an UpstreamError, so the
 * providers' transport mapping passes it on as it is, which the route stage answers as the shutdown's
 * 503 without a retry or a mark on the deployment's health: no upstream was reached.
 */
export class PoolsClosedError extends UpstreamError {
  constructor() {
    super('upstream pools are closed: the gateway is shutting down', {
      status: 0,
      retryable: false,
      upstreamType: 'gateway_shutting_down',
    });
    this.name = 'PoolsClosedError';
  }
}

/** Where a request goes: the pool's origin and the path on it. */
export interface UpstreamTarget {
  readonly origin: string;
  readonly path: string;
}

/**
 * Parsed targets kept per pool set. Base URLs and paths come from configuration, so the set stays
 * small; should deployments be replaced with new addresses that often, it starts over past this.
 */
const MAX_TARGETS = 1000;

/**
 * The gateway's upstream connections: one undici keep-alive pool per origin (measured here, pooled
 * requests are some 7x the throughput of the global fetch). Owned by the gateway's services and
 * closed with them, so a stopped gateway leaves no sockets or timers behind.
 */
export class UpstreamPools {
  /**
   * This gateway's mark on its upstream calls (the `x-gatehouse-via` header): a request that arrives
   * carrying it came from the gateway itself, a provider address that points back at it.
   */
  readonly loopMark: string;
  readonly #pools = new Map<string, Pool>();
  /** By base URL, then path: two map lookups, where one keyed by both would build a string per call. */
  readonly #targets = new Map<string, Map<string, UpstreamTarget>>();
  #targetCount = 0;
  #closed = false;

  /** `loopMark`: another set's, for pools that stand in for the gateway's own (a test of an address). */
  constructor(loopMark: string = randomUUID()) {
    this.loopMark = loopMark;
  }

  /** The keep-alive pool for an origin (created on first use). */
  poolFor(origin: string): Dispatcher {
    if (this.#closed) throw new PoolsClosedError();
    let pool = this.#pools.get(origin);
    if (!pool) {
      pool = new Pool(origin, { keepAliveTimeout: 30_000, keepAliveMaxTimeout: 600_000 });
      this.#pools.set(origin, pool);
    }
    return pool;
  }

  /** Origin and request path of a base URL plus a path, parsed once per pair (URL parsing is not free on the hot path). */
  target(baseUrl: string, path: string): UpstreamTarget {
    let byPath = this.#targets.get(baseUrl);
    let target = byPath?.get(path);
    if (target === undefined) {
      const url = new URL(baseUrl);
      target = { origin: url.origin, path: `${url.pathname.replace(/\/+$/, '')}${path}${url.search}` };
      if (this.#targetCount >= MAX_TARGETS) {
        this.#targets.clear();
        this.#targetCount = 0;
        byPath = undefined;
      }
      if (byPath === undefined) {
        byPath = new Map();
        this.#targets.set(baseUrl, byPath);
      }
      byPath.set(path, target);
      this.#targetCount += 1;
    }
    return target;
  }

  /**
   * Closes every pool. Requests still running after `graceMs` (a long stream) are destroyed rather
   * than waited for.
   */
  async close(graceMs = 1000): Promise<void> {
    this.#closed = true;
    const all = [...this.#pools.values()];
    this.#pools.clear();
    await Promise.all(all.map((pool) => closePool(pool, graceMs)));
  }
}

async function closePool(pool: Pool, graceMs: number): Promise<void> {
  const outcome = await withinGrace(pool.close(), graceMs);
  if (outcome === 'late' || 'error' in outcome) await pool.destroy().catch(() => undefined);
}
