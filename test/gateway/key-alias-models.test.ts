import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * A key limited to an alias may call the alias (and not its target under the target's own name). Its
 * model list used to leave the alias out, as it lists canonical names only: such a key saw an empty
 * list, a 404 for the one name it could call, and a refusal saying it may use none of the models.
 */
describe('a key limited to an alias', () => {
  let h: GatewayHarness;
  let client: OpenAI;
  let keyId: string;
  let secret: string;
  beforeAll(async () => {
    h = await startGatewayHarness();
    const issued = await h.issueKey({ scopes: ['chat'], models: ['fast', 'demo/echo', 'ghost'] });
    keyId = issued.id;
    secret = issued.key;
    client = h.openaiClient(secret);
  });
  afterAll(async () => h.close());

  it('sees the alias among its models, under its target’s owner, and may retrieve it', async () => {
    const listed = (await client.models.list()).data.map((model) => [model.id, model.owned_by]);
    // `ghost` is an alias of a model that is not allowed: it cannot be called, so it is not listed.
    expect(listed).toEqual([
      ['demo/echo', 'demo'],
      ['fast', 'openai'],
    ]);
    expect(await client.models.retrieve('fast')).toMatchObject({ id: 'fast', owned_by: 'openai' });
    const target = await client.models.retrieve('gpt-4o-mini').catch((error: unknown) => error);
    expect(target).toBeInstanceOf(OpenAI.NotFoundError);
    expect((target as Error).message).toContain(`API key ${keyId} may not use model 'gpt-4o-mini'`);
    const anthropic = await h.anthropicClient(secret).models.list();
    expect(anthropic.data.map((model) => model.id)).toEqual(['demo/echo', 'fast']);
  });

  it('calls the alias it lists, and is told it may use it when it names another model', async () => {
    const reply = await client.chat.completions.create({ model: 'fast', messages: [{ role: 'user', content: 'hi' }] });
    expect(reply.model).toBe('gpt-4o-mini');
    const refused = await client.chat.completions
      .create({ model: 'gpt-nope', messages: [{ role: 'user', content: 'hi' }] })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    expect((refused as Error).message).toContain('this key may use demo/echo, fast)');
  });

  it('leaves the list of a key without a model list as it was: canonical names only', async () => {
    const open = h.openaiClient((await h.issueKey({ scopes: ['chat'] })).key);
    const ids = (await open.models.list()).data.map((model) => model.id);
    expect(ids).not.toContain('fast');
    expect(ids).toContain('gpt-4o-mini');
  });
});
