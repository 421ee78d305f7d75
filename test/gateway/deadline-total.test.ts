import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { usageRowOf } from './fixes-usage-row.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

const chat = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'hello' }] };
const DEADLINE = 'x-gatehouse-timeout-ms';
/** The request options of a 500 ms deadline. */
const cut = { headers: { [DEADLINE]: '500' } };

type ApiError = InstanceType<typeof OpenAI.APIError>;

/** What the SDK raised for a request that failed. */
async function failureOf(request: Promise<unknown>): Promise<{ error: ApiError }> {
  const error = (await request.then(
    () => undefined,
    (caught: unknown) => caught,
  )) as ApiError;
  expect(error, 'the request should have failed').toBeInstanceOf(Error);
  return { error };
}

/** The gateway's answer when the deadline ended the request: its timeout, not to be resent. */
function expectDeadlineAnswer(error: ApiError, ms: number, source: string): void {
  expect(error).toBeInstanceOf(OpenAI.APIError);
  expect(error.status).toBe(502);
  expect(error.message).toContain(`no answer within the request's ${ms} ms deadline (${source})`);
  expect((error.error as { upstream?: unknown }).upstream).toMatchObject({ status: null, type: 'timeout' });
  expect(error.headers?.get('x-should-retry')).toBe('false');
}

/**
 * A request's total deadline (`x-gatehouse-timeout-ms`, else `gateway.request_timeout_ms`) bounds the
 * gateway's wait for an answer's first byte across retries, their waits and fallbacks; a stream that
 * started in time is relayed whole.
 */
