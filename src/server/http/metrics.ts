import { Registry, collectDefaultMetrics } from 'prom-client';
import type { FastifyInstance } from 'fastify';

/** A registry of its own per app, with the default process metrics, so two apps in one process never collide. */
export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
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
