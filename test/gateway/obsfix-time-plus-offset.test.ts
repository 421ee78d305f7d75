import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTempServers, TEST_MASTER_KEY, type TempServers } from '../support/temp-servers.js';

/**
 * A `+` offset written as it is in a URL reaches the server as a space: the refusal says so, and how
 * to write it, on every endpoint that takes a time.
 */
describe("a time's '+' offset decoded to a space", () => {
  let servers: TempServers;
  beforeAll(async () => {
    servers = await startTempServers();
  });
  afterAll(async () => servers?.stop());

  const get = async (path: string): Promise<{ status: number; body: any }> => {
    const response = await fetch(`${servers.gatewayUrl}${path}`, {
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}` },
    });
    return { status: response.status, body: await response.json() };
  };

  for (const path of ['/internal/usage', '/internal/usage/logs', '/internal/audit'])
    it(`${path} explains the '+' and names the parameter`, async () => {
      for (const [name, value] of [
        ['since', '2026-11-30T10:57:00+02:00'],
        ['until', '2026-11-30T10:57+05:30'],
      ] as const) {
        const answer = await get(`${path}?${name}=${value}`);
        expect(answer.status).toBe(400);
        expect(answer.body.error.type).toBe('invalid_request_error');
        expect(answer.body.error.message).toContain(`query parameter ${name}`);
        expect(answer.body.error.message).toContain("a '+' in a URL query string is read as a space");
        expect(answer.body.error.message).toContain('%2B');
      }
      // Written as %2B, the same time is taken.
      expect((await get(`${path}?since=2026-11-30T10:57:00%2B02:00`)).status).toBe(200);
    });

  it('says nothing of a + for a time that has no space', async () => {
    const answer = await get('/internal/usage/logs?since=yesterday');
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).not.toContain("'+'");
  });
});
