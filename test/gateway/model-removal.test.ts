import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

// Removing a model from the allow-list through PUT /internal/models. The harness allows gpt-4o-mini
// (alias fast, cap 100, priced; also the upstream model of the ha-model deployments), claude-opus-4-7
// (alias smart, cap 200), ha-model (two deployments) and text-embedding-3-small (the default
// embeddings model); the alias ghost awaits gpt-unlisted, which was never allowed.

let h: GatewayHarness;

beforeAll(async () => {
  h = await startGatewayHarness();
});
afterAll(() => h?.close());
beforeEach(async () => {
  expect((await h.admin('PUT', '/internal/models', { reset: true })).status).toBe(200);
});

const allowedWithout = async (...removed: string[]): Promise<string[]> =>
  ((await h.admin('GET', '/internal/models')).body.allowed_models as string[]).filter(
    (model) => !removed.includes(model),
  );

/** The details of the newest audit event of `action`. */
const lastAudit = async (action: string): Promise<any> =>
  (await h.admin('GET', `/internal/audit?action=${action}&limit=1`)).body.data[0].details;

describe('removing a model through PUT /internal/models', () => {
  it('refuses with 409 while an alias routes to it, naming the alias and what to do; accepts it with the alias', async () => {
    const refused = await h.admin('PUT', '/internal/models', {
      allowed_models: await allowedWithout('claude-opus-4-7'),
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ type: 'conflict_error', code: 409 });
    expect(refused.body.error.message).toContain("model_aliases.smart: routes to 'claude-opus-4-7'");
    expect(refused.body.error.message).toContain('remove the alias from model_aliases or point it at an allowed model');
    // Nothing changed.
    const unchanged = await h.admin('GET', '/internal/models');
    expect(unchanged.body.source).toBe('config');
    expect(unchanged.body.allowed_models).toContain('claude-opus-4-7');

    const accepted = await h.admin('PUT', '/internal/models', {
      allowed_models: await allowedWithout('claude-opus-4-7'),
      model_aliases: { fast: 'gpt-4o-mini', ghost: 'gpt-unlisted' },
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body.allowed_models).not.toContain('claude-opus-4-7');
    // Its cap went with it (it would cap nothing); the alias that awaited a never-allowed model stays.
    expect(accepted.body.per_model_max_tokens).toEqual({ 'gpt-4o-mini': 100 });
    expect(accepted.body.model_aliases).toEqual({ fast: 'gpt-4o-mini', ghost: 'gpt-unlisted' });
  });

  it('refuses with 409 removing the default embeddings model unless the same request replaces it', async () => {
    const refused = await h.admin('PUT', '/internal/models', {
      allowed_models: await allowedWithout('text-embedding-3-small'),
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain("default_embedding_model: 'text-embedding-3-small' is removed");
    expect(refused.body.error.message).toContain('set default_embedding_model to another allowed model, or to null');

    const accepted = await h.admin('PUT', '/internal/models', {
      allowed_models: await allowedWithout('text-embedding-3-small'),
      default_embedding_model: 'demo/embed',
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body.default_embedding_model).toBe('demo/embed');
  });

  it('keeps the keys and deployments naming it, records them in the audit, and they apply again once it is allowed', async () => {
    h.openai.reset();
    h.openai.setDefault({ reply: { text: 'ok' } });
    const key = await h.issueKey({ scopes: ['chat'], models: ['ha-model'] });
    const client = h.openaiClient(key.key);
    const ask = () =>
      client.chat.completions.create({ model: 'ha-model', messages: [{ role: 'user', content: 'hi' }] });

    const removed = await h.admin('PUT', '/internal/models', { allowed_models: await allowedWithout('ha-model') });
    expect(removed.status).toBe(200);
    expect((await h.admin('GET', `/internal/api-keys/${key.id}`)).body.models).toEqual(['ha-model']);
    expect((await h.admin('GET', '/internal/deployments')).body.data.map((d: any) => d.id)).toEqual([
      'ha-primary',
      'ha-secondary',
    ]);
    await expect(ask()).rejects.toMatchObject({ status: 400 });
    const details = await lastAudit('models.update');
    expect(details.removed_models).toEqual([
      { model: 'ha-model', api_keys: [key.id], deployments: ['ha-primary', 'ha-secondary'] },
    ]);

    expect((await h.admin('PUT', '/internal/models', { reset: true })).status).toBe(200);
    expect((await ask()).choices[0]!.message.content).toBe('ok');
  });

  it("drops a removed model's cap, keeps its price for when it is allowed again, and audits the prices", async () => {
    const read = await h.admin('GET', '/internal/models');
    const claudePrice = { input_per_mtok: 3, output_per_mtok: 15 };
    const priced = await h.admin('PUT', '/internal/models', {
      pricing: { ...read.body.pricing, 'claude-opus-4-7': claudePrice },
    });
    expect(priced.status).toBe(200);
    const pricedAudit = await lastAudit('models.update');
    expect(pricedAudit.before.pricing).not.toHaveProperty('claude-opus-4-7');
    expect(pricedAudit.after.pricing['claude-opus-4-7']).toEqual(claudePrice);

    const removed = await h.admin('PUT', '/internal/models', {
      allowed_models: await allowedWithout('claude-opus-4-7', 'gpt-4o-mini'),
      model_aliases: { ghost: 'gpt-unlisted' },
    });
    expect(removed.status).toBe(200);
    // Both prices stay: gpt-4o-mini's still prices ha-model (served by upstream gpt-4o-mini), and each
    // prices its model again once it is allowed again. The caps go.
    expect(removed.body.pricing).toEqual({
      'gpt-4o-mini': read.body.pricing['gpt-4o-mini'],
      'claude-opus-4-7': claudePrice,
    });
    expect(removed.body.unpriced_models).not.toContain('ha-model');
    expect(removed.body.per_model_max_tokens).toEqual({});
    const restored = await h.admin('PUT', '/internal/models', {
      allowed_models: [...removed.body.allowed_models, 'claude-opus-4-7'],
    });
    expect(restored.status).toBe(200);
    expect(restored.body.unpriced_models).not.toContain('claude-opus-4-7');
  });
});
