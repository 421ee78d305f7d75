import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTempServers, TEST_MASTER_KEY, TEST_STORE_TOKEN, type TempServers } from '../support/temp-servers.js';

// Windows tools (PowerShell's Set-Content -Encoding utf8, Notepad) write UTF-8 with a byte order mark,
// and `curl --data @file` sends it as is. RFC 8259 lets a parser ignore it: both services do.

const BOM = '\uFEFF';

describe('a JSON body starting with a byte order mark', () => {
  let servers: TempServers;
  beforeAll(async () => {
    servers = await startTempServers();
  });
  afterAll(async () => servers?.stop());
  const post = (url: string, token: string, text: string) =>
    fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: Buffer.from(text, 'utf8'),
    });

  it('is read by the store', async () => {
    const body = JSON.stringify({ scope: { namespace: 'sf2/bom' }, documents: [{ key: 'a', content: 'x' }] });
    const answer = await post(`${servers.storeUrl}/v1/apply`, TEST_STORE_TOKEN, BOM + body);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ noop: false, changes: [{ key: 'a', type: 'create' }] });
  });

  it('is read by the gateway', async () => {
    const body = JSON.stringify({ name: 'bom', scopes: ['chat'] });
    const answer = await post(`${servers.gatewayUrl}/internal/api-keys`, TEST_MASTER_KEY, BOM + body);
    expect(answer.status).toBe(201);
    expect(await answer.json()).toMatchObject({ name: 'bom' });
  });

  it('counts only once: a second mark is still refused', async () => {
    const body = JSON.stringify({ scope: { namespace: 'sf2/bom' }, documents: [{ key: 'b', content: 'x' }] });
    const answer = await post(`${servers.storeUrl}/v1/apply`, TEST_STORE_TOKEN, BOM + BOM + body);
    expect(answer.status).toBe(400);
  });
});
