import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * The two keys a new user sends by mistake are the identity provider's token (other gateways take
 * those) and the provider key their SDK was set up with; "invalid API key" alone left them guessing.
 */
describe('the 401 for a key the gateway did not issue', () => {
  const JWT = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJl';
  const PROVIDER_KEY = 'sk-proj-Abcdefghijklmnopqrstuvwxyz0123456789';

  /** The message a chat call with `apiKey` is refused with, and the key must not be in it. */
  async function refusal(h: GatewayHarness, apiKey: string, call: 'chat' | 'embeddings' = 'chat'): Promise<string> {
    const client = new OpenAI({ baseURL: `${h.url}/v1`, apiKey, maxRetries: 0 });
    const request =
      call === 'chat'
        ? client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] })
        : client.embeddings.create({ model: 'text-embedding-3-small', input: 'hi' });
    const error = (await request.then(
      () => undefined,
      (failure: unknown) => failure,
    )) as InstanceType<typeof OpenAI.APIError>;
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(error.message).not.toContain(apiKey);
    return error.message;
  }

  describe('without passthrough keys', () => {
    let h: GatewayHarness;
    beforeAll(async () => (h = await startGatewayHarness()));
    afterAll(async () => h.close());

    it('says a JWT is not taken, and how to get a key', async () => {
      const message = await refusal(h, JWT);
      expect(message).toMatch(/^401 invalid API key: this is a JSON Web Token/);
      expect(message).toContain('npm run login');
    });

    it("says a provider's key is not the gateway's, and when it would be forwarded", async () => {
      const message = await refusal(h, PROVIDER_KEY);
      expect(message).toMatch(
        /invalid API key: this looks like a provider's own key; send an API key the gateway issued \(gk-…\)/,
      );
      expect(message).toContain('allow_passthrough_keys: true');
      expect(await refusal(h, 'sk-ant-api03-Abcdefghijklmnopqrstuvwxyz')).toContain("provider's own key");
    });

    it('tells a key of no known shape where a key comes from', async () => {
      for (const secret of ['not-a-key-of-any-kind-at-all', 'gk-wrong0123456789abcdef']) {
        const message = await refusal(h, secret);
        expect(message).toBe(
          "401 invalid API key: this gateway issued no key with this secret (a revoked or expired key is told so); get one from POST /internal/api-keys with the master key, or on the UI's Keys screen",
        );
      }
    });
  });

  describe('with passthrough keys on', () => {
    let h: GatewayHarness;
    beforeAll(async () => (h = await startGatewayHarness({ allow_passthrough_keys: true })));
    afterAll(async () => h.close());

    it("says a provider's key is forwarded on embeddings alone", async () => {
      expect(await refusal(h, PROVIDER_KEY)).toContain('forwarded on /v1/embeddings alone');
    });
  });
});
