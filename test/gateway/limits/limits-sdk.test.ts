import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from '../support/harness.js';

// Rate-limit headers, refusals and budgets as the official SDKs see them, on every endpoint.

let h: GatewayHarness;

beforeAll(async () => {
  h = await startGatewayHarness();
});
afterAll(() => h.close());
beforeEach(() => h.openai.reset());

const ask = (client: OpenAI, content = 'hello') =>
  client.chat.completions.create({ model: 'gpt-4o-mini', max_tokens: 10, messages: [{ role: 'user', content }] });

describe('x-ratelimit headers', () => {
  it('chat completions: limit, remaining and reset for requests and tokens, through the OpenAI SDK', async () => {
    const key = await h.issueKey({ scopes: ['chat'], rpm_limit: 30, tpm_limit: 6000 });
    const client = h.openaiClient(key.key);
    const first = await ask(client).withResponse();
    const second = await ask(client).withResponse();
    expect(first.response.headers.get('x-ratelimit-limit-requests')).toBe('30');
    expect(first.response.headers.get('x-ratelimit-remaining-requests')).toBe('29');
    expect(second.response.headers.get('x-ratelimit-remaining-requests')).toBe('28');
    // 2 requests out of 30 per minute come back in 4 s; OpenAI writes durations like `4s` or `6m0s`.
    expect(second.response.headers.get('x-ratelimit-reset-requests')).toMatch(/^[34]s$/);
    expect(first.response.headers.get('x-ratelimit-limit-tokens')).toBe('6000');
    const remainingTokens = Number(second.response.headers.get('x-ratelimit-remaining-tokens'));
    expect(remainingTokens).toBeLessThan(6000);
    expect(remainingTokens).toBeGreaterThan(5900);
    expect(second.response.headers.get('x-ratelimit-reset-tokens')).toMatch(/^\d+(ms|s)$/);
  });

  it('Messages through the Anthropic SDK, and embeddings, carry them too', async () => {
    const key = await h.issueKey({ scopes: ['chat', 'embeddings'], rpm_limit: 50 });
    const anthropic: Anthropic = h.anthropicClient(key.key);
    const message = await anthropic.messages
      .create({ model: 'claude-opus-4-7', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] })
      .withResponse();
    expect(message.response.headers.get('x-ratelimit-limit-requests')).toBe('50');
    expect(message.response.headers.get('x-ratelimit-remaining-requests')).toBe('49');
    // And in Anthropic's own spelling, the reset as a time.
    expect(message.response.headers.get('anthropic-ratelimit-requests-limit')).toBe('50');
    expect(message.response.headers.get('anthropic-ratelimit-requests-remaining')).toBe('49');
    const reset = Date.parse(message.response.headers.get('anthropic-ratelimit-requests-reset')!);
    expect(reset - Date.now()).toBeGreaterThan(0);
    expect(reset - Date.now()).toBeLessThan(3000);
    const embedding = await h
      .openaiClient(key.key)
      .embeddings.create({ model: 'text-embedding-3-small', input: 'hello' })
      .withResponse();
    expect(embedding.response.headers.get('x-ratelimit-remaining-requests')).toBe('48');
    // A token count draws on the same limit, and says so in both spellings, on a failure too.
    const count = { model: 'claude-opus-4-7', messages: [{ role: 'user' as const, content: 'hi' }] };
    const counted = await anthropic.messages.countTokens(count).withResponse();
    expect(counted.response.headers.get('anthropic-ratelimit-requests-remaining')).toBe('47');
    expect(counted.response.headers.get('x-ratelimit-remaining-requests')).toBe('47');
    h.anthropic.setNext({ status: 500 });
    const failed = await fetch(`${h.url}/v1/messages/count_tokens`, {
      method: 'POST',
      headers: { 'x-api-key': key.key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify(count),
    });
    expect(failed.status).toBe(502);
    expect(failed.headers.get('x-ratelimit-remaining-requests')).toBe('46');
  });

  it('Responses carry them, and count against the same key', async () => {
    const key = await h.issueKey({ scopes: ['responses'], rpm_limit: 3 });
    const client = h.openaiClient(key.key);
    const create = () => client.responses.create({ model: 'gpt-4o-mini', input: 'hi', max_output_tokens: 16 });
    const { response } = await create().withResponse();
    expect(response.headers.get('x-ratelimit-limit-requests')).toBe('3');
    expect(response.headers.get('x-ratelimit-remaining-requests')).toBe('2');
    await create();
    await create();
    const error = (await create().catch((e: unknown) => e)) as InstanceType<typeof OpenAI.RateLimitError>;
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect(error.error).toMatchObject({ limit_type: 'requests' });
  });

  it('a 429 says where the limits stand, as OpenAI and Anthropic send it', async () => {
    const key = await h.issueKey({ scopes: ['chat'], rpm_limit: 1, tpm_limit: 6000 });
    await ask(h.openaiClient(key.key));
    const refused = (await ask(h.openaiClient(key.key)).catch((e: unknown) => e)) as InstanceType<
      typeof OpenAI.RateLimitError
    >;
    expect(refused).toBeInstanceOf(OpenAI.RateLimitError);
    expect(refused.headers.get('x-ratelimit-limit-requests')).toBe('1');
    expect(refused.headers.get('x-ratelimit-remaining-requests')).toBe('0');
    expect(refused.headers.get('x-ratelimit-reset-requests')).toMatch(/^(\d+s|1m0s)$/);
    expect(refused.headers.get('x-ratelimit-limit-tokens')).toBe('6000');
    const message = (await h
      .anthropicClient(key.key)
      .messages.create({ model: 'claude-opus-4-7', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e)) as InstanceType<typeof Anthropic.RateLimitError>;
    expect(message).toBeInstanceOf(Anthropic.RateLimitError);
    expect(message.headers.get('anthropic-ratelimit-requests-remaining')).toBe('0');
    expect(Date.parse(message.headers.get('anthropic-ratelimit-requests-reset')!)).toBeGreaterThan(Date.now());
  });

  it('a streamed answer carries them in its response head', async () => {
    const key = await h.issueKey({ scopes: ['chat'], rpm_limit: 5 });
    const { data: stream, response } = await h
      .openaiClient(key.key)
      .chat.completions.create({
        model: 'gpt-4o-mini',
        stream: true,
        max_tokens: 10,
        messages: [{ role: 'user', content: 'hi' }],
      })
      .withResponse();
    for await (const chunk of stream) void chunk;
    expect(response.headers.get('x-ratelimit-remaining-requests')).toBe('4');
  });

  it('a key without limits gets no rate-limit headers', async () => {
    const key = await h.issueKey({ scopes: ['chat'] });
    const { response } = await ask(h.openaiClient(key.key)).withResponse();
    expect(response.headers.get('x-ratelimit-limit-requests')).toBeNull();
  });
});

describe('refusals', () => {
  it('the OpenAI SDK gets a RateLimitError with Retry-After and the limit type, and the upstream is not called', async () => {
    const key = await h.issueKey({ scopes: ['chat'], rpm_limit: 2 });
    const client = h.openaiClient(key.key);
    await ask(client);
    await ask(client);
    const error = (await ask(client).catch((e: unknown) => e)) as InstanceType<typeof OpenAI.RateLimitError>;
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect(error.status).toBe(429);
    // 2 per minute: one request comes back every 30 s.
    expect(Number(error.headers.get('retry-after'))).toBeGreaterThanOrEqual(29);
    expect(Number(error.headers.get('retry-after'))).toBeLessThanOrEqual(30);
    expect(error.error).toMatchObject({ type: 'rate_limit_exceeded', limit_type: 'requests' });
    expect(h.openai.requests).toHaveLength(2);
    const metrics = await (await fetch(`${h.url}/metrics`)).text();
    expect(metrics).toMatch(/gateway_rate_limit_hits_total\{limit_type="requests"\} [1-9]/);
    const rows = await h.usageRows(`key_id=${key.id}`);
    expect(rows[0]).toMatchObject({ status: 429, error_type: 'rate_limit_exceeded' });
  });

  it('the Anthropic SDK gets its RateLimitError in the Messages envelope', async () => {
    const key = await h.issueKey({ scopes: ['chat'], rpm_limit: 1 });
    const anthropic = h.anthropicClient(key.key);
    const send = () =>
      anthropic.messages.create({
        model: 'claude-opus-4-7',
        max_tokens: 8,
        messages: [{ role: 'user', content: 'x' }],
      });
    await send();
    const error = (await send().catch((e: unknown) => e)) as InstanceType<typeof Anthropic.RateLimitError>;
    expect(error).toBeInstanceOf(Anthropic.RateLimitError);
    expect(Number(error.headers.get('retry-after'))).toBeGreaterThanOrEqual(59);
    expect(error.error).toMatchObject({
      type: 'error',
      error: { type: 'rate_limit_exceeded', limit_type: 'requests' },
    });
  });

  it('a request larger than the whole limit is told it can never pass, and SDKs do not retry it', async () => {
    const key = await h.issueKey({ scopes: ['chat'], tpm_limit: 50 });
    const client = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: key.key, maxRetries: 2 });
    const error = (await ask(client, 'a long question '.repeat(40)).catch((e: unknown) => e)) as InstanceType<
      typeof OpenAI.RateLimitError
    >;
    expect(error.status).toBe(429);
    expect(error.message).toContain('can never pass');
    expect(error.headers.get('x-should-retry')).toBe('false');
    const rows = await h.usageRows(`key_id=${key.id}`);
    expect(rows).toHaveLength(1);
  });
});

