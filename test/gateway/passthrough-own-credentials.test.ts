import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestIdp, type TestIdp } from '../support/oidc-idp.js';
import { TEST_MASTER_KEY, TEST_STORE_TOKEN } from '../support/temp-servers.js';
import { OPENAI_UPSTREAM_KEY, startGatewayHarness, type GatewayHarness } from './support/harness.js';
import { TEST_MAPPINGS } from './support/sso-harness.js';

const TEAM_STORE_TOKEN = 'st-team-read-token-0123456789abcdef';
const SSO_SECRET_ENV = 'PASSTHROUGH_TEST_OIDC_SECRET';

/**
 * With `allow_passthrough_keys`, what a caller presents on /v1/embeddings that is no issued key goes
 * to the provider as the caller's own key. Gatehouse's own credentials never do: a client configured
 * with the wrong secret must be refused, not have that secret handed to whoever runs the upstream.
 */
describe("passthrough keys never forward Gatehouse's own credentials", () => {
  let h: GatewayHarness;
  let idp: TestIdp;
  beforeAll(async () => {
    idp = await startTestIdp();
    h = await startGatewayHarness(
      {
        allow_passthrough_keys: true,
        store: { auth: { tokens: [{ token: TEAM_STORE_TOKEN, verbs: ['read'], namespaces: ['team/*'] }] } },
        sso: {
          providers: {
            corp: {
              issuer: idp.issuer,
              client_id: idp.clientId,
              client_secret_env: SSO_SECRET_ENV,
              mappings: TEST_MAPPINGS,
              allow_insecure_http: true,
            },
          },
        },
      },
      { [SSO_SECRET_ENV]: idp.clientSecret },
    );
  });
  afterAll(async () => {
    await h.close();
    await idp.close();
  });

  const embedWith = (apiKey: string) =>
    new OpenAI({ baseURL: `${h.url}/v1`, apiKey, maxRetries: 0 }).embeddings
      .create({ model: 'text-embedding-3-small', input: 'hello' })
      .then(
        () => ({ status: 200, message: '' }),
        (error: InstanceType<typeof OpenAI.APIError>) => ({ status: error.status, message: error.message }),
      );

  it('refuses the master key, every store token and the SSO client secret, without calling the provider', async () => {
    h.openai.reset();
    const cases: Array<[string, RegExp]> = [
      [TEST_MASTER_KEY, /the master key is for \/internal\/\* only/],
      [TEST_STORE_TOKEN, /a store token is not a provider key and is never sent to one/],
      [TEAM_STORE_TOKEN, /a store token is not a provider key/],
      [idp.clientSecret, /the client secret of sso\.providers\.corp is not a provider key/],
    ];
    for (const [secret, message] of cases) {
      const refused = await embedWith(secret);
      expect(refused.status, message.source).toBe(401);
      expect(refused.message).toMatch(message);
      expect(refused.message).not.toContain(secret);
    }
    expect(h.openai.requests).toHaveLength(0);
  });

  it('refuses an issued key sent without its prefix or with the prefix in capitals', async () => {
    h.openai.reset();
    const issued = (await h.issueKey({ scopes: ['embeddings'] })).key;
    const bare = issued.slice('gk-'.length);
    const withoutPrefix = await embedWith(bare);
    expect(withoutPrefix.status).toBe(401);
    expect(withoutPrefix.message).toContain('an API key issued here without its gk- prefix');
    expect(withoutPrefix.message).not.toContain(bare);
    // Read as an issued key: unknown as written, so refused as one, never forwarded.
    expect((await embedWith(`GK-${bare}`)).status).toBe(401);
    // A key no longer in use is still Gatehouse's (an expired one may be extended again).
    const revoked = await h.issueKey({ scopes: ['embeddings'] });
    expect((await h.admin('DELETE', `/internal/api-keys/${revoked.id}`)).status).toBe(200);
    const revokedBare = await embedWith(revoked.key.slice('gk-'.length));
    expect(revokedBare.status).toBe(401);
    expect(revokedBare.message).toContain('without its gk- prefix');
    expect(h.openai.requests).toHaveLength(0);
  });

  it("still forwards a caller's own provider key", async () => {
    h.openai.reset();
    expect((await embedWith(OPENAI_UPSTREAM_KEY)).status).toBe(200);
    expect(h.openai.lastRequest()!.headers.authorization).toBe(`Bearer ${OPENAI_UPSTREAM_KEY}`);
  });
});
