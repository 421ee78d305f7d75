import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

describe('a typo in an endpoint path', () => {
  let h: GatewayHarness;
  beforeAll(async () => {
    h = await startGatewayHarness();
  });
  afterAll(() => h.close());

  it('is a 404 naming the endpoint meant, in the error shape of the endpoint', async () => {
    const key = (await h.issueKey({ scopes: ['chat'] })).key;
    const answer = await fetch(`${h.url}/v1/chat/completion`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(answer.status).toBe(404);
    expect(answer.headers.get('x-request-id')).toBeTruthy();
    const body = (await answer.json()) as { error: { type: string; message: string } };
    expect(body.error).toMatchObject({
      type: 'not_found_error',
      message: 'no route POST /v1/chat/completion; did you mean /v1/chat/completions?',
    });
  });
});
