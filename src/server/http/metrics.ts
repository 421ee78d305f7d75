import { Registry, collectDefaultMetrics } from 'prom-client';
import type { FastifyInstance } from 'fastify';

/**
 * prom-client's gauges named like counters, which `promtool check metrics` refuses (a `_total` name
 * is a counter's): each is the sum of the gauge of the same name without it, kept, by type.
 */
const GAUGES_NAMED_AS_COUNTERS = [
  'nodejs_active_resources_total',
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
];

/** A registry of its own per app, with the default process metrics, so two apps in one process never collide. */
export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  for (const name of GAUGES_NAMED_AS_COUNTERS) registry.removeSingleMetric(name);
  return registry;
}

/**
 * The shortest time between two renderings of `/metrics`. A rendering takes milliseconds of CPU
 * (the gateway's has hundreds of series), and the route is public: without a bound, a client asking
 * many times a second, or pipelining thousands of requests on one socket, keeps the service busy
 * rendering. Prometheus scrapes every 15 s or more, so waiting up to this long costs it nothing.
 */
export const METRICS_RENDER_INTERVAL_MS = 250;

/**
 * The registry's text, rendered after the call (a scrape always sees what happened before it), but
 * at most once per `intervalMs`: calls that arrive before the next rendering starts share it.
 */
export function throttledRendering(registry: Registry, intervalMs: number): () => Promise<string> {
  let next: Promise<string> | undefined;
  let lastStart = Number.NEGATIVE_INFINITY;
  return () => {
    if (next !== undefined) return next;
    const wait = lastStart + intervalMs - performance.now();
    // setImmediate, not a microtask: every request of a pipelined batch Node parsed from one read joins.
    const started = new Promise<void>((resolve) => (wait > 0 ? setTimeout(resolve, wait) : setImmediate(resolve)));
    next = started.then(() => {
      // Calls from now on wait for the next rendering: this one may not see what they follow.
      next = undefined;
      lastStart = performance.now();
      return registry.metrics();
    });
    return next;
  };
}

/** Serves the registry at `GET /metrics` in the Prometheus text format (see {@link METRICS_RENDER_INTERVAL_MS}). */
export function registerMetricsRoute(
  app: FastifyInstance,
  registry: Registry,
  options: { config?: Record<string, unknown>; renderIntervalMs?: number } = {},
): void {
  const render = throttledRendering(registry, options.renderIntervalMs ?? METRICS_RENDER_INTERVAL_MS);
  app.get('/metrics', { config: { ...options.config, skipHttpMetrics: true } }, async (_request, reply) => {
    const text = await render();
    return reply.type(registry.contentType).send(text);
  });
}
