import { describe, expect, it } from 'vitest';
import { metricValue } from '../support/metric-value.js';
import { withCachingGateway } from './cachectl-gateway.js';

/**
 * Identical whole-answer requests that miss while one of them is being answered wait for its answer
 * (accounted as cache hits) instead of calling the provider again; a failure is not shared.
 */
describe('cache: concurrent identical requests collapse onto one provider call', () => {
  const gateway = withCachingGateway();

  const ask = async (content: string, headers: Record<string, string> = {}) => {
    const { data, response } = await gateway.h
      .openaiClient(gateway.key)
      .chat.completions.create(
        { model: 'gpt-4o-mini', temperature: 0, messages: [{ role: 'user', content }] },
        { headers },
      )
      .withResponse();
    return { id: data.id, text: data.choices[0]?.message.content, hit: response.headers.get('x-cache-hit') };
  };

  const counter = async (name: string): Promise<number> => {
    const text = await (await fetch(`${gateway.h.url}/metrics`)).text();
    return metricValue(text, name);
  };
  const hitsTotal = (): Promise<number> => counter('gateway_cache_hits_total');

  it('calls the provider once for identical requests in flight, and accounts the others as hits', async () => {
    gateway.h.openai.setDefault({ delayMs: 400 });
    const hitsBefore = await hitsTotal();
    const collapsedBefore = await counter('gateway_cache_collapsed_total');
    const statsBefore = (await gateway.h.admin('GET', '/internal/cache')).body.stats;
    const answers = await Promise.all([1, 2, 3, 4].map(() => ask('together')));
    expect(gateway.h.openai.requests).toHaveLength(1);
    expect(answers.map((answer) => answer.hit).sort()).toEqual(['false', 'true', 'true', 'true']);
    expect(new Set(answers.map((answer) => answer.text)).size).toBe(1);
    // Each collapsed answer is a new answer, with its own id.
    expect(new Set(answers.map((answer) => answer.id)).size).toBe(4);
    expect(await hitsTotal()).toBe(hitsBefore + 3);
    expect(await counter('gateway_cache_collapsed_total')).toBe(collapsedBefore + 3);
    const statsAfter = (await gateway.h.admin('GET', '/internal/cache')).body.stats;
    expect(statsAfter.collapsed - statsBefore.collapsed).toBe(3);
    expect({ hits: statsAfter.hits - statsBefore.hits, misses: statsAfter.misses - statsBefore.misses }).toEqual({
      hits: 3,
      misses: 1,
    });
    const rows = (await gateway.h.usageRows()).filter((row) => row.model === 'gpt-4o-mini').slice(0, 4);
    expect(rows.filter((row) => row.cached === true || row.cached === 1)).toHaveLength(3);
    for (const row of rows.filter((r) => r.cached === true || r.cached === 1)) {
      expect(row.prompt_tokens ?? row.promptTokens).toBe(0);
      expect(row.completion_tokens ?? row.completionTokens).toBe(0);
    }
  });

  it('collapses embeddings too', async () => {
    gateway.h.openai.setDefault({ delayMs: 400 });
    const client = gateway.h.openaiClient(gateway.key);
    await Promise.all(
      [1, 2, 3].map(() => client.embeddings.create({ model: 'text-embedding-3-small', input: 'together' })),
    );
    expect(gateway.h.openai.requests).toHaveLength(1);
  });

  it('does not share a failure: each waiter calls the provider itself', async () => {
    gateway.h.openai.setNext({ status: 400, delayMs: 400 });
    const first = ask('failing');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const second = ask('failing');
    await expect(first).rejects.toMatchObject({ status: 502 });
    expect(await second).toMatchObject({ hit: 'false' });
    expect(gateway.h.openai.requests).toHaveLength(2);
  });

  it('does not collapse a request that refreshes or skips the cache', async () => {
    gateway.h.openai.setDefault({ delayMs: 300 });
    await Promise.all([
      ask('alone'),
      ask('alone', { 'x-gatehouse-cache': 'refresh' }),
      ask('alone', { 'cache-control': 'no-store' }),
    ]);
    expect(gateway.h.openai.requests).toHaveLength(3);
  });
});
