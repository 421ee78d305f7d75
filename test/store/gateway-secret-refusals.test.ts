import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  gatewayAdmin,
  startTempServers,
  storeCaller,
  TEST_MASTER_KEY,
  TEST_STORE_TOKEN,
  type TempServers,
} from '../support/temp-servers.js';

/**
 * A newcomer holds three secrets and sends the store the wrong one: the gateway's master key or an
 * API key it issued. "invalid store token" alone did not say which secret the store takes.
 */
describe("the store's 401 for one of the gateway's secrets", () => {
  let servers: TempServers;
  const admin = gatewayAdmin(() => servers);
  const store = storeCaller(() => servers);
  const TAKES = 'the store takes STORE_TOKEN (or the content of the store.token file in the data folder';

  beforeAll(async () => {
    servers = await startTempServers();
  });
  afterAll(async () => servers.stop());

  it("names the gateway's master key, and what the store takes instead", async () => {
    const answer = await store('/v1/branches', TEST_MASTER_KEY);
    expect(answer.status).toBe(401);
    expect(answer.body.error.type).toBe('authentication_error');
    expect(answer.body.error.message).toMatch(/^invalid store token: this looks like the gateway's master key/);
    expect(answer.body.error.message).toContain(TAKES);
    expect(answer.body.error.message).not.toContain(TEST_MASTER_KEY);
  });

  it('names an API key the gateway issued', async () => {
    const issued = await admin('POST', '/internal/api-keys', { scopes: ['chat'] });
    expect(issued.status).toBe(201);
    const secret: string = issued.body.key;
    const answer = await store('/v1/branches', secret);
    expect(answer.status).toBe(401);
    expect(answer.body.error.type).toBe('authentication_error');
    expect(answer.body.error.message).toMatch(/^invalid store token: this looks like an API key of the gateway/);
    expect(answer.body.error.message).toContain(TAKES);
    expect(answer.body.error.message).not.toContain(secret);
  });

  it('says no more for a token of no known shape, and the store token still works', async () => {
    const answer = await store('/v1/branches', 'st-wrong-token-0123456789abcdef');
    expect(answer.status).toBe(401);
    expect(answer.body.error.message).toBe('invalid store token');
    expect((await store('/v1/branches', TEST_STORE_TOKEN)).status).toBe(200);
  });
});
