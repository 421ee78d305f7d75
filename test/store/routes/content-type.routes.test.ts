import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, buildTestStore, type TestStore } from '../app-helpers.js';

// Every store body is JSON: another media type is a 400 invalid_request_error naming the one sent,
// worded as the gateway words it.

describe('store bodies sent as something other than JSON', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await buildTestStore();
  });
  afterAll(async () => store.close());

  const send = (method: 'POST' | 'DELETE', url: string, headers: Record<string, string>, payload: string) =>
    store.app.inject({ method, url, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...headers }, payload });
  const invalid = (message: string) => ({ error: { type: 'invalid_request_error', message, code: 400 } });

  it('answers 400 naming the content-type for form posts and plain text', async () => {
    const apply = JSON.stringify({ scope: { namespace: 'ct/app' }, documents: [{ key: 'a', content: '1' }] });
    for (const type of ['application/x-www-form-urlencoded', 'text/plain', 'text/plain; charset=utf-8']) {
      const answer = await send('POST', '/v1/apply', { 'content-type': type }, apply);
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toEqual(invalid(`content-type must be application/json, got '${type}'`));
    }
    const removal = await send(
      'DELETE',
      '/v1/checkpoints',
      { 'content-type': 'text/plain' },
      JSON.stringify({ namespace: 'ct/app', name: 'v1' }),
    );
    expect(removal.json()).toEqual(invalid("content-type must be application/json, got 'text/plain'"));
    // Nothing was written by the refused requests; the same body as JSON is applied.
    expect((await store.call('GET', '/v1/state?namespace=ct/app')).json().revision).toBe(0);
    expect((await send('POST', '/v1/apply', { 'content-type': 'application/json' }, apply)).json().revision).toBe(1);
  });
});
