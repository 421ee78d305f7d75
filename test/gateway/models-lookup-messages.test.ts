import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * The messages of model refusals say what is true of the request the caller sent: a model lookup
 * refused for the key's list names the key (not the allow-list), whether the id is an alias or a
 * canonical name; an embeddings request without `model` refused for its default names the default as
 * such; and `GET /v1/models/` names the missing id, not a route parameter.
 */
describe('model lookups and default-model refusals name their real reason', () => {
  let h: GatewayHarness;
  /** Limited to the alias's target, by its canonical name. */
  let targetKey: { id: string; key: string };
  /** Limited to another model altogether. */
  let chatKey: { id: string; key: string };
  /** Without a list of models. */
  let openKey: string;

  beforeAll(async () => {
    h = await startGatewayHarness({
      llm: {
        allowed_models: ['gpt-4o-mini', 'text-embedding-3-small', 'demo/embed'],
        model_aliases: { emb: 'text-embedding-3-small', fast: 'gpt-4o-mini', ghost: 'gpt-unlisted' },
        default_embedding_model: 'text-embedding-3-small',
      },
    });
    targetKey = await h.issueKey({ scopes: ['embeddings'], models: ['text-embedding-3-small'] });
    chatKey = await h.issueKey({ scopes: ['chat', 'embeddings'], models: ['gpt-4o-mini', 'fast'] });
    openKey = (await h.issueKey({ scopes: ['embeddings'] })).key;
  });
  afterAll(async () => h.close());
  // Tests that change the model settings get the configuration file's back.
  afterEach(async () => {
    expect((await h.admin('PUT', '/internal/models', { reset: true })).status).toBe(200);
  });

  const lookup = async (id: string, key: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${h.url}/v1/models/${id}`, {
      headers: { authorization: `Bearer ${key}`, ...headers },
    });
    return { status: response.status, body: (await response.json()) as any };
  };

  const embed = async (key: string, body: Record<string, unknown> = { input: 'x' }) => {
    const response = await fetch(`${h.url}/v1/embeddings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  };

  it("answers an alias for a key limited to the alias's target", async () => {
    const found = await lookup('emb', targetKey.key);
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ id: 'emb', object: 'model' });
  });

  it("refuses an alias for a key whose list leaves its target out, naming the key's list", async () => {
    const refused = await lookup('emb', chatKey.key);
    expect(refused.status).toBe(404);
    expect(refused.body.error.type).toBe('not_found_error');
    expect(refused.body.error.message).toBe(
      `API key ${chatKey.id} may not use model 'emb' (an alias of 'text-embedding-3-small'; the key is limited to gpt-4o-mini, fast)`,
    );
    // A canonical name refused for the same reason says the same.
    expect((await lookup('text-embedding-3-small', chatKey.key)).body.error.message).toBe(
      `API key ${chatKey.id} may not use model 'text-embedding-3-small' (the key is limited to gpt-4o-mini, fast)`,
    );
  });

  it('says an alias whose target is not allowed is that, for any key', async () => {
    for (const key of [openKey, chatKey.key]) {
      const refused = await lookup('ghost', key);
      expect(refused.status).toBe(404);
      expect(refused.body.error.message).toBe(
        "model 'ghost' is an alias of 'gpt-unlisted', which is not in allowed_models",
      );
    }
    expect((await lookup('nope', openKey)).body.error.message).toBe("model 'nope' is not in allowed_models");
  });

  it('answers GET /v1/models/ with a 404 naming the path and the missing id', async () => {
    const missing = await lookup('', openKey);
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ type: 'not_found_error', code: 404 });
    expect(missing.body.error.message).toBe(
      "no model id in the path '/v1/models/': GET /v1/models lists the models, GET /v1/models/{id} answers one",
    );
    expect(missing.body.error.message).not.toContain('parameter *');
    // Anthropic's SDKs get their own error shape.
    const anthropic = await lookup('', openKey, { 'anthropic-version': '2023-06-01' });
    expect(anthropic.status).toBe(404);
    expect(anthropic.body).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
  });

  it("names the default embedding model as such when the key's list refuses it", async () => {
    const refused = await embed(chatKey.key);
    expect(refused.status).toBe(403);
    expect(refused.body.error.type).toBe('permission_error');
    expect(refused.body.error.message).toBe(
      `the request names no model, and API key ${chatKey.id} may not use the default embedding model 'text-embedding-3-small' (llm.default_embedding_model); the key may use gpt-4o-mini, fast: name one in model`,
    );
    expect(h.openai.requests).toHaveLength(0);
    // A model the client named keeps the message that names it.
    expect((await embed(chatKey.key, { model: 'text-embedding-3-small', input: 'x' })).body.error.message).toBe(
      `API key ${chatKey.id} may not use model 'text-embedding-3-small' (the key is limited to gpt-4o-mini, fast)`,
    );
  });

  it('refuses a model the key does not list as GET /v1/models/{id} does: the name sent, its target, the list', async () => {
    const refused = await embed(chatKey.key, { model: 'emb', input: 'x' });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({
      type: 'permission_error',
      param: 'model',
      message: `API key ${chatKey.id} may not use model 'emb' (an alias of 'text-embedding-3-small'; the key is limited to gpt-4o-mini, fast)`,
    });
    expect(refused.body.error.message).toBe((await lookup('emb', chatKey.key)).body.error.message);
    // Chat words it the same way.
    const chat = await h
      .openaiClient(chatKey.key)
      .chat.completions.create({ model: 'emb', messages: [{ role: 'user', content: 'x' }] })
      .catch((error: unknown) => error as { status: number; error: { message: string; param: string } });
    expect(chat).toMatchObject({ status: 403, error: { param: 'model', message: refused.body.error.message } });
    expect(h.openai.requests).toHaveLength(0);
  });

  it('names a default that is an alias, with its target', async () => {
    expect((await h.admin('PUT', '/internal/models', { default_embedding_model: 'emb' })).status).toBe(200);
    const refused = await embed(chatKey.key);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe(
      `the request names no model, and API key ${chatKey.id} may not use the default embedding model 'emb' (llm.default_embedding_model, an alias of 'text-embedding-3-small'); the key may use gpt-4o-mini, fast: name one in model`,
    );
    // The key limited to the target may use the alias.
    expect((await embed(targetKey.key)).status).toBe(200);
  });

  it('refuses removing the model the default embedding alias routes to, and the default keeps working', async () => {
    expect((await h.admin('PUT', '/internal/models', { default_embedding_model: 'emb' })).status).toBe(200);
    // Removing the alias's target would leave every embeddings request without a model refused.
    const saved = await h.admin('PUT', '/internal/models', { allowed_models: ['gpt-4o-mini', 'demo/embed'] });
    expect(saved.status).toBe(409);
    expect(saved.body.error.message).toContain("model_aliases.emb: routes to 'text-embedding-3-small'");
    expect((await embed(openKey)).status).toBe(200);
  });
});
