import type { Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { randomUUID } from 'node:crypto';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';

import type { SpanDropReason } from '../metrics/gateway-metrics.js';
import { QueueDropMeter } from './queue-drop-meter.js';
import { ReportingExporter } from './reporting-exporter.js';
import { RequestTrace, type TracedRequest } from './request-trace.js';
import type { TelemetryConfig } from './telemetry-config.js';
import { withinGrace } from '../../within-grace.js';

/** `service.instance.id` (still incubating in the semantic conventions, so not in their stable export). */
const ATTR_SERVICE_INSTANCE_ID = 'service.instance.id';

/**
 * The gateway's tracer: its own provider (never the process-wide global, so two apps in one process
 * export to their own collectors), batching spans to OTLP/HTTP in JSON.
 */
export class RequestTracing {
  readonly #provider: BasicTracerProvider;
  readonly #tracer: Tracer;
  readonly #exporter: ReportingExporter;
  readonly #queueDrops = new QueueDropMeter();

  constructor(
    config: TelemetryConfig,
    url: string,
    version: string,
    private readonly warn: (message: string) => void,
  ) {
    const exporter = new ReportingExporter(new OTLPTraceExporter({ url, headers: { ...config.otlp_headers } }), warn);
    this.#exporter = exporter;
    // The processor's self-observability meter (an option its config type does not list yet) is where
    // it counts the spans a full queue drops; the shim passes the option on to the processor.
    const selfObservation = { selfObsMeterProvider: this.#queueDrops };
    this.#provider = new BasicTracerProvider({
      // The SDK's own attributes (telemetry.sdk.*), the configured ones, then the service's: an instance
      // id of its own unless one is set, so two gateways reporting as one service are told apart.
      resource: defaultResource().merge(
        resourceFromAttributes({
          [ATTR_SERVICE_INSTANCE_ID]: randomUUID(),
          ...config.resource_attributes,
          [ATTR_SERVICE_NAME]: config.service_name,
          [ATTR_SERVICE_VERSION]: version,
        }),
      ),
      sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(config.sample_ratio) }),
      spanProcessors: [
        new BatchSpanProcessor(exporter, { scheduledDelayMillis: config.export_delay_ms, ...selfObservation }),
      ],
    });
    this.#tracer = this.#provider.getTracer('gatehouse-gateway', version);
  }

  /** The spans of a new request (its root span starts now). */
  begin(request: TracedRequest): RequestTrace {
    return new RequestTrace(this.#tracer, request);
  }

  /** Spans lost so far, by reason, for `gateway_otlp_spans_dropped_total`. */
  droppedSpans(): Readonly<Record<SpanDropReason, number>> {
    return { queue_full: this.#queueDrops.dropped, export_failed: this.#exporter.droppedSpans };
  }

  /** Sends what is pending (tests and shutdown). */
  flush(): Promise<void> {
    return this.#provider.forceFlush();
  }

  /**
   * Sends what is pending and stops, waiting at most `graceMs`: a collector that is down or slow
   * must not hold the gateway's shutdown (the exporter would wait out its own 10 s timeout per batch).
   */
  async shutdown(graceMs = SHUTDOWN_GRACE_MS): Promise<void> {
    const outcome = await withinGrace(this.#provider.shutdown(), graceMs);
    if (outcome === 'late')
      this.warn(`the OTLP endpoint did not take the last spans within ${graceMs} ms of shutdown; they were dropped`);
    else if ('error' in outcome)
      this.warn(`could not send the last spans at shutdown (${(outcome.error as Error).message}); they were dropped`);
  }
}

/** How long shutdown waits for the last spans to reach the collector. */
const SHUTDOWN_GRACE_MS = 1000;
