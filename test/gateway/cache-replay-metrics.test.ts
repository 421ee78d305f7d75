import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricValue } from '../support/metric-value.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/** The cache's hit rate and size can be read from Prometheus: hits, misses and stores, entries and bytes. */
describe('cache metrics', () => {
  let h: GatewayHarness;
  let key: string;

  beforeAll(async () => {
    h = await startGatewayHarness({ cache: { enabled: true } });
    key = (await h.issueKey({ scopes: ['chat'] })).key;
  });
  afterAll(async () => h?.close());

  const scrape = async (): Promise<Record<string, number>> => {
    const text = await (await fetch(`${h.url}/metrics`)).text();
    const value = (name: string): number => metricValue(text, name);
    const names = ['hits_total', 'misses_total', 'stores_total', 'entries', 'bytes'];
    return Object.fromEntries(names.map((name) => [name, value(`gateway_cache_${name}`)]));
  };

  it('counts misses and stores beside hits, and shows what the cache holds', async () => {
    await h.admin('POST', '/internal/cache/purge', {});
    const before = await scrape();
    expect(before).toMatchObject({ entries: 0, bytes: 0 });
    const client = h.openaiClient(key);
    const ask = (content: string) =>
      client.chat.completions.create({ model: 'gpt-4o-mini', temperature: 0, messages: [{ role: 'user', content }] });
    await ask('one');
    await ask('one');
    await ask('two');
    await ask('one');
    // Skips the lookup: neither a hit nor a miss, but the answer is kept again.
    await client.chat.completions.create(
      { model: 'gpt-4o-mini', temperature: 0, messages: [{ role: 'user', content: 'two' }] },
      { headers: { 'cache-control': 'no-cache' } },
    );
    const after = await scrape();
    expect({
      hits: after.hits_total! - before.hits_total!,
      misses: after.misses_total! - before.misses_total!,
      stores: after.stores_total! - before.stores_total!,
      entries: after.entries,
    }).toEqual({ hits: 2, misses: 2, stores: 3, entries: 2 });
    const { stats } = (await h.admin('GET', '/internal/cache')).body;
    expect(after.bytes).toBe(stats.bytes);
    expect(after.bytes).toBeGreaterThan(0);
    await h.admin('POST', '/internal/cache/purge', {});
    expect(await scrape()).toMatchObject({ entries: 0, bytes: 0 });
  });
});
