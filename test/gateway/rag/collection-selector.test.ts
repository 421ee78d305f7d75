import { describe, expect, it } from 'vitest';
import { harnessWithKey } from '../support/harness.js';

/**
 * A request's collection selector (the `x-gatehouse-rag` header or `metadata.gatehouse_rag`) that names
 * nothing, or a name too long, is refused with 400 naming where it came from in `param`, before any
 * upstream call: an empty selector read as "no retrieval" would answer without the documents asked for.
 */
describe('RAG collection selector edge cases', () => {
  const context = harnessWithKey();

  async function chat(
    headers: Record<string, string>,
    metadata?: Record<string, unknown>,
  ): Promise<{ status: number; error: { type: string; message: string; code: number; param?: string | null } }> {
    const response = await fetch(`${context.harness.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${context.key}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'what is the policy?' }],
        ...(metadata === undefined ? {} : { metadata }),
      }),
    });
    const body = (await response.json()) as { error: never };
    return { status: response.status, error: body.error };
  }

  it.each(['', ',,', ' , '])('refuses the header %j, which names no collection', async (value) => {
    context.harness.openai.reset();
    const answer = await chat({ 'x-gatehouse-rag': value });
    expect(answer.status).toBe(400);
    expect(answer.error).toMatchObject({ type: 'invalid_request_error', code: 400, param: 'x-gatehouse-rag' });
    expect(answer.error.message).toContain('header x-gatehouse-rag names no RAG collection');
    expect(context.harness.openai.requests).toHaveLength(0);
  });

  it.each([{ value: '' }, { value: [] }, { value: ' ,' }])(
    'refuses metadata.gatehouse_rag $value, which names no collection',
    async ({ value }) => {
      const answer = await chat({}, { gatehouse_rag: value });
      expect(answer.status).toBe(400);
      expect(answer.error).toMatchObject({ type: 'invalid_request_error', param: 'metadata.gatehouse_rag' });
      expect(answer.error.message).toContain('metadata.gatehouse_rag names no RAG collection');
    },
  );

  it('says the length limit of a name over 100 characters, and takes one of 100', async () => {
    const long = await chat({ 'x-gatehouse-rag': `faq,${'a'.repeat(101)}` });
    expect(long.status).toBe(400);
    expect(long.error).toMatchObject({ param: 'x-gatehouse-rag' });
    expect(long.error.message).toBe(
      'header x-gatehouse-rag names a RAG collection of 101 characters; a name is at most 100',
    );
    const inMetadata = await chat({}, { gatehouse_rag: ['b'.repeat(120)] });
    expect(inMetadata.error).toMatchObject({ param: 'metadata.gatehouse_rag' });
    expect(inMetadata.error.message).toContain('of 120 characters; a name is at most 100');
    // A name of 100 characters is a name: no such collection, so no access to it.
    expect((await chat({ 'x-gatehouse-rag': 'a'.repeat(100) })).status).toBe(403);
  });

  it('names the header or metadata key in param for a malformed name too', async () => {
    const header = await chat({ 'x-gatehouse-rag': 'bad name' });
    expect(header.status).toBe(400);
    expect(header.error).toMatchObject({ param: 'x-gatehouse-rag' });
    expect(header.error.message).toContain('header x-gatehouse-rag must list RAG collection names');
    const client = context.harness.openaiClient(context.key);
    const failure = (await client.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }], metadata: { gatehouse_rag: 'a/b' } })
      .catch((error: unknown) => error)) as { status?: number; param?: string | null; message?: string };
    expect(failure).toMatchObject({ status: 400, param: 'metadata.gatehouse_rag' });
    expect(failure.message).toContain('metadata.gatehouse_rag must list RAG collection names');
  });
});
