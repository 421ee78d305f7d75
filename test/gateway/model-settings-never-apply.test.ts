import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFiles, configRefusal } from '../support/config-files.js';
import { gatewayAdmin, startTempServers, type TempServers } from '../support/temp-servers.js';

/**
 * Caps and the default embeddings model are looked up by the canonical model a request resolves to.
 * A cap written for an alias or a misspelt model used to be accepted and then never lowered anything,
 * and a misspelt default embeddings model made every embeddings request without a model a 400 that
 * only showed once clients called it; a model listed twice showed twice in /v1/models.
 */
describe('model settings that could never take effect', () => {
  const files = configFiles('gatehouse-model-settings-');
  afterAll(() => files.cleanup());
  const llm =
    'llm:\n  allowed_models: [demo/echo, demo/embed]\n  model_aliases: { fast: demo/echo, vectors: demo/embed }\n';

  it('refuses such a configuration file, naming each setting', () => {
    const file = files.write(
      llm +
        '  per_model_max_tokens: { fast: 10, demo/ech0: 10, demo/echo: 10 }\n  default_embedding_model: demo/embd\n',
    );
    expect(configRefusal(file).issues).toEqual([
      "llm.per_model_max_tokens.fast: 'fast' is an alias, and caps apply to the model a request is routed to; name its target 'demo/echo'",
      "llm.per_model_max_tokens.demo/ech0: 'demo/ech0' is not in allowed_models, so this cap would never apply",
      "llm.default_embedding_model: 'demo/embd' is not in allowed_models, so every embeddings request without a model would be refused",
    ]);
  });

  it('accepts a default embeddings model outside the allow-list when callers may bring their own provider key', () => {
    const file = files.write(llm + '  default_embedding_model: text-embedding-3-small\nallow_passthrough_keys: true\n');
    expect(() => configRefusal(file)).toThrow(/was accepted/);
  });

  describe('served', () => {
    let servers: TempServers;
    beforeAll(async () => {
      servers = await startTempServers({
        llm: {
          allowed_models: ['demo/echo', 'demo/embed', 'demo/echo'],
          model_aliases: { fast: 'demo/echo', vectors: 'demo/embed' },
          default_embedding_model: 'vectors',
        },
      });
    });
    afterAll(async () => servers?.stop());

    const admin = gatewayAdmin(() => servers);

    it('lists a model named twice in the file once, and takes an alias as the default embeddings model', async () => {
      const issued = await admin('POST', '/internal/api-keys', { name: 'lister', scopes: ['*'] });
      const headers = { authorization: `Bearer ${issued.body.key}`, 'content-type': 'application/json' };
      const models = await fetch(`${servers.gatewayUrl}/v1/models`, { headers });
      expect(((await models.json()) as { data: { id: string }[] }).data.map((m) => m.id)).toEqual([
        'demo/echo',
        'demo/embed',
      ]);
      const embedded = await fetch(`${servers.gatewayUrl}/v1/embeddings`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ input: 'hello' }),
      });
      expect(embedded.status).toBe(200);
      expect(((await embedded.json()) as { model: string }).model).toBe('demo/embed');
    });

    it('refuses the same settings through the admin API, changing nothing', async () => {
      const before = (await admin('GET', '/internal/models')).body;
      const alias = await admin('PUT', '/internal/models', { per_model_max_tokens: { fast: 5 } });
      expect(alias.status).toBe(400);
      expect(alias.body.error.message).toBe(
        "per_model_max_tokens.fast: 'fast' is an alias, and caps apply to the model a request is routed to; name its target 'demo/echo'",
      );
      const typo = await admin('PUT', '/internal/models', { default_embedding_model: 'demo/embd' });
      expect(typo.status).toBe(400);
      expect(typo.body.error.message).toBe(
        "default_embedding_model: 'demo/embd' is not in allowed_models, so every embeddings request without a model would be refused",
      );
      expect((await admin('GET', '/internal/models')).body).toEqual(before);
      // The same cap on the model itself is saved.
      const saved = await admin('PUT', '/internal/models', { per_model_max_tokens: { 'demo/echo': 5 } });
      expect(saved.status).toBe(200);
      expect(saved.body.per_model_max_tokens).toEqual({ 'demo/echo': 5 });
    });
  });
});
