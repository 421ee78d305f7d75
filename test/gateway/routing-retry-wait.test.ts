import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

const chat = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'hello' }] };

/**
 * An upstream's `retry-after-ms` is a wait in milliseconds: the gateway waits that long before its own
 * retry (not the whole second its `Retry-After` rounding would make of it), and passes it on to the
 * client. The backoff is long here, so a retry that ignored the upstream's
 * ask would show.
 */
describe("an upstream's retry-after-ms", () => {
  let h: GatewayHarness;
  let key: string;
  beforeAll(async () => {
    h = await startGatewayHarness({ gateway: { max_retries: 2, retry_backoff_ms: 3000, max_retry_wait_ms: 5000 } });
    key = (await h.issueKey()).key;
  });
  afterAll(async () => h.close());
  beforeEach(() => h.openai.reset());

  const post = () =>
    fetch(`${h.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(chat),
    });

  it('is waited for as asked, in milliseconds, before the same deployment is tried again', async () => {
    h.openai.setNext(
      { status: 429, headers: { 'retry-after-ms': '150' } },
      { status: 429, headers: { 'retry-after-ms': '150' } },
    );
    const started = performance.now();
    const answer = await post();
    const waited = performance.now() - started;
    expect(answer.status).toBe(200);
    expect(h.openai.requests).toHaveLength(3);
    expect(waited).toBeGreaterThanOrEqual(290);
    // Rounded up to whole seconds, the two waits took 2 s.
    expect(waited).toBeLessThan(1500);
  });

  it('reaches the client as retry-after-ms beside Retry-After in whole seconds, with the chain not to be resent', async () => {
    h.openai.setDefault({ status: 429, headers: { 'retry-after-ms': '120' } });
    try {
      const answer = await post();
      expect(answer.status).toBe(502);
      expect(answer.headers.get('x-upstream-status')).toBe('429');
      expect(answer.headers.get('retry-after-ms')).toBe('120');
      expect(answer.headers.get('retry-after')).toBe('1');
      expect(answer.headers.get('x-should-retry')).toBe('false');
      h.openai.reset();

      // The gateway waited and retried already: the SDK does not run its chain again.
      const client = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: key, maxRetries: 2 });
      const error = await client.chat.completions.create(chat).catch((caught: unknown) => caught);
      expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
      expect(h.openai.requests).toHaveLength(3);
    } finally {
      h.openai.setDefault({});
    }
  });

  it('still hands over to the next deployment at once when it asks for longer than the cap', async () => {
    h.openaiSecondary.reset();
    h.openai.setNext({ status: 429, headers: { 'retry-after-ms': '60000' } });
    const started = performance.now();
    const answer = await fetch(`${h.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...chat, model: 'ha-model' }),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-gateway-deployment')).toBe('ha-secondary');
    expect(h.openai.requests).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(1000);
    // Asked not to come back for a minute, it is cooled down that long at once (it took three such
    // answers, and then only the 30 s cooldown): the next request goes to the other deployment first.
    const health = (await h.admin('GET', '/internal/deployments/health')).body.data;
    const primary = health.find((entry: { id: string }) => entry.id === 'ha-primary');
    expect(primary.state).toBe('cooling_down');
    expect(Date.parse(primary.cooldown_until) - Date.now()).toBeGreaterThan(50_000);
    const next = await fetch(`${h.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...chat, model: 'ha-model' }),
    });
    expect(next.headers.get('x-gateway-deployment')).toBe('ha-secondary');
    expect(h.openai.requests).toHaveLength(1);
  });
});