describe('a herd refused together', () => {
  it('is told to come back one by one, so each SDK call fits at its first retry', async () => {
    // 120 per minute: the bucket lets one more request in every 500 ms.
    const key = await h.issueKey({ scopes: ['chat'], rpm_limit: 120 });
    const quick = h.openaiClient(key.key);
    await Promise.all(Array.from({ length: 120 }, () => ask(quick)));
    // What came back while those ran is taken too: the bucket is empty when the herd arrives.
    let sent = 120;
    while (
      await ask(quick).then(
        () => true,
        () => false,
      )
    )
      sent++;
    // When each refusal asked its caller to come back, on this clock: arrivals spread by a stalled
    // machine shift the waits each one is told, never the slots they are promised.
    const promised: number[] = [];
    const recording: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (response.status === 429) promised.push(Date.now() + Number(response.headers.get('retry-after-ms')));
      return response;
    };
    const client = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: key.key, maxRetries: 1, fetch: recording });
    const herdStarted = Date.now();
    const herd = await Promise.allSettled(Array.from({ length: 4 }, () => ask(client)));
    // Told the same second, the four would come back together and two would be refused again.
    expect(herd.map((call) => call.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
    // Some may have found a request that came back meanwhile; at least one was refused.
    expect(promised.length).toBeGreaterThanOrEqual(1);
    const sorted = [...promised].sort((a, b) => a - b);
    // One slot of 500 ms each (less a little for the time between the server's clock and this one).
    for (let i = 1; i < sorted.length; i++) expect(sorted[i]! - sorted[i - 1]!).toBeGreaterThanOrEqual(400);
    // Four slots of 500 ms behind the one promised to the refusal that ended the loop above, not a minute.
    expect(sorted.at(-1)! - herdStarted).toBeLessThanOrEqual(4_000);
    expect(h.openai.requests).toHaveLength(sent + 4);
    expect(promised.length).toBeLessThanOrEqual(4);
  }, 15_000);
});

