import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_MASTER_KEY } from '../support/temp-servers.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * A key's secret, or the master key, sent where a key's id goes: the answer says which it is and where
 * the id is found, and never repeats the secret (answers end up in logs and terminals).
 */
describe('a secret sent as an API key id', () => {
  let h: GatewayHarness;
  beforeAll(async () => {
    h = await startGatewayHarness();
  });
  afterAll(() => h.close());

  const routes = (secret: string): ReadonlyArray<readonly [string, string, unknown?]> => [
    ['GET', `/internal/api-keys/${secret}`],
    ['PATCH', `/internal/api-keys/${secret}`, { name: 'renamed' }],
    ['DELETE', `/internal/api-keys/${secret}`],
    ['POST', `/internal/api-keys/${secret}/rotate`],
  ];

  it("answers 404 on every key route without echoing a key's secret", async () => {
    const key = await h.issueKey({ scopes: ['chat'] });
    for (const [method, path, body] of routes(key.key)) {
      const answer = await h.admin(method, path, body);
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body.error.message).toBe(
        "that is an API key's secret, not its id: ids start with 'key_'; find the id in GET /internal/api-keys (the secret's first characters are its key_prefix)",
      );
      expect(JSON.stringify(answer.body)).not.toContain(key.key.slice(3));
    }
    // The key was neither changed nor revoked.
    expect((await h.admin('GET', `/internal/api-keys/${key.id}`)).body).toMatchObject({ name: null, status: 'active' });
    const page = await h.admin('GET', `/internal/api-keys?limit=1&after=${key.key}`);
    expect(page.status).toBe(400);
    expect(JSON.stringify(page.body)).not.toContain(key.key.slice(3));
  });

  it('answers 404 on every key route without echoing the master key', async () => {
    for (const [method, path, body] of routes(encodeURIComponent(TEST_MASTER_KEY))) {
      const answer = await h.admin(method, path, body);
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body.error.message).toBe(
        "that is the master key, not an API key's id: ids start with 'key_'; find the id in GET /internal/api-keys",
      );
      expect(JSON.stringify(answer.body)).not.toContain(TEST_MASTER_KEY);
    }
  });

  it('still names an id that is no secret', async () => {
    expect((await h.admin('GET', '/internal/api-keys/key_missing')).body.error.message).toBe(
      "no API key with id 'key_missing'",
    );
  });
});
