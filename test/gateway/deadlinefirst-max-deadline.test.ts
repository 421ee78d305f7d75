import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config/load.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

const chat = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'hello' }] };
const DEADLINE = 'x-gatehouse-timeout-ms';
type ApiError = InstanceType<typeof OpenAI.APIError>;

/** What the SDK raised for a request that failed. */
async function failureOf(request: Promise<unknown>): Promise<ApiError> {
  const error = (await request.then(
    () => undefined,
    (caught: unknown) => caught,
  )) as ApiError;
  expect(error, 'the request should have failed').toBeInstanceOf(OpenAI.APIError);
  return error;
}

/**
 * `gateway.max_request_timeout_ms`: the operator's longest deadline. A request's header asking for
 * longer is lowered to it, and the answer says the deadline applied in `x-gatehouse-timeout-ms`.
 */
describe('gateway.max_request_timeout_ms', () => {
  let h: GatewayHarness;
  let client: OpenAI;
  beforeAll(async () => {
    h = await startGatewayHarness({ gateway: { max_retries: 0, retry_backoff_ms: 10, max_request_timeout_ms: 700 } });
    client = h.openaiClient((await h.issueKey()).key);
  });
  afterAll(async () => h.close());
  beforeEach(() => h.openai.reset());

  it('lowers a longer header to it, and the answer says so', async () => {
    h.openai.setNext({ delayMs: 3000 });
    const started = performance.now();
    const error = await failureOf(client.chat.completions.create(chat, { headers: { [DEADLINE]: '60000' } }));
    expect(performance.now() - started).toBeLessThan(2500);
    expect(error.status).toBe(502);
    expect(error.message).toContain(
      `no answer within the request's 700 ms deadline (${DEADLINE}, lowered to gateway.max_request_timeout_ms)`,
    );
    expect(error.headers?.get(DEADLINE)).toBe('700');
    expect(error.headers?.get('x-should-retry')).toBe('false');
  });

  it('says the lowered deadline on an answer that came in time', async () => {
    const answer = await client.chat.completions.create(chat, { headers: { [DEADLINE]: '60000' } }).withResponse();
    expect(answer.data.choices[0]?.message.content).toBeTruthy();
    expect(answer.response.headers.get(DEADLINE)).toBe('700');
  });

  it('leaves a header within it as it is, unechoed', async () => {
    h.openai.setNext({ delayMs: 3000 });
    const error = await failureOf(client.chat.completions.create(chat, { headers: { [DEADLINE]: '300' } }));
    expect(error.message).toContain(`no answer within the request's 300 ms deadline (${DEADLINE})`);
    expect(error.headers?.get(DEADLINE)).toBeNull();

    const answer = await client.chat.completions.create(chat).withResponse();
    expect(answer.response.headers.get(DEADLINE)).toBeNull();
  });

  it('refuses a gateway.request_timeout_ms above it when the configuration is read', () => {
    expect(() =>
      loadConfig({ env: {}, overrides: { gateway: { request_timeout_ms: 5000, max_request_timeout_ms: 1000 } } }),
    ).toThrow(/request_timeout_ms must not exceed max_request_timeout_ms/);
  });
});
