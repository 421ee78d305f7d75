import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPENAI_UPSTREAM_KEY, startGatewayHarness, type GatewayHarness } from './support/harness.js';

/** A caller's own provider key, which the mock upstreams do not accept. */
const CALLERS_KEY = 'sk-callers-own-key-0123456789abcdef';

/**
 * With `allow_passthrough_keys`, a bearer that is no gateway key is the caller's own provider key. A
 * provider refusing it refuses that caller, not the deployment: the refusal is answered at once,
 * without handing the caller's key to the model's other deployments, and anyone's wrong key never
 * moves everybody's traffic off a healthy deployment. The harness's `ha-model` has a primary that is
 * all but always chosen first, then a secondary.
 */
describe('a passthrough key the provider refuses', () => {
  let h: GatewayHarness;
  beforeAll(async () => {
    h = await startGatewayHarness({ allow_passthrough_keys: true });
  });
  afterAll(async () => h.close());

  const healthOf = async (id: string) =>
    (await h.admin('GET', '/internal/deployments/health')).body.data.find((d: { id: string }) => d.id === id);

  it('is answered at once, and neither cools the deployment down nor reaches the others', async () => {
    const caller = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: CALLERS_KEY, maxRetries: 0 });
    for (let i = 0; i < 3; i += 1) {
      const error = await caller.embeddings.create({ model: 'ha-model', input: 'mine' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAI.APIError);
      expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
      expect((error as InstanceType<typeof OpenAI.APIError>).headers?.get('x-upstream-status')).toBe('401');
      expect((error as InstanceType<typeof OpenAI.APIError>).headers?.get('x-should-retry')).toBe('false');
    }
    expect(h.openai.requests).toHaveLength(3);
    expect(h.openaiSecondary.requests).toHaveLength(0);
    expect(await healthOf('ha-primary')).toMatchObject({
      state: 'healthy',
      failures: 3,
      consecutive_failures: 0,
      last_status: 401,
      cooldown_until: null,
    });

    const key = (await h.issueKey({ scopes: ['embeddings'] })).key;
    const answered = await h.openaiClient(key).embeddings.create({ model: 'ha-model', input: 'ours' }).withResponse();
    expect(answered.response.headers.get('x-gateway-deployment')).toBe('ha-primary');
  });

  it("does not cool the deployment down when the provider rate-limits the caller's own key", async () => {
    h.openai.reset();
    h.openaiSecondary.reset();
    // A caller whose own key the primary accepts, but whose quota there is spent.
    const caller = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: OPENAI_UPSTREAM_KEY, maxRetries: 0 });
    h.openai.setNext(...Array.from({ length: 3 }, () => ({ status: 429, headers: { 'retry-after': '30' } })));
    for (let i = 0; i < 3; i += 1) {
      const error = await caller.embeddings.create({ model: 'ha-model', input: 'mine' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAI.APIError);
    }
    expect(h.openai.requests).toHaveLength(3);
    expect(await healthOf('ha-primary')).toMatchObject({ state: 'healthy', cooldown_until: null });

    const key = (await h.issueKey({ scopes: ['embeddings'] })).key;
    const answered = await h.openaiClient(key).embeddings.create({ model: 'ha-model', input: 'ours' }).withResponse();
    expect(answered.response.headers.get('x-gateway-deployment')).toBe('ha-primary');
  });
});
