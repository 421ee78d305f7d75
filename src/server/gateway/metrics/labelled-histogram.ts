import type { Registry } from 'prom-client';

/** One label value's counts. */
interface Series {
  /** Observations per bucket (not cumulative), the last one above every bound. */
  readonly counts: Float64Array;
  sum: number;
  count: number;
}

/** A value of the exposition, as prom-client's registry formats it. */
interface ExportedValue {
  readonly value: number;
  readonly labels: Readonly<Record<string, string | number>>;
  readonly metricName: string;
}

/**
 * A Prometheus histogram with one label, registered in a prom-client registry and exposed exactly
 * as prom-client's own (`_bucket` with `le`, `_sum`, `_count`). prom-client hashes the label set on
 * every observation, which costs a request some microseconds; here an observation is an array
 * increment on the label's series, and the cumulative buckets are built only when Prometheus scrapes.
 */
export class LabelledHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly #series = new Map<string, Series>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelName: string,
    private readonly bounds: readonly number[],
    registry: Registry,
  ) {
    registry.registerMetric(this as never);
  }

  /** Counts one observation of `value` for the label value `label`. */
  observe(label: string, value: number): void {
    let series = this.#series.get(label);
    if (series === undefined) {
      series = { counts: new Float64Array(this.bounds.length + 1), sum: 0, count: 0 };
      this.#series.set(label, series);
    }
    let bucket = 0;
    while (bucket < this.bounds.length && value > this.bounds[bucket]!) bucket += 1;
    series.counts[bucket]! += 1;
    series.sum += value;
    series.count += 1;
  }

  /** The exposition values (prom-client's registry calls this on a scrape). */
  get(): { name: string; help: string; type: string; aggregator: string; values: ExportedValue[] } {
    const values: ExportedValue[] = [];
    const bucketName = `${this.name}_bucket`;
    for (const [label, series] of this.#series) {
      let cumulative = 0;
      for (let i = 0; i < this.bounds.length; i += 1) {
        cumulative += series.counts[i]!;
        values.push({
          value: cumulative,
          labels: { le: this.bounds[i]!, [this.labelName]: label },
          metricName: bucketName,
        });
      }
      values.push({ value: series.count, labels: { le: '+Inf', [this.labelName]: label }, metricName: bucketName });
      values.push({ value: series.sum, labels: { [this.labelName]: label }, metricName: `${this.name}_sum` });
      values.push({ value: series.count, labels: { [this.labelName]: label }, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  /** Forgets every series (the registry's resetMetrics). */
  reset(): void {
    this.#series.clear();
  }
}
