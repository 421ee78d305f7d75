import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startOpenAIUpstream, type OpenAIUpstream } from '../support/upstreams/index.js';
import {
  DEADLINE,
  deployment,
  startDeadlineGateway,
  UPSTREAM_KEY,
  type DeadlineGateway,
} from './deadlinefirst-gateway.js';
import { startLateBodyUpstream, type LateBodyUpstream } from './deadlinefirst-late-body-upstream.js';

type ApiError = InstanceType<typeof OpenAI.APIError>;

/** What the SDK raised, and how long the request took. */
async function failureOf(request: Promise<unknown>): Promise<{ error: ApiError; tookMs: number }> {
  const started = performance.now();
  const error = (await request.then(
    () => undefined,
    (caught: unknown) => caught,
  )) as ApiError;
  expect(error, 'the request should have failed').toBeInstanceOf(OpenAI.APIError);
  return { error, tookMs: performance.now() - started };
}

/**
 * A request's deadline bounds the wait for its answer's first body bytes, not just its headers: a
 * local server (vLLM, llama.cpp) sends its headers at once and its first event only when the prompt is
 * read. Once the body began, the deadline no longer applies.
 */
describe('the deadline of an upstream that sends its headers before its body', () => {
  let late: LateBodyUpstream;
  let good: OpenAIUpstream;
  let gateway: DeadlineGateway;
  let client: OpenAI;

  beforeAll(async () => {
    late = await startLateBodyUpstream();
    good = await startOpenAIUpstream({ apiKey: UPSTREAM_KEY });
    gateway = await startDeadlineGateway(
      [
        // Its own timeout_ms is the default ten minutes: only the deadline can end its wait.
        deployment('late-solo', 'solo-model', late.url, 1),
        // Tried first (all but always), with a timeout_ms longer than half the deadline.
        deployment('late-first', 'pair-model', late.url, 1_000_000, 1500),
        deployment('good-second', 'pair-model', good.url, 0.000001),
      ],
      { max_retries: 0 },
    );
    client = gateway.client;
  });
  afterAll(async () => {
    await gateway.servers.stop();
    await Promise.all([late.close(), good.close()]);
  });
  beforeEach(() => {
    late.outcomes.length = 0;
    good.reset();
  });

  const ask = { model: 'solo-model', messages: [{ role: 'user' as const, content: 'hello' }] };

  it('ends a stream whose first event comes after it, before anything reached the client', async () => {
    late.bodyAfterMs = 4000;
    const { error, tookMs } = await failureOf(
      client.chat.completions.create({ ...ask, stream: true }, { headers: { [DEADLINE]: '600' } }),
    );
    // The gateway's timeout, as a status (the stream had not started), not a broken stream.
    expect(error.status).toBe(502);
    expect(error.message).toContain(`no answer within the request's 600 ms deadline (${DEADLINE})`);
    expect((error.error as { upstream?: unknown }).upstream).toMatchObject({ status: null, type: 'timeout' });
    expect(error.headers?.get('x-should-retry')).toBe('false');
    expect(tookMs).toBeLessThan(2500);
    // The upstream call is cancelled, not left running.
    await expect.poll(() => late.outcomes[0], { timeout: 3000 }).toBe('aborted');
  });

  it('ends an answer read whole whose body comes after it', async () => {
    late.bodyAfterMs = 4000;
    const { error, tookMs } = await failureOf(client.chat.completions.create(ask, { headers: { [DEADLINE]: '600' } }));
    expect(error.status).toBe(502);
    expect(error.message).toContain(`no answer within the request's 600 ms deadline (${DEADLINE})`);
    expect(tookMs).toBeLessThan(2500);
  });

  it('relays a stream whose first event came in time whole, however long it then runs', async () => {
    late.bodyAfterMs = 300;
    const stream = await client.chat.completions.create({ ...ask, stream: true }, { headers: { [DEADLINE]: '1500' } });
    let received = '';
    for await (const part of stream) received += part.choices[0]?.delta.content ?? '';
    expect(received).toBe('late but whole');
  });

  it('still takes the answer of an upstream whose first event comes late when no deadline is set', async () => {
    late.bodyAfterMs = 700;
    const stream = await client.chat.completions.create({ ...ask, stream: true });
    let received = '';
    for await (const part of stream) received += part.choices[0]?.delta.content ?? '';
    expect(received).toBe('late but whole');
  });

  it("falls back when the deployment's own timeout_ms ends the wait for the first event within the deadline", async () => {
    late.bodyAfterMs = 4000;
    const answer = await client.chat.completions
      .create({ ...ask, model: 'pair-model', stream: true }, { headers: { [DEADLINE]: '2800' } })
      .withResponse();
    let received = '';
    for await (const part of answer.data) received += part.choices[0]?.delta.content ?? '';
    expect(answer.response.headers.get('x-gateway-deployment')).toBe('good-second');
    expect(received).toBeTruthy();
    expect(good.requests).toHaveLength(1);
  });
});
