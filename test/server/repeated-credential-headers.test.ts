import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, type RawAnswer } from '../foundation/raw-http.js';
import { startTempServers, TEST_MASTER_KEY, TEST_STORE_TOKEN, type TempServers } from '../support/temp-servers.js';

function errorMessage(answer: RawAnswer): string {
  return (JSON.parse(answer.body) as { error: { message: string } }).error.message;
}

/** A GET with the given header lines, over a raw socket (fetch and Node's client merge repeated headers). */
const get = (url: string, path: string, lines: readonly string[]): Promise<RawAnswer> =>
  rawRequest(url, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${lines.join('\r\n')}\r\nConnection: close\r\n\r\n`);

/**
 * Node keeps the first Authorization of a request and drops the rest: with a valid credential first
 * the request passed, while a proxy in front that reads the last one saw another principal. A
 * credential header sent twice is now refused with 400 naming it, as a repeated Host is.
 */
describe('credential headers sent more than once', () => {
  let servers: TempServers;
  let apiKey: string;

  beforeAll(async () => {
    servers = await startTempServers();
    const issued = await fetch(`${servers.gatewayUrl}/internal/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'repeated-headers' }),
    });
    apiKey = ((await issued.json()) as { key: string }).key;
  });
  afterAll(async () => servers?.stop());

  it('refuses two Authorization headers in either order on the admin API, /v1 and the store', async () => {
    const cases: Array<readonly [url: string, path: string, good: string]> = [
      [servers.gatewayUrl, '/internal/api-keys', TEST_MASTER_KEY],
      [servers.gatewayUrl, '/v1/models', apiKey],
      [servers.storeUrl, '/v1/namespaces', TEST_STORE_TOKEN],
    ];
    for (const [url, path, good] of cases) {
      for (const order of [
        [good, 'someone-else-entirely'],
        ['someone-else-entirely', good],
        [good, good],
      ]) {
        const answer = await get(
          url,
          path,
          order.map((token) => `Authorization: Bearer ${token}`),
        );
        expect(answer.status, `${path} ${order.join(' then ')}`).toBe(400);
        expect(errorMessage(answer)).toBe('the Authorization header is sent more than once; send it once');
        expect(answer.body).not.toContain(good);
      }
      // Once is as before.
      expect((await get(url, path, [`authorization: Bearer ${good}`])).status, path).toBe(200);
    }
  });

  it('refuses two x-api-key headers, and names the header whatever its case', async () => {
    const answer = await get(servers.gatewayUrl, '/v1/models', [`X-Api-Key: ${apiKey}`, `x-api-key: ${apiKey}`]);
    expect(answer.status).toBe(400);
    expect(errorMessage(answer)).toBe('the x-api-key header is sent more than once; send it once');
    const mixed = await get(servers.gatewayUrl, '/v1/models', [
      `AUTHORIZATION: Bearer ${apiKey}`,
      `authorization: Bearer ${apiKey}`,
    ]);
    expect(mixed.status).toBe(400);
    expect(errorMessage(mixed)).toContain('Authorization header is sent more than once');
    // One of each is not a repetition.
    const both = await get(servers.gatewayUrl, '/v1/models', [
      `x-api-key: ${apiKey}`,
      `authorization: Bearer ${apiKey}`,
    ]);
    expect(both.status).toBe(200);
  });
});
