import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * A key limited to some models does not see the others in /v1/models; the refusal of a model that is
 * not allowed at all must not list them either, but the models this key may use.
 */
describe('model_not_allowed for a key limited to some models', () => {
  let h: GatewayHarness;
  let limited: OpenAI;
  let open: OpenAI;
  beforeAll(async () => {
    h = await startGatewayHarness();
    limited = h.openaiClient(
      (await h.issueKey({ scopes: ['chat', 'embeddings'], models: ['gpt-4o-mini', 'demo/embed'] })).key,
    );
    open = h.openaiClient((await h.issueKey({ scopes: ['chat'] })).key);
  });
  afterAll(async () => h.close());

  const refusal = async (call: Promise<unknown>): Promise<string> => {
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.APIError>).error).toMatchObject({ type: 'model_not_allowed' });
    return (error as Error).message;
  };

  it('names only the models the key may use, on chat and embeddings', async () => {
    const visible = (await limited.models.list()).data.map((model) => model.id);
    expect(visible).toEqual(['demo/embed', 'gpt-4o-mini']);
    const chat = await refusal(
      limited.chat.completions.create({ model: 'gpt-nope', messages: [{ role: 'user', content: 'x' }] }),
    );
    expect(chat).toContain("model 'gpt-nope' is not in allowed_models");
    expect(chat).toContain('this key may use demo/embed, gpt-4o-mini');
    for (const hidden of ['claude-opus-4-7', 'demo/echo', 'ha-model', 'text-embedding-3-small'])
      expect(chat).not.toContain(hidden);
    const embeddings = await refusal(limited.embeddings.create({ model: 'embed-nope', input: 'x' }));
    expect(embeddings).toContain('this key may use demo/embed, gpt-4o-mini');
    expect(embeddings).not.toContain('text-embedding-3-small');
  });

  it('still lists the allowed models for a key that may use them all', async () => {
    const message = await refusal(
      open.chat.completions.create({ model: 'gpt-nope', messages: [{ role: 'user', content: 'x' }] }),
    );
    expect(message).toContain(
      '(demo/echo, demo/embed, gpt-4o-mini, claude-opus-4-7, text-embedding-3-small, ha-model)',
    );
    expect(message).not.toContain('did you mean');
  });

  it('names the model a typo most likely meant, among those the key may use', async () => {
    const typo = () => ({ model: 'gpt-4o-mni', messages: [{ role: 'user' as const, content: 'x' }] });
    expect(await refusal(open.chat.completions.create(typo()))).toMatch(
      /; did you mean 'gpt-4o-mini'\? Otherwise add it to llm\.allowed_models in the configuration file, on the UI's Models screen, or with PUT \/internal\/models$/,
    );
    expect(await refusal(limited.chat.completions.create(typo()))).toContain("did you mean 'gpt-4o-mini'?");
    // A model the key may not use is not suggested, though it is allowed.
    const hidden = await refusal(
      limited.chat.completions.create({ model: 'claude-opus-4-6', messages: [{ role: 'user', content: 'x' }] }),
    );
    expect(hidden).not.toContain('did you mean');
  });
});
