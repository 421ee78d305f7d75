import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * `"\ud800"` is valid JSON but no Unicode text: a lone surrogate has no UTF-8 form, and stored anyway
 * it came back as replacement characters, with a `chars` count of text no longer there. A document's
 * content or key holding one is refused as bytes that are not UTF-8 are: 400, naming the field, the
 * document's key and where the surrogate stands; nothing is stored.
 */
describe('RAG documents refuse lone UTF-16 surrogates', () => {
  let h: GatewayHarness;
  const put = (body: unknown) => h.admin('POST', '/internal/rag/collections/public/documents', body);

  beforeAll(async () => {
    h = await startGatewayHarness();
    expect((await h.admin('POST', '/internal/rag/collections', { name: 'public' })).status).toBe(201);
  });
  afterAll(() => h.close());

  it('refuses one in the content, naming the key and the character', async () => {
    // JSON.stringify writes the lone surrogate as the escape `\ud800`, as a client would.
    const answer = await put({ key: 'sur.txt', content: 'vacation \ud800 half' });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({
      type: 'invalid_request_error',
      code: 400,
      message: "content (key 'sur.txt') holds a lone UTF-16 surrogate at character 9: not valid Unicode text",
    });
    // A trailing low surrogate, after an emoji counted as one character.
    const low = await put({ key: 'low.txt', content: '🚀 ok \udc00' });
    expect(low.body.error.message).toBe(
      "content (key 'low.txt') holds a lone UTF-16 surrogate at character 5: not valid Unicode text",
    );
    expect((await h.admin('GET', '/internal/rag/collections/public/documents')).body.data).toEqual([]);
  });

  it('refuses one in the key', async () => {
    const answer = await put({ key: 'a\udbffb.txt', content: 'fine' });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toBe('key holds a lone UTF-16 surrogate at character 1: not valid Unicode text');
  });

  it('keeps well-formed text, surrogate pairs included, exactly', async () => {
    const answer = await put({ key: 'emoji 🚀.txt', content: 'deploy 🚀 by 👩🏽‍💻, U+FFFD � stays' });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ key: 'emoji 🚀.txt', chars: 'deploy 🚀 by 👩🏽‍💻, U+FFFD � stays'.length });
    const chunks = await h.admin('GET', `/internal/rag/collections/public/chunks?document=${answer.body.id}`);
    expect(chunks.body.data.map((chunk: { text: string }) => chunk.text).join('')).toContain('deploy 🚀 by 👩🏽‍💻');
  });
});
