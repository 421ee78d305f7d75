import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_MASTER_KEY } from '../support/temp-servers.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/** `gateway_admin_auth_failures_total` as /metrics reports it now. */
async function authFailures(h: GatewayHarness): Promise<number> {
  const metrics = await (
    await fetch(`${h.url}/metrics`, { headers: { authorization: `Bearer ${TEST_MASTER_KEY}` } })
  ).text();
  return Number(/^gateway_admin_auth_failures_total (\d+)$/m.exec(metrics)?.[1] ?? 0);
}

/**
 * A path under /internal/ that matches no route is refused like a known one to a caller without the
 * master key (a 404, let alone one suggesting real routes, would map the admin API for anyone), and
 * counted; only with the key does it get the 404 with its suggestions.
 */
describe('unknown /internal routes', () => {
  let h: GatewayHarness;
  beforeAll(async () => {
    h = await startGatewayHarness();
  });
  afterAll(() => h.close());

  const call = (method: string, path: string, key?: string) =>
    fetch(`${h.url}${path}`, { method, headers: key === undefined ? {} : { authorization: `Bearer ${key}` } });

  it('answers 401 without the master key or with a wrong one, as a known route does, and counts it', async () => {
    const before = await authFailures(h);
    const known = await call('GET', '/internal/teams', 'gk-wrong-master-key-0123456789');
    expect(known.status).toBe(401);
    const knownBody = await known.json();
    for (const [method, path] of [
      ['GET', '/internal/team'],
      ['GET', '/internal/nothing/here'],
      ['POST', '/internal/teamz'],
      ['DELETE', '/internal/'],
      ['GET', '/internal'],
    ] as const) {
      const wrong = await call(method, path, 'gk-wrong-master-key-0123456789');
      expect(wrong.status, `${method} ${path}`).toBe(401);
      expect(await wrong.json()).toEqual(knownBody);
      const none = await call(method, path);
      expect(none.status, `${method} ${path}`).toBe(401);
      expect(JSON.stringify(await none.json())).not.toContain('did you mean');
    }
    expect(await authFailures(h)).toBe(before + 1 + 5 * 2);
  });

  it('answers the 404 with its suggestion only with the master key', async () => {
    const answer = await h.admin('GET', '/internal/team');
    expect(answer.status).toBe(404);
    expect(answer.body.error.message).toBe('no route GET /internal/team; did you mean /internal/teams?');
  });
});
