import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

// `max_parallel_requests`: a key's (or a team's) requests in flight at once, beyond which the next is refused.

let h: GatewayHarness;

beforeAll(async () => {
  h = await startGatewayHarness({
    limits: { keys: { max_parallel_requests: 2 }, teams: { max_parallel_requests: 3 } },
  });
});
afterAll(() => h.close());
beforeEach(() => {
  h.openai.reset();
  h.openai.setDefault({});
});

const messages = [{ role: 'user' as const, content: 'hello' }];
const ask = (client: OpenAI, signal?: AbortSignal) =>
  client.chat.completions.create({ model: 'gpt-4o-mini', messages }, { signal });
const refusalOf = async (client: OpenAI) =>
  (await ask(client).catch((error: unknown) => error)) as InstanceType<typeof OpenAI.RateLimitError>;

/** Two requests the upstream holds for a while, and a third sent once both reached it. */
async function thirdBeside(client: OpenAI, already = 0): Promise<InstanceType<typeof OpenAI.RateLimitError>> {
  h.openai.setNext({ delayMs: 800 }, { delayMs: 800 });
  const held = [ask(client), ask(client)];
  await h.openai.waitForRequests(already + 2);
  const third = await refusalOf(client);
  await Promise.all(held);
  return third;
}

describe('max_parallel_requests', () => {
  it("refuses a key's third request in flight with 429 parallel_requests and Retry-After: 1, and admits it once one ends", async () => {
    const key = await h.issueKey({ scopes: ['chat'] });
    const client = h.openaiClient(key.key);
    h.openai.setNext({ delayMs: 800 }, { delayMs: 800 });
    const held = [ask(client), ask(client)];
    await h.openai.waitForRequests(2);
    const status = await h.admin('GET', `/internal/api-keys/${key.id}`);
    expect(status.body.limits).toContainEqual(
      expect.objectContaining({ limit_type: 'parallel_requests', subject: `key:${key.id}`, limit: 2, used: 2 }),
    );
    const third = await refusalOf(client);
    expect(third).toBeInstanceOf(OpenAI.RateLimitError);
    expect(third.error).toMatchObject({ type: 'rate_limit_exceeded', limit_type: 'parallel_requests' });
    expect(third.message).toContain(`key:${key.id} allows 2 requests in flight at once`);
    expect(third.headers.get('retry-after')).toBe('1');
    expect(third.headers.get('x-should-retry')).toBeNull();
    expect(h.openai.requests).toHaveLength(2);
    await Promise.all(held);
    // Both slots are free again.
    await Promise.all([ask(client), ask(client)]);
    const metrics = await (await fetch(`${h.url}/metrics`)).text();
    expect(metrics).toMatch(/gateway_rate_limit_hits_total\{limit_type="parallel_requests"\} [1-9]/);
    const rows = await h.usageRows(`key_id=${key.id}`);
    expect(rows.filter((row: { status: number }) => row.status === 429)).toHaveLength(1);
  });

  it('frees the slot once for every way a request ends: errors, a stream, a client that leaves', async () => {
    const key = await h.issueKey({ scopes: ['chat'] });
    const client = h.openaiClient(key.key);
    // A provider failure, answered 502.
    h.openai.setNext({ status: 500 });
    await expect(ask(client)).rejects.toBeInstanceOf(OpenAI.APIError);
    // A stream read to its end.
    const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, stream: true });
    for await (const _chunk of stream) void _chunk;
    // A client that leaves while the upstream works.
    h.openai.setNext({ hang: true });
    const leaving = new AbortController();
    const left = ask(client, leaving.signal).catch(() => undefined);
    await h.openai.waitForRequests(3);
    leaving.abort();
    await left;
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Exactly two slots again: two fit, a third does not (a slot freed twice would let it in).
    const third = await thirdBeside(client, 3);
    expect(third.error).toMatchObject({ limit_type: 'parallel_requests' });
  });

  it('frees the slot of an answer from the cache', async () => {
    expect((await h.admin('PUT', '/internal/cache', { enabled: true, ttl_seconds: 600 })).status).toBe(200);
    try {
      const key = await h.issueKey({ scopes: ['chat'] });
      const client = h.openaiClient(key.key);
      const cached = {
        model: 'gpt-4o-mini',
        temperature: 0,
        messages: [{ role: 'user' as const, content: 'a cached question' }],
      };
      await client.chat.completions.create(cached);
      for (const _ of [1, 2, 3]) {
        const hit = await client.chat.completions.create(cached).withResponse();
        expect(hit.response.headers.get('x-cache-hit')).toBe('true');
      }
      expect(h.openai.requests).toHaveLength(1);
      await h.admin('PUT', '/internal/cache', { enabled: false });
      expect((await thirdBeside(client, 1)).error).toMatchObject({ limit_type: 'parallel_requests' });
      await Promise.all([ask(client), ask(client)]);
    } finally {
      await h.admin('PUT', '/internal/cache', { enabled: false });
    }
  });

  it('takes no slot for a request another limit refuses', async () => {
    const key = await h.issueKey({ scopes: ['chat'], rpm_limit: 2 });
    const client = h.openaiClient(key.key);
    await Promise.all([ask(client), ask(client)]);
    // Twice: a slot the first refusal kept would show below, or make the second a parallel_requests one.
    expect((await refusalOf(client)).error).toMatchObject({ limit_type: 'requests' });
    expect((await refusalOf(client)).error).toMatchObject({ limit_type: 'requests' });
    const status = await h.admin('GET', `/internal/api-keys/${key.id}`);
    expect(status.body.limits).toContainEqual(expect.objectContaining({ limit_type: 'parallel_requests', used: 0 }));
  });

  it("counts a team's keys together", async () => {
    const keys = await Promise.all([1, 2].map(() => h.issueKey({ scopes: ['chat'], team: 'parallel-team' })));
    const [first, second] = keys.map((key) => h.openaiClient(key.key)) as [OpenAI, OpenAI];
    h.openai.setNext({ delayMs: 800 }, { delayMs: 800 }, { delayMs: 800 });
    const held = [ask(first), ask(first), ask(second)];
    await h.openai.waitForRequests(3);
    const fourth = await refusalOf(second);
    expect(fourth.error).toMatchObject({ limit_type: 'parallel_requests' });
    expect(fourth.message).toContain('team:parallel-team allows 3 requests in flight at once');
    await Promise.all(held);
  });
});
