import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

const DEADLINE = 'x-gatehouse-timeout-ms';
const count = { model: 'claude-opus-4-7', messages: [{ role: 'user' as const, content: 'count me' }] };

type AnthropicError = InstanceType<typeof Anthropic.APIError>;

/** What the SDK raised for a count that failed. */
async function failureOf(request: Promise<unknown>): Promise<AnthropicError> {
  const error = await request.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error, 'the count should have failed').toBeInstanceOf(Anthropic.APIError);
  return error as AnthropicError;
}

/** `/v1/messages/count_tokens` runs the one pipeline: the request's deadline applies as on every /v1 endpoint. */
describe('the x-gatehouse-timeout-ms deadline on count_tokens', () => {
  let h: GatewayHarness;
  let client: Anthropic;
  beforeAll(async () => {
    h = await startGatewayHarness();
    const secret = (await h.issueKey({ scopes: ['chat'] })).key;
    client = new Anthropic({ baseURL: h.url, apiKey: secret, maxRetries: 2 });
  });
  afterAll(async () => h.close());
  beforeEach(() => h.anthropic.reset());

  it("answers the deadline's timeout when Anthropic's count does not answer in time, and the SDK does not resend", async () => {
    h.anthropic.setNext({ delayMs: 3000 });
    const error = await failureOf(client.messages.countTokens(count, { headers: { [DEADLINE]: '200' } }));
    expect(error.status).toBe(502);
    expect(error.message).toContain(`no answer within the request's 200 ms deadline (${DEADLINE})`);
    expect(error.headers?.get('x-should-retry')).toBe('false');
    expect(h.anthropic.requests).toHaveLength(1);
  });

  it('refuses a deadline it cannot read, naming the header, before any upstream call', async () => {
    const error = await failureOf(client.messages.countTokens(count, { headers: { [DEADLINE]: 'soon' } }));
    expect(error.status).toBe(400);
    expect(error.message).toContain(`header ${DEADLINE} must be a whole number of milliseconds`);
    expect(h.anthropic.requests).toHaveLength(0);
  });

  it('still counts within the deadline, saying how', async () => {
    const { data, response } = await client.messages
      .countTokens(count, { headers: { [DEADLINE]: '5000' } })
      .withResponse();
    expect(data.input_tokens).toBeGreaterThan(0);
    expect(response.headers.get('x-gateway-token-count')).toBe('provider');
  });
});
