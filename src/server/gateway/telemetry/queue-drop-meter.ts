import { createNoopMeter, type Counter, type Meter, type MeterProvider } from '@opentelemetry/api';

/** The SDK's count of spans its processor is done with, each drop marked with an `error.type`. */
const PROCESSED_SPANS = 'otel.sdk.processor.span.processed';

/**
 * Counts the spans the batch processor drops because its export queue is full. The SDK keeps that
 * count to itself (one debug line, then one `diag` warning nobody reads) except through its
 * self-observability meter: this meter takes only that counter, and answers every other instrument
 * with OpenTelemetry's no-op, so nothing else is recorded.
 */
export class QueueDropMeter implements MeterProvider {
  #dropped = 0;

  /** Spans dropped for a full queue since the start. */
  get dropped(): number {
    return this.#dropped;
  }

  getMeter(): Meter {
    const noop = createNoopMeter();
    const processed: Counter = {
      add: (value, attributes) => {
        if (attributes?.['error.type'] === 'queue_full') this.#dropped += value;
      },
    };
    const meter = Object.create(noop) as Meter;
    meter.createCounter = (name, options) => (name === PROCESSED_SPANS ? processed : noop.createCounter(name, options));
    return meter;
  }
}