describe('refusals the SDKs would otherwise sleep through', () => {
  it('a spent daily budget is not retried by the SDK, which would wait until midnight; a minute limit is', async () => {
    await h.admin('POST', '/internal/users', { id: 'midnight-user', tpd_budget: 200 });
    const daily = await h.issueKey({ scopes: ['chat', 'embeddings'], user: 'midnight-user' });
    // The embeddings mock reports as many tokens as the input has words: 190 of the day's 200.
    await h
      .openaiClient(daily.key)
      .embeddings.create({ model: 'text-embedding-3-small', input: 'word '.repeat(190).trim() });
    const error = (await ask(h.openaiClient(daily.key)).catch((e: unknown) => e)) as InstanceType<
      typeof OpenAI.RateLimitError
    >;
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect(error.error).toMatchObject({ limit_type: 'user_daily' });
    const wait = Number(error.headers.get('retry-after'));
    // The wait is until midnight UTC: more than a minute but in the last minute of the day.
    expect(error.headers.get('x-should-retry')).toBe(wait > 60 ? 'false' : null);
    if (wait > 60) {
      // Default retries: without x-should-retry the OpenAI SDK sleeps all of Retry-After (hours) first.
      const started = Date.now();
      await ask(new OpenAI({ baseURL: `${h.url}/v1`, apiKey: daily.key })).catch(() => undefined);
      expect(Date.now() - started).toBeLessThan(5_000);
    }

    const minute = await h.issueKey({ scopes: ['chat'], rpm_limit: 1 });
    const client = h.openaiClient(minute.key);
    await ask(client);
    const limited = (await ask(client).catch((e: unknown) => e)) as InstanceType<typeof OpenAI.RateLimitError>;
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(limited.headers.get('x-should-retry')).toBeNull();
  }, 10_000);
});

