import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';

type ExportCallback = Parameters<SpanExporter['export']>[1];

/** How often a failing collector is reported at most. */
const REPORT_INTERVAL_MS = 60_000;

/**
 * An exporter that says when exports fail (OpenTelemetry drops them silently otherwise), at most
 * once a minute, so a collector that is down is visible in the gateway's log without flooding it.
 */
export class ReportingExporter implements SpanExporter {
  #lastReport = -Infinity;
  #dropped = 0;
  #droppedInAll = 0;

  constructor(
    private readonly inner: SpanExporter,
    private readonly report: (message: string) => void,
  ) {}

  /** Exports through the inner exporter, counting what failed. */
  export(spans: ReadableSpan[], done: ExportCallback): void {
    this.inner.export(spans, (result) => {
      // ExportResultCode.SUCCESS is 0.
      if (result.code !== 0) {
        this.#dropped += spans.length;
        this.#droppedInAll += spans.length;
        const now = performance.now();
        if (now - this.#lastReport >= REPORT_INTERVAL_MS) {
          this.#lastReport = now;
          this.report(
            `could not export ${this.#dropped} spans to the OTLP endpoint (${result.error?.message ?? 'unknown error'}); they were dropped, and so were any that found the export queue full meanwhile`,
          );
          this.#dropped = 0;
        }
      }
      done(result);
    });
  }

  /** Spans of the exports that failed, since the start (`gateway_otlp_spans_dropped_total`). */
  get droppedSpans(): number {
    return this.#droppedInAll;
  }

  /** Stops the inner exporter. */
  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  /** Sends what the inner exporter holds. */
  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}
