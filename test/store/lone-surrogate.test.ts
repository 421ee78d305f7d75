import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTempServers, TEST_STORE_TOKEN, type TempServers } from '../support/temp-servers.js';

/**
 * A lone UTF-16 surrogate (`"\ud800"` in JSON) has no UTF-8 form, so a document holding one is refused
 * as one holding bytes that are not UTF-8 is: naming the document, its key and where the surrogate
 * stands, writing nothing.
 */
describe('store documents refuse lone UTF-16 surrogates', () => {
  let servers: TempServers;
  const apply = async (body: unknown) => {
    const response = await fetch(`${servers.storeUrl}/v1/apply`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_STORE_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  const revision = async (namespace: string) => {
    const response = await fetch(`${servers.storeUrl}/v1/state?namespace=${namespace}`, {
      headers: { authorization: `Bearer ${TEST_STORE_TOKEN}` },
    });
    return ((await response.json()) as { revision: number }).revision;
  };

  beforeAll(async () => {
    servers = await startTempServers();
  });
  afterAll(async () => servers.stop());

  it('names the document, its key and the character of a lone surrogate in a content', async () => {
    const answer = await apply({
      scope: { namespace: 'sur/content' },
      documents: [
        { key: 'ok.txt', content: 'fine 🚀' },
        { key: 'sur.txt', content: 'vacation \ud800 half' },
      ],
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({
      type: 'invalid_request_error',
      code: 400,
      message:
        "documents[1].content (key 'sur.txt') holds a lone UTF-16 surrogate at character 9: not valid Unicode text",
    });
    expect(await revision('sur/content')).toBe(0);
  });

  it('names a key holding one', async () => {
    const answer = await apply({ scope: { namespace: 'sur/key' }, documents: [{ key: 'k\udc00', content: 'x' }] });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toBe(
      'documents[0].key holds a lone UTF-16 surrogate at character 1: not valid Unicode text',
    );
    expect(await revision('sur/key')).toBe(0);
  });

  it('writes surrogate pairs as they are', async () => {
    const answer = await apply({ scope: { namespace: 'sur/pairs' }, documents: [{ key: '🚀.txt', content: '👩🏽‍💻' }] });
    expect(answer.status).toBe(200);
    const state = await fetch(`${servers.storeUrl}/v1/state?namespace=sur/pairs`, {
      headers: { authorization: `Bearer ${TEST_STORE_TOKEN}` },
    });
    expect(((await state.json()) as { objects: Record<string, string> }).objects).toEqual({ '🚀.txt': '👩🏽‍💻' });
  });
});
