import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { LabelledHistogram } from '../../../src/server/gateway/metrics/labelled-histogram.js';

describe('labelled histogram', () => {
  it("exposes exactly what prom-client's own histogram exposes for the same observations", async () => {
    const buckets = [0.001, 0.01, 0.1, 1, 10];
    const ours = new Registry();
    const theirs = new Registry();
    const mine = new LabelledHistogram('h_seconds', 'help text', 'model', buckets, ours);
    const reference = new Histogram({
      name: 'h_seconds',
      help: 'help text',
      labelNames: ['model'],
      buckets,
      registers: [theirs],
    });
    const observations: Array<[string, number]> = [
      ['a', 0.0005],
      ['a', 0.001],
      ['a', 0.05],
      ['b', 3],
      ['a', 42],
      ['b', 0.01],
    ];
    for (const [model, value] of observations) {
      mine.observe(model, value);
      reference.labels(model).observe(value);
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
    ours.resetMetrics();
    expect(await ours.metrics()).toBe('# HELP h_seconds help text\n# TYPE h_seconds histogram\n');
  });
});
