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
  // prom-client hashes the label object on every call; the children of each route are kept instead
  // (route templates, methods and statuses are few, so the maps stay small).
  const counters = new Map<string, Counter.Internal>();
  const timers = new Map<string, Histogram.Internal<'route' | 'method'>>();
  // Callback style: an async hook costs a promise on every request.
  app.addHook('onResponse', (request, reply, done) => {
    const options = request.routeOptions;
    if (!(options.config as HttpMetricsConfig | undefined)?.skipHttpMetrics) {
      const route = options.url ?? 'unmatched';
      const method = request.method;
      const status = reply.statusCode;
      const timerKey = `${method} ${route}`;
      const counterKey = `${status} ${timerKey}`;
      let counter = counters.get(counterKey);
      if (!counter) {
        counter = requests.labels(route, method, String(status));
        counters.set(counterKey, counter);
      }
      let timer = timers.get(timerKey);
      if (!timer) {
        timer = duration.labels(route, method);
        timers.set(timerKey, timer);
      }
      counter.inc();
      timer.observe(reply.elapsedTime / 1000);
    }
    done();
  });
}
