import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

const MARKER = 'CARRYMARK5521';
const QUESTION = 'Can I carry over unused vacation days?';

/**
 * A token count runs the policy stages a Messages request runs, RAG included: with `x-gatehouse-rag`
 * it counts the retrieved context the request itself would carry, and a collection the key may not
 * read is refused as it is for the request. The count used to ignore the header altogether, so it
 * under-counted what the request then cost and answered 200 where the request answers 403.
 */
describe('count_tokens with RAG', () => {
  let h: GatewayHarness;
  let reader: string;
  let outsider: string;

  beforeAll(async () => {
    h = await startGatewayHarness();
    await h.admin('POST', '/internal/rag/collections', { name: 'handbook', access: { teams: ['people'] } });
    await h.admin('POST', '/internal/rag/collections/handbook/documents', {
      key: 'vacation.md',
      content: `# Vacation\n\nUp to five unused vacation days carry over into the next year. Reference ${MARKER}.`,
    });
    reader = (await h.issueKey({ name: 'hr', team: 'people', scopes: ['chat', 'rag:*'] })).key;
    outsider = (await h.issueKey({ name: 'sales', team: 'sales', scopes: ['chat', 'rag:*'] })).key;
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(() => h.anthropic.reset());

  const count = (key: string) =>
    h
      .anthropicClient(key)
      .messages.countTokens(
        { model: 'claude-opus-4-7', messages: [{ role: 'user', content: QUESTION }] },
        { headers: { 'x-gatehouse-rag': 'handbook' } },
      )
      .withResponse();

  it('counts the retrieved context the Messages request would carry, and cites it', async () => {
    const { data, response } = await count(reader);
    const sent = h.anthropic.lastRequest()!;
    expect(sent.path).toBe('/v1/messages/count_tokens');
    expect(JSON.stringify(sent.body.system)).toContain(MARKER);
    expect(response.headers.get('x-gatehouse-rag-chunks')).toBe('handbook:1');

    // The same request without RAG counts fewer tokens: the context is part of the count.
    const plain = await h
      .anthropicClient(reader)
      .messages.countTokens({ model: 'claude-opus-4-7', messages: [{ role: 'user', content: QUESTION }] });
    expect(data.input_tokens).toBeGreaterThan(plain.input_tokens);
  });

  it('refuses a collection the key may not read, as the Messages request is refused', async () => {
    const error = await count(outsider).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.PermissionDeniedError);
    expect((error as InstanceType<typeof Anthropic.PermissionDeniedError>).message).toContain(
      'may not read RAG collection handbook',
    );
    expect(h.anthropic.requests).toHaveLength(0);
  });
});
