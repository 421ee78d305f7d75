/**
 * A metric's value in a Prometheus text exposition, summed over its label sets (`gateway_cache_hits_total`
 * counts per model): 0 when the metric has no sample yet. `labels` keeps only the samples carrying them,
 * written as in the exposition (`model="demo/echo"`).
 */
export function metricValue(text: string, name: string, labels?: string): number {
  let sum = 0;
  for (const match of text.matchAll(new RegExp(`^${name}(?:\\{([^}]*)\\})? (\\S+)$`, 'gm')))
    if (labels === undefined || (match[1] ?? '').includes(labels)) sum += Number(match[2]);
  return sum;
}
