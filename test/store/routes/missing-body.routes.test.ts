import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, buildTestStore, type TestStore } from '../app-helpers.js';

// A request that needs a JSON body and sends none (a DELETE whose fields were put in the query string,
// a POST from a client that dropped its body) is told that, not zod's "expected object, received null".

describe('an endpoint that needs a JSON body, called without one', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await buildTestStore();
  });
  afterAll(async () => store.close());

  const send = (method: 'POST' | 'DELETE', url: string, headers: Record<string, string> = {}, payload?: string) =>
    store.app.inject({ method, url, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...headers }, payload });

  it('says the body is missing and what to send', async () => {
    for (const [method, url] of [
      ['DELETE', '/v1/checkpoints'],
      ['POST', '/v1/apply'],
      ['DELETE', '/v1/branches'],
    ] as const) {
      const response = await send(method, url);
      expect({ url, status: response.statusCode }).toEqual({ url, status: 400 });
      expect(response.json().error.message).toBe('request body is missing; send a JSON object');
    }
  });

  it('says a JSON null is not an object', async () => {
    const response = await send('POST', '/v1/apply', { 'content-type': 'application/json' }, 'null');
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe('request body is null; send a JSON object');
  });
});
