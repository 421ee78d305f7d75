import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';
import { startTempServers, TEST_STORE_TOKEN, type TempServers } from '../support/temp-servers.js';

/**
 * `"\ud800"` is valid JSON but no Unicode text, and SQLite keeps U+FFFD in its place: a name, a
 * description or a commit message sent with one came back different from what was sent, without a
 * word. Every body the admin API or the store keeps is refused with a 400 naming the field; a model
 * request's text goes to its provider as sent and is not refused.
 */
describe('text that is stored refuses lone UTF-16 surrogates', () => {
  let h: GatewayHarness;
  let store: TempServers;

  beforeAll(async () => {
    [h, store] = await Promise.all([startGatewayHarness(), startTempServers()]);
  });
  afterAll(async () => {
    await Promise.all([h.close(), store.stop()]);
  });

  it('refuses one in an API key name and a RAG collection description, naming the field', async () => {
    const key = await h.admin('POST', '/internal/api-keys', { name: 'ci \ud800 bot' });
    expect(key.status).toBe(400);
    expect(key.body.error).toMatchObject({
      type: 'invalid_request_error',
      message: 'name holds a lone UTF-16 surrogate at character 3: not valid Unicode text',
    });
    const collection = await h.admin('POST', '/internal/rag/collections', {
      name: 'handbook',
      description: 'people \udc00',
    });
    expect(collection.status).toBe(400);
    expect(collection.body.error.message).toBe(
      'description holds a lone UTF-16 surrogate at character 7: not valid Unicode text',
    );
    expect((await h.admin('GET', '/internal/rag/collections')).body.data).toEqual([]);
    // An object key holding one is named by where it stands.
    const metadata = await h.admin('POST', '/internal/api-keys', { name: 'k', metadata: { 'a\ud800': 1 } });
    expect(metadata.status).toBe(400);
    expect(metadata.body.error.message).toBe('a key in metadata holds a lone UTF-16 surrogate: not valid Unicode text');
  });

  it('keeps surrogate pairs, and passes a model request through as sent', async () => {
    const named = await h.admin('POST', '/internal/api-keys', { name: 'rocket 🚀' });
    expect(named.status).toBe(201);
    const secret = (await h.issueKey({ scopes: ['chat'] })).key;
    const reply = await h.openaiClient(secret).chat.completions.create({
      model: 'demo/echo',
      messages: [{ role: 'user', content: 'half \ud800 here' }],
    });
    expect(reply.choices[0]?.message.content).toContain('half');
  });

  it("refuses one in a store commit message and a branch's name", async () => {
    const post = async (path: string, body: unknown) => {
      const response = await fetch(`${store.storeUrl}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_STORE_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as { error: { message: string } } };
    };
    const applied = await post('/v1/apply', {
      scope: { namespace: 'sur/message' },
      documents: [{ key: 'a.txt', content: 'fine' }],
      message: 'fix \udbff typo',
    });
    expect(applied.status).toBe(400);
    expect(applied.body.error.message).toBe(
      'message holds a lone UTF-16 surrogate at character 4: not valid Unicode text',
    );
    const state = await fetch(`${store.storeUrl}/v1/state?namespace=sur/message`, {
      headers: { authorization: `Bearer ${TEST_STORE_TOKEN}` },
    });
    expect(((await state.json()) as { revision: number }).revision).toBe(0);
  });
});
