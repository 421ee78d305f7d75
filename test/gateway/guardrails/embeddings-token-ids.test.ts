import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from '../support/harness.js';

/**
 * Embeddings input given as token ids is not text: blocked patterns and PII detection cannot read
 * it. Where either applies the request is refused with what to do instead, rather than passing
 * unchecked; ids count one token each against the input limit; with neither, ids go through.
 */
describe('guardrails on embeddings input given as token ids', () => {
  let h: GatewayHarness;
  let openai: OpenAI;
  beforeAll(async () => {
    h = await startGatewayHarness();
    openai = h.openaiClient((await h.issueKey({ scopes: ['embeddings'] })).key);
  });
  afterAll(() => h.close());
  beforeEach(async () => {
    expect((await h.admin('PUT', '/internal/content-policy', { reset: true })).status).toBe(200);
    expect((await h.admin('PUT', '/internal/pii', { reset: true })).status).toBe(200);
    h.openai.reset();
  });

  const embed = (input: string | number[] | number[][]): Promise<string> =>
    openai.embeddings.create({ model: 'text-embedding-3-small', input }).then(
      () => 'ok',
      (error: unknown) => (error instanceof OpenAI.APIError ? error.message : Promise.reject(error)),
    );

  it('with neither in force, token ids go through as sent', async () => {
    expect(await embed([[1, 2, 3], [4]])).toBe('ok');
    expect(h.openai.lastRequest()!.body.input).toEqual([[1, 2, 3], [4]]);
  });

  it('blocked patterns refuse token ids, naming where they are; text is still read', async () => {
    await h.admin('PUT', '/internal/content-policy', { blocked_patterns: ['launch\\s+codes'] });
    expect(await embed([1, 2, 3])).toBe(
      '400 request refused by the content policy: input is token ids, which blocked patterns cannot read; send it as text',
    );
    expect(await embed([[1], [2, 3]])).toContain('input[0] is token ids');
    expect(await embed('the weather')).toBe('ok');
    expect(h.openai.requests).toHaveLength(1);
  });

  it('the input limit counts each id as a token', async () => {
    await h.admin('PUT', '/internal/content-policy', { max_input_tokens: 5 });
    expect(await embed([1, 2, 3, 4, 5])).toBe('ok');
    expect(
      await embed([
        [1, 2, 3],
        [4, 5, 6],
      ]),
    ).toContain('over the limit of 5 tokens');
    expect(await embed([1, 2, 3, 4, 5, 6])).toContain('over the limit of 5 tokens');
  });

  it('PII detection in force refuses token ids, saying which mode', async () => {
    await h.admin('PUT', '/internal/pii', { mode: 'mask' });
    expect(await embed([1, 2, 3])).toBe(
      '400 request refused by the content policy: input is token ids, which PII detection cannot read (pii.mode is mask); send it as text',
    );
    expect(await embed('mail ada@example.com')).toBe('ok');
    expect(h.openai.lastRequest()!.body.input).not.toContain('ada@example.com');
  });
});
