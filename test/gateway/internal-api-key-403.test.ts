import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * An API key that works on /v1 is a real credential without the right to the admin API: 403
 * `permission_error` says so, where a wrong or unusable secret stays 401.
 */
describe('/internal/* with an API key', () => {
  let h: GatewayHarness;
  const get = (path: string, key: string) =>
    fetch(`${h.url}${path}`, { headers: { authorization: `Bearer ${key}` } }).then(async (response) => ({
      status: response.status,
      body: (await response.json()) as any,
    }));

  beforeAll(async () => {
    h = await startGatewayHarness();
  });
  afterAll(() => h.close());

  it('answers 403 permission_error to a valid API key', async () => {
    const key = await h.issueKey({ scopes: ['chat', 'rag:*'] });
    for (const path of ['/internal/rag/collections', '/internal/api-keys', '/internal/no-such-route']) {
      const answer = await get(path, key.key);
      expect(answer.status, path).toBe(403);
      expect(answer.body.error, path).toEqual({
        type: 'permission_error',
        code: 403,
        message: expect.stringMatching(/^this is an API key; \/internal\/\* needs the master key, PROXY_MASTER_KEY/),
      });
    }
  });

  it('keeps 401 for an unknown or revoked key and for any other secret', async () => {
    const revoked = await h.issueKey({ scopes: ['chat'] });
    await h.admin('DELETE', `/internal/api-keys/${revoked.id}`);
    for (const secret of ['gk-unknown', revoked.key, 'sk-something-else']) {
      const answer = await get('/internal/rag/collections', secret);
      expect(answer.status, secret).toBe(401);
      expect(answer.body.error.type, secret).toBe('authentication_error');
    }
  });
});
