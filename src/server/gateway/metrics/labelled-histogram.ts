import type { Metric, Registry } from 'prom-client';

/** One label set's counts. */
interface Series {
  /** The label values, in the order of the histogram's label names (fewer when some were not given). */
  readonly labels: readonly string[];
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

/** What a scrape reads of a metric: prom-client's registry formats it as it does its own. */
interface MetricSnapshot {
  readonly name: string;
  readonly help: string;
  readonly type: string;
  readonly aggregator: string;
  readonly values: readonly ExportedValue[];
}

/**
 * What prom-client's registry uses of a registered metric: `name` when it registers it, `get` on a
 * scrape (awaited, so a plain value does) and `reset` for resetMetrics.
 */
interface RegistryMetric {
  readonly name: string;
  get(): MetricSnapshot;
  reset(): void;
}

/**
 * Registers a metric of another class than prom-client's own. Its `Metric` type is the closed union of
 * its four classes (whose `type` is typed as an enum it does not export at run time), so no other class
 * can satisfy it; the registry reads only what {@link RegistryMetric} declares, which the parameter checks.
 */
function registerMetric(registry: Registry, metric: RegistryMetric): void {
  registry.registerMetric(metric as unknown as Metric<string>);
}

/**
 * A Prometheus histogram with one label or a few, registered in a prom-client registry and exposed
 * exactly as prom-client's own (`_bucket` with `le`, `_sum`, `_count`). prom-client hashes the label
 * set on every observation, which costs a request some microseconds; here an observation is an array
 * increment on the label set's series, and the cumulative buckets are built only when Prometheus scrapes.
 */
export class LabelledHistogram implements RegistryMetric {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly #series = new Map<string, Series>();
  readonly #labelNames: readonly string[];

  constructor(
    readonly name: string,
    readonly help: string,
    labelNames: string | readonly string[],
    private readonly bounds: readonly number[],
    registry: Registry,
  ) {
    this.#labelNames = typeof labelNames === 'string' ? [labelNames] : labelNames;
    registerMetric(registry, this);
  }

  /** Counts one observation of `value` for a label value, or label values in the order of the names. */
  observe(labels: string | readonly string[], value: number): void {
    const key = typeof labels === 'string' ? labels : labels.join('\u0000');
    let series = this.#series.get(key);
    if (series === undefined) {
      const values = typeof labels === 'string' ? [labels] : [...labels];
      series = { labels: values, counts: new Float64Array(this.bounds.length + 1), sum: 0, count: 0 };
      this.#series.set(key, series);
    }
    let bucket = 0;
    while (bucket < this.bounds.length && value > this.bounds[bucket]!) bucket += 1;
    series.counts[bucket]! += 1;
    series.sum += value;
    series.count += 1;
  }

  /** The exposition values (prom-client's registry calls this on a scrape). */
  get(): MetricSnapshot {
    const values: ExportedValue[] = [];
    const bucketName = `${this.name}_bucket`;
    for (const series of this.#series.values()) {
      const labels: Record<string, string> = {};
      series.labels.forEach((value, i) => {
        if (i < this.#labelNames.length) labels[this.#labelNames[i]!] = value;
      });
      let cumulative = 0;
      for (let i = 0; i < this.bounds.length; i += 1) {
        cumulative += series.counts[i]!;
        values.push({ value: cumulative, labels: { le: this.bounds[i]!, ...labels }, metricName: bucketName });
      }
      values.push({ value: series.count, labels: { le: '+Inf', ...labels }, metricName: bucketName });
      values.push({ value: series.sum, labels, metricName: `${this.name}_sum` });
      values.push({ value: series.count, labels, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  /** Forgets every series (the registry's resetMetrics). */
  reset(): void {
    this.#series.clear();
  }
}