describe('budgets across endpoints', () => {
  it("embeddings and chat draw on the same user's daily budget", async () => {
    await h.admin('POST', '/internal/users', { id: 'budget-user', tpd_budget: 200 });
    const key = await h.issueKey({ scopes: ['chat', 'embeddings'], user: 'budget-user' });
    const client = h.openaiClient(key.key);
    // The embeddings mock reports as many tokens as the input has words: 190 here.
    await client.embeddings.create({ model: 'text-embedding-3-small', input: 'word '.repeat(190).trim() });
    const error = (await ask(client).catch((e: unknown) => e)) as InstanceType<typeof OpenAI.RateLimitError>;
    expect(error.status).toBe(429);
    expect(error.error).toMatchObject({ limit_type: 'user_daily' });
    const user = await h.admin('GET', '/internal/users/budget-user');
    const daily = user.body.limits.find((l: any) => l.limit_type === 'user_daily');
    expect(daily).toMatchObject({ subject: 'user:budget-user', limit: 200 });
    expect(daily.used).toBeGreaterThanOrEqual(190);
  });

  it('a team cost budget refuses once the priced spend reaches it', async () => {
    // gpt-4o-mini: $0.15 in and $0.60 out per million tokens; the mock answers 1000 + 1000 tokens.
    h.openai.setDefault({ reply: { text: 'ok', usage: { prompt_tokens: 1000, completion_tokens: 1000 } } });
    await h.admin('POST', '/internal/teams', { id: 'cost-team', usd_daily_budget: 0.0015 });
    const key = await h.issueKey({ scopes: ['chat'], team: 'cost-team' });
    const client = h.openaiClient(key.key);
    await ask(client);
    await ask(client);
    const error = (await ask(client).catch((e: unknown) => e)) as InstanceType<typeof OpenAI.RateLimitError>;
    expect(error.status).toBe(429);
    expect(error.error).toMatchObject({ limit_type: 'team_cost_daily' });
    h.openai.setDefault({});
  });

  it('a key budget for its user tightens the user record', async () => {
    await h.admin('POST', '/internal/users', { id: 'tight-user', tpm_budget: 100_000 });
    const key = await h.issueKey({ scopes: ['chat'], user: 'tight-user', user_tpm_budget: 5 });
    const error = (await ask(h.openaiClient(key.key)).catch((e: unknown) => e)) as InstanceType<
      typeof OpenAI.RateLimitError
    >;
    expect(error.error).toMatchObject({ limit_type: 'user_minute' });
  });
});