describe('the x-gatehouse-timeout-ms deadline', () => {
  let h: GatewayHarness;
  let key: string;
  let client: OpenAI;
  beforeAll(async () => {
    h = await startGatewayHarness({ gateway: { max_retries: 2, retry_backoff_ms: 10 } });
    key = (await h.issueKey({ scopes: ['chat', 'embeddings', 'responses'] })).key;
    client = h.openaiClient(key);
  });
  afterAll(async () => h.close());
  beforeEach(() => {
    h.openai.reset();
    h.anthropic.reset();
  });

  it('ends retries whose Retry-After would outlast it, and the upstream sees only the attempts started in time', async () => {
    h.openai.setNext(
      { status: 503, headers: { 'retry-after': '2' } },
      { status: 503, headers: { 'retry-after': '2' } },
    );
    // The SDK may resend: the answer says not to, so the upstream's count is the gateway's alone.
    const resending = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: key, maxRetries: 2 });
    const { error } = await failureOf(resending.chat.completions.create(chat, { headers: { [DEADLINE]: '1500' } }));
    // The first wait the upstream asked for (2 s) would end past the deadline: no second attempt, and
    // the answer is the upstream's own failure, saying why it was not tried again (no timeout happened).
    expect(error.status).toBe(502);
    expect(error.message).toContain("not tried again: the wait would outlast the request's 1500 ms deadline");
    expect((error.error as { upstream?: unknown }).upstream).toMatchObject({ status: 503 });
    expect(error.headers?.get('x-upstream-status')).toBe('503');
    expect(error.headers?.get('x-should-retry')).toBe('false');
    expect(h.openai.requests).toHaveLength(1);

    const requestId = error.headers?.get('x-request-id');
    expect(await usageRowOf(h.admin, requestId!)).toMatchObject({ status: 502, error_type: 'upstream_error' });
    const traffic = (await h.admin('GET', '/internal/traffic?limit=20')).body.data as Array<Record<string, unknown>>;
    expect(traffic.find((event) => event.request_id === requestId)).toMatchObject({
      status: 502,
      error_type: 'upstream_error',
    });
  });

  it('cuts the wait for a slow upstream, whose own timeout_ms is ten minutes', async () => {
    h.openai.setNext({ delayMs: 3000 });
    const { error } = await failureOf(client.chat.completions.create(chat, { headers: { [DEADLINE]: '500' } }));
    expectDeadlineAnswer(error, 500, DEADLINE);
    expect(h.openai.requests).toHaveLength(1);
    // The upstream call is cancelled, not left running.
    expect(await h.openai.waitForOutcome(0, 5000)).toBe('aborted');
  });

  it.each([
    ['an embeddings', () => client.embeddings.create({ model: 'text-embedding-3-small', input: 'hello' }, cut)],
    ['a Responses', () => client.responses.create({ model: 'gpt-4o-mini', input: 'hello' }, cut)],
  ])('cuts %s request too', async (_name, send) => {
    h.openai.setNext({ delayMs: 3000 });
    const { error } = await failureOf(send());
    expectDeadlineAnswer(error, 500, DEADLINE);
  });

  it('answers a Messages request with the timeout through the Anthropic SDK', async () => {
    h.anthropic.setNext({ delayMs: 3000 });
    const anthropic = new Anthropic({ baseURL: h.url, apiKey: key, maxRetries: 2 });
    const error = (await anthropic.messages
      .create(
        { model: 'claude-opus-4-7', max_tokens: 50, messages: [{ role: 'user', content: 'hello' }] },
        { headers: { [DEADLINE]: '500' } },
      )
      .catch((caught: unknown) => caught)) as InstanceType<typeof Anthropic.APIError>;
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect(error.status).toBe(502);
    expect(error.message).toContain(`no answer within the request's 500 ms deadline (${DEADLINE})`);
    // Not resent by the SDK.
    expect(h.anthropic.requests).toHaveLength(1);
  });

  it('hands over to the next deployment at once when a wait would outlast it', async () => {
    h.openaiSecondary.reset();
    h.openai.setNext({ status: 503, headers: { 'retry-after': '2' } });
    const answer = await client.chat.completions
      .create({ ...chat, model: 'ha-model' }, { headers: { [DEADLINE]: '1500' } })
      .withResponse();
    expect(answer.response.headers.get('x-gateway-deployment')).toBe('ha-secondary');
    expect(h.openai.requests).toHaveLength(1);
    expect(h.openaiSecondary.requests).toHaveLength(1);
  });

  it("does not count the deadline's cut against the deployment's health", async () => {
    const primary = async () =>
      (
        (await h.admin('GET', '/internal/deployments/health')).body.data as Array<{ id: string; failures: number }>
      ).find((entry) => entry.id === 'ha-primary');
    const before = (await primary())?.failures ?? 0;
    h.openai.setNext({ delayMs: 3000 });
    const { error } = await failureOf(
      client.chat.completions.create({ ...chat, model: 'ha-model' }, { headers: { [DEADLINE]: '500' } }),
    );
    expectDeadlineAnswer(error, 500, DEADLINE);
    // Within its own timeout_ms, the deployment did not fail: a caller's short deadline never cools it down.
    expect((await primary())?.failures ?? 0).toBe(before);
  });

  it('leaves the silences of a stream that started in time to timeout_ms, not to the time the deadline had left', async () => {
    // The first frame comes at once, then each next one after a pause longer than the whole deadline.
    h.openai.setNext({ reply: { text: 'slow thinker' }, frameDelayMs: 1200 });
    const stream = await client.chat.completions.create({ ...chat, stream: true }, { headers: { [DEADLINE]: '800' } });
    let received = '';
    for await (const chunk of stream) received += chunk.choices[0]?.delta.content ?? '';
    expect(received).toBe('slow thinker');
  });

  it('lets a stream that started in time run past it, delivered whole', async () => {
    const text = 'one two three four five six seven eight';
    h.openai.setNext({ reply: { text }, frameDelayMs: 200 });
    const started = performance.now();
    const stream = await client.chat.completions.create({ ...chat, stream: true }, { headers: { [DEADLINE]: '1000' } });
    let received = '';
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      received += chunk.choices[0]?.delta.content ?? '';
      finish ??= chunk.choices[0]?.finish_reason;
    }
    expect(received).toBe(text);
    expect(finish).toBe('stop');
    // It ran past the deadline.
    expect(performance.now() - started).toBeGreaterThan(1000);
    expect(h.openai.requests).toHaveLength(1);
  });

  it('answers in time as without it', async () => {
    const answer = await client.chat.completions.create(chat, { headers: { [DEADLINE]: '10000' } });
    expect(answer.choices[0]?.message.content).toBeTruthy();
  });

  it.each(['0', '-1', 'abc', '3600001', '1.5'])('refuses %s with a 400 naming the header', async (value) => {
    const { error } = await failureOf(client.chat.completions.create(chat, { headers: { [DEADLINE]: value } }));
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error.message).toContain(
      `header ${DEADLINE} must be a whole number of milliseconds from 1 to 3600000, got '${value}'`,
    );
    expect(error.param).toBe(DEADLINE);
    expect(h.openai.requests).toHaveLength(0);
  });
});

describe('gateway.request_timeout_ms', () => {
  let h: GatewayHarness;
  let client: OpenAI;
  beforeAll(async () => {
    h = await startGatewayHarness({ gateway: { max_retries: 2, retry_backoff_ms: 10, request_timeout_ms: 800 } });
    client = h.openaiClient((await h.issueKey()).key);
  });
  afterAll(async () => h.close());
  beforeEach(() => h.openai.reset());

  it('is the deadline of a request without the header', async () => {
    h.openai.setNext({ delayMs: 3000 });
    const { error } = await failureOf(client.chat.completions.create(chat));
    expectDeadlineAnswer(error, 800, 'gateway.request_timeout_ms');
    expect(h.openai.requests).toHaveLength(1);
  });

  it("gives way to a request's header", async () => {
    h.openai.setNext({ delayMs: 1500 });
    const answer = await client.chat.completions.create(chat, { headers: { [DEADLINE]: '20000' } });
    expect(answer.choices[0]?.message.content).toBeTruthy();

    h.openai.setNext({ delayMs: 3000 });
    const { error } = await failureOf(client.chat.completions.create(chat, { headers: { [DEADLINE]: '300' } }));
    expectDeadlineAnswer(error, 300, DEADLINE);
  });
});
