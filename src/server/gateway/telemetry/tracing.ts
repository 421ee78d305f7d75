import type { Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { ReportingExporter } from './reporting-exporter.js';
import { RequestTrace, type TracedRequest } from './request-trace.js';
import type { TelemetryConfig } from './telemetry-config.js';

/**
 * The gateway's tracer: its own provider (never the process-wide global, so two apps in one process
 * export to their own collectors), batching spans to OTLP/HTTP in JSON.
 */
export class RequestTracing {
  readonly #provider: BasicTracerProvider;
  readonly #tracer: Tracer;

  constructor(config: TelemetryConfig, url: string, version: string, warn: (message: string) => void) {
    const exporter = new ReportingExporter(new OTLPTraceExporter({ url, headers: { ...config.otlp_headers } }), warn);
    this.#provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: config.service_name, [ATTR_SERVICE_VERSION]: version }),
      sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(config.sample_ratio) }),
      spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: config.export_delay_ms })],
    });
    this.#tracer = this.#provider.getTracer('gatehouse-gateway', version);
  }

  /** The spans of a new request (its root span starts now). */
  begin(request: TracedRequest): RequestTrace {
    return new RequestTrace(this.#tracer, request);
  }

  /** Sends what is pending (tests and shutdown). */
  flush(): Promise<void> {
    return this.#provider.forceFlush();
  }

  /** Sends what is pending and stops. */
  shutdown(): Promise<void> {
    return this.#provider.shutdown();
  }
}
