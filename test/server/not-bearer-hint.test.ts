import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTempServers, TEST_MASTER_KEY, TEST_STORE_TOKEN, type TempServers } from '../support/temp-servers.js';

// An Authorization header that holds no Bearer token (Basic, a token without its scheme, "Bearer"
// alone) is told apart from no header at all, on every service, without echoing what it holds.
describe('an Authorization header that is no Bearer token', () => {
  let servers: TempServers;
  beforeAll(async () => {
    servers = await startTempServers();
  });
  afterAll(async () => servers.close());

  const messageOf = async (url: string, authorization: string | undefined) => {
    const answer = await fetch(url, { headers: authorization === undefined ? {} : { authorization } });
    expect(answer.status).toBe(401);
    return ((await answer.json()) as { error: { message: string } }).error.message;
  };

  it('says what is wrong with it on the store, the admin API and /v1', async () => {
    const places = [
      [
        `${servers.storeUrl}/v1/namespaces`,
        'missing bearer token: send Authorization: Bearer <STORE_TOKEN> (or the content of the store.token file in the data folder, when the server generated it)',
        TEST_STORE_TOKEN,
      ],
      [
        `${servers.gatewayUrl}/internal/api-keys`,
        'missing master key: send Authorization: Bearer <PROXY_MASTER_KEY> (or the content of the master.key file in the data folder, when the server generated it)',
        TEST_MASTER_KEY,
      ],
      [
        `${servers.gatewayUrl}/v1/models`,
        'missing API key: send x-api-key: <API_KEY> or Authorization: Bearer <API_KEY>',
        'gk-not-a-real-key-0123456789',
      ],
    ] as const;
    for (const [url, missing, secret] of places) {
      expect(await messageOf(url, undefined)).toBe(missing);
      expect(await messageOf(url, `Basic ${Buffer.from(`me:${secret}`).toString('base64')}`)).toBe(
        `${missing} (Authorization holds a Basic credential, not a Bearer token)`,
      );
      // A secret sent without its scheme is never repeated back.
      const bare = await messageOf(url, secret);
      expect(bare).toBe(`${missing} (Authorization has no scheme: put Bearer before the token)`);
      expect(bare).not.toContain(secret);
      expect(await messageOf(url, 'Bearer')).toBe(`${missing} (Authorization has no token after Bearer)`);
      expect(await messageOf(url, `Bearer ${secret} extra`)).toBe(
        `${missing} (Authorization has more than one word after Bearer; a token holds no spaces)`,
      );
      // An unknown first word may be part of a secret (a pass phrase, an AWS key id): never repeated.
      const unknown = await messageOf(url, `AKIAIOSFODNN7EXAMPLE ${secret}`);
      expect(unknown).toBe(`${missing} (Authorization uses another scheme than Bearer)`);
      expect(unknown).not.toContain('AKIA');
    }
  });

  it('names the generated master.key file beside the variable when the key is wrong', async () => {
    expect(await messageOf(`${servers.gatewayUrl}/internal/api-keys`, 'Bearer gk-not-the-master-key-0123456789')).toBe(
      'invalid master key; /internal/* needs PROXY_MASTER_KEY (or the content of the master.key file in the data ' +
        'folder, when the server generated it), not an API key',
    );
  });
});