describe('live changes and settlement', () => {
  it('raising a key limit through the admin API applies to the next request', async () => {
    const key = await h.issueKey({ scopes: ['chat'], rpm_limit: 1 });
    const client = h.openaiClient(key.key);
    await ask(client);
    expect(((await ask(client).catch((e: unknown) => e)) as { status: number }).status).toBe(429);
    const patched = await h.admin('PATCH', `/internal/api-keys/${key.id}`, { rpm_limit: 3 });
    expect(patched.status).toBe(200);
    await ask(client);
    await ask(client);
    expect(((await ask(client).catch((e: unknown) => e)) as { status: number }).status).toBe(429);
  });

  it('changing a user budget applies to the next request', async () => {
    await h.admin('POST', '/internal/users', { id: 'live-user', tpd_budget: 1 });
    const key = await h.issueKey({ scopes: ['chat'], user: 'live-user' });
    const client = h.openaiClient(key.key);
    expect(((await ask(client).catch((e: unknown) => e)) as { status: number }).status).toBe(429);
    // The refused request counts against no limit, and not in the record's requests today either.
    expect((await h.admin('GET', '/internal/users/live-user')).body.today.requests).toBe(0);
    await h.admin('PATCH', '/internal/users/live-user', { tpd_budget: null });
    await expect(ask(client)).resolves.toBeDefined();
    expect((await h.admin('GET', '/internal/users/live-user')).body.today.requests).toBe(1);
  });

  it('a settled request counts what it used, not what it reserved', async () => {
    h.openai.setDefault({ reply: { text: 'ok', usage: { prompt_tokens: 7, completion_tokens: 3 } } });
    await h.admin('POST', '/internal/users', { id: 'settle-user', tpd_budget: 10_000 });
    const key = await h.issueKey({ scopes: ['chat'], user: 'settle-user' });
    await h.openaiClient(key.key).chat.completions.create({
      model: 'gpt-4o-mini',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'hi' }],
    });
    const user = await h.admin('GET', '/internal/users/settle-user');
    expect(user.body.limits.find((l: any) => l.limit_type === 'user_daily').used).toBe(10);
    expect(user.body.today).toMatchObject({ requests: 1, tokens: 10 });
    h.openai.setDefault({});
  });

  it('a stream the client abandons settles what it used so far', async () => {
    // One word per frame, 20 ms apart: the client leaves long before the upstream would finish.
    h.openai.setDefault({ reply: { text: 'word '.repeat(400) }, frameDelayMs: 20 });
    await h.admin('POST', '/internal/users', { id: 'abort-user', tpd_budget: 100_000 });
    const key = await h.issueKey({ scopes: ['chat'], user: 'abort-user' });
    const controller = new AbortController();
    const stream = await h
      .openaiClient(key.key)
      .chat.completions.create(
        { model: 'gpt-4o-mini', stream: true, max_tokens: 100, messages: [{ role: 'user', content: 'go' }] },
        { signal: controller.signal },
      );
    let chunks = 0;
    try {
      for await (const chunk of stream) {
        void chunk;
        if ((chunks += 1) === 3) controller.abort();
      }
    } catch {
      // the abort
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    const user = await h.admin('GET', '/internal/users/abort-user');
    const used = user.body.limits.find((l: any) => l.limit_type === 'user_daily').used;
    // The reservation was the prompt plus 100; what stays is the prompt and the little that was sent.
    expect(used).toBeGreaterThan(0);
    expect(used).toBeLessThan(100);
    h.openai.setDefault({});
  });

  it("a key record shows where its own, its user's and its team's limits stand", async () => {
    await h.admin('POST', '/internal/teams', { id: 'view-team', tpd_budget: 1000 });
    const key = await h.issueKey({ scopes: ['chat'], user: 'view-user', team: 'view-team', rpm_limit: 10 });
    await ask(h.openaiClient(key.key));
    const record = await h.admin('GET', `/internal/api-keys/${key.id}`);
    const byType = Object.fromEntries(record.body.limits.map((l: any) => [l.limit_type, l]));
    expect(byType.requests).toMatchObject({ subject: `key:${key.id}`, limit: 10, remaining: 9 });
    expect(byType.team_daily).toMatchObject({ subject: 'team:view-team', limit: 1000 });
    expect(byType.team_daily.used).toBeGreaterThan(0);
  });
});
