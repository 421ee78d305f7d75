import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { withSdkClients, type HarnessClients } from './support/harness.js';

/**
 * `include` takes the values OpenAI defines; OpenAI refuses others. The gateway took any value, on a
 * translated deployment and on a kept response's retrieval, so a misspelt one went unnoticed.
 */
describe('Responses: include values', () => {
  let c: HarnessClients;
  withSdkClients({}, ['responses'], (clients) => (c = clients));

  const refusal = (promise: Promise<unknown>): Promise<unknown> => promise.catch((error: unknown) => error);
  const expectUnknownInclude = (failure: unknown, path: string): void => {
    expect(failure).toBeInstanceOf(OpenAI.BadRequestError);
    const message = (failure as Error).message;
    expect(message).toContain(`${path}: 'bogus.thing' is not a value include takes`);
    expect(message).toContain('reasoning.encrypted_content');
    expect(message).toContain('file_search_call.results');
  };

  it('an unknown one is refused on a translated deployment, naming its place and listing the known ones', async () => {
    for (const model of ['claude-opus-4-7', 'gpt-4o-mini']) {
      const failure = await refusal(
        c.openai.responses.create({
          model,
          input: 'hi',
          include: ['reasoning.encrypted_content', 'bogus.thing' as never],
        }),
      );
      expectUnknownInclude(failure, 'include[1]');
    }
    expect(c.h.anthropic.requests).toHaveLength(0);
    expect(c.h.openai.requests).toHaveLength(0);
  });

  it('known ones are taken (and dropped) on a translated deployment', async () => {
    const answered = await c.openai.responses.create({
      model: 'gpt-4o-mini',
      input: 'hi',
      include: ['reasoning.encrypted_content', 'web_search_call.action.sources'],
    });
    expect(answered.status).toBe('completed');
  });

  it('an unknown one is refused when a kept response is retrieved; known ones are taken', async () => {
    const kept = await c.openai.responses.create({ model: 'gpt-4o-mini', input: 'hi', store: true });
    expectUnknownInclude(
      await refusal(c.openai.responses.retrieve(kept.id, { include: ['bogus.thing' as never] })),
      'include[0]',
    );
    const read = await c.openai.responses.retrieve(kept.id, { include: ['reasoning.encrypted_content'] });
    expect(read.id).toBe(kept.id);
    // Sent as a plain `include`, as curl users write it.
    const plain = await fetch(`${c.h.url}/v1/responses/${kept.id}?include=bogus.thing`, {
      headers: { authorization: `Bearer ${c.openai.apiKey}` },
    });
    expect(plain.status).toBe(400);
    expect(((await plain.json()) as { error: { message: string } }).error.message).toContain(
      "include[0]: 'bogus.thing' is not a value include takes",
    );
  });
});
