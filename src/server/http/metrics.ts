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

/** Serves the registry at `GET /metrics` in the Prometheus text format. */
export function registerMetricsRoute(
  app: FastifyInstance,
  registry: Registry,
  options: { config?: Record<string, unknown> } = {},
): void {
  app.get('/metrics', { config: { ...options.config, skipHttpMetrics: true } }, async (_request, reply) => {
    const text = await registry.metrics();
    return reply.type(registry.contentType).send(text);
  });
}
