import { Counter, Histogram, type Registry } from 'prom-client';
import type { FastifyInstance } from 'fastify';

/** Route config flag: health probes and the scrape itself are not counted as traffic. */
export interface HttpMetricsConfig {
  readonly skipHttpMetrics?: boolean;
}

/** Counts every request by route template (never the raw URL: unbounded label values) and times it. */
export function registerHttpMetrics(app: FastifyInstance, registry: Registry, prefix: string): void {
  const requests = new Counter({
    name: `${prefix}_http_requests_total`,
    help: 'HTTP requests by route template, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: `${prefix}_http_request_duration_seconds`,
    help: 'HTTP request latency in seconds',
    labelNames: ['route', 'method'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    if ((request.routeOptions.config as HttpMetricsConfig | undefined)?.skipHttpMetrics) return;
    const route = request.routeOptions.url ?? 'unmatched';
    requests.inc({ route, method: request.method, status: String(reply.statusCode) });
    duration.observe({ route, method: request.method }, reply.elapsedTime / 1000);
  });
}
