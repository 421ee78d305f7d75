import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/** A key, or the gateway's policy, may deny stateful use: 403 for what needs it, and nothing kept. */
describe('denying stateful use of /v1/responses', () => {
  let h: GatewayHarness;

  beforeAll(async () => {
    h = await startGatewayHarness({ responses: { default_store: true } });
  });
  afterAll(async () => h.close());

  it('a key with allow_stateful false gets 403 for store and previous_response_id, and keeps nothing by default', async () => {
    const created = await h.issueKey({ scopes: ['responses'], allow_stateful: false });
    expect(created.allow_stateful).toBe(false);
    const client = h.openaiClient(created.key);

    const stored = await client.responses
      .create({ model: 'demo/echo', input: 'keep', store: true })
      .catch((e: unknown) => e);
    expect(stored).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect((stored as Error).message).toContain('allow_stateful');
    const chained = await client.responses
      .create({ model: 'demo/echo', input: 'again', previous_response_id: 'resp_x' })
      .catch((e: unknown) => e);
    expect(chained).toBeInstanceOf(OpenAI.PermissionDeniedError);

    // responses.default_store is true here, but not for this key: answered, not kept.
    const plain = await client.responses.create({ model: 'demo/echo', input: 'plain' });
    expect(plain.output_text).toBe('plain');
    expect(await client.responses.retrieve(plain.id).catch((e: unknown) => e)).toBeInstanceOf(OpenAI.NotFoundError);

    // Allowed again from the next request on.
    expect(
      (await h.admin('PATCH', `/internal/api-keys/${created.id}`, { allow_stateful: true })).body.allow_stateful,
    ).toBe(true);
    const kept = await client.responses.create({ model: 'demo/echo', input: 'now kept' });
    expect((await client.responses.retrieve(kept.id)).output_text).toBe('now kept');
  });

  it('keys are allowed by default', async () => {
    const created = await h.issueKey({ scopes: ['responses'] });
    expect(created.allow_stateful).toBe(true);
  });
});

describe('responses.allow_stateful: false', () => {
  it('refuses stateful use for every key', async () => {
    const h = await startGatewayHarness({ responses: { allow_stateful: false } });
    try {
      const client = h.openaiClient((await h.issueKey({ scopes: ['responses'] })).key);
      const stored = await client.responses
        .create({ model: 'demo/echo', input: 'keep', store: true })
        .catch((e: unknown) => e);
      expect(stored).toBeInstanceOf(OpenAI.PermissionDeniedError);
      expect((stored as Error).message).toContain('responses.allow_stateful');
      expect((await client.responses.create({ model: 'demo/echo', input: 'fine' })).output_text).toBe('fine');
    } finally {
      await h.close();
    }
  });
});
