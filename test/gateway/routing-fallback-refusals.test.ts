import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * A provider refusing one deployment (its key revoked, its model gone, a wrong address) says nothing
 * about the model's other deployments: as with LiteLLM's router, the request goes on to the next one
 * at once, without retrying the refused one. A refusal of the request itself (400, 413, 422) would
 * fail anywhere and is answered at once. Retries are on here, to show the refused deployment is not
 * retried.
 */
describe('fallback after a provider refuses a deployment', () => {
  // A harness per test: three refusals in a row would cool the primary down for the tests after.
  let h: GatewayHarness;
  let key: string;
  beforeEach(async () => {
    h = await startGatewayHarness({ gateway: { max_retries: 2, retry_backoff_ms: 10 } });
    key = (await h.issueKey()).key;
  });
  afterEach(async () => h.close());

  const ask = () =>
    fetch(`${h.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'ha-model', messages: [{ role: 'user', content: 'x' }] }),
    });

  for (const status of [401, 403, 404]) {
    it(`goes on to the next deployment after a ${status}, without retrying the refused one`, async () => {
      h.openai.setNext({ status });
      const answer = await ask();
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-gateway-deployment')).toBe('ha-secondary');
      expect(h.openai.requests).toHaveLength(1);
      expect(h.openaiSecondary.requests).toHaveLength(1);
    });
  }

  it('answers the last refusal, with x-should-retry: false, when every deployment refuses', async () => {
    h.openai.setNext({ status: 401 });
    h.openaiSecondary.setNext({ status: 403 });
    const answer = await ask();
    expect(answer.status).toBe(502);
    expect(answer.headers.get('x-upstream-status')).toBe('403');
    expect(answer.headers.get('x-should-retry')).toBe('false');
    expect(((await answer.json()) as { error: { message: string } }).error.message).toContain('after 2 attempts');
  });

  it('answers a refusal of the request itself at once, trying no other deployment', async () => {
    h.openai.setNext({ status: 422, error: { message: 'messages[0].content is not valid' } });
    const answer = await ask();
    expect(answer.status).toBe(502);
    expect(answer.headers.get('x-upstream-status')).toBe('422');
    expect(answer.headers.get('x-should-retry')).toBe('false');
    expect(h.openai.requests).toHaveLength(1);
    expect(h.openaiSecondary.requests).toHaveLength(0);
  });
});
