import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handoffPair, startSsoHarness, type SsoHarness } from './support/sso-harness.js';

/**
 * The sign-in cookie binds a sign-in to the browser that started it, so it is issued with the redirect
 * to the provider only: a refused start (a return_to not allowed, an unknown provider, a bad
 * challenge) started nothing and sets no cookie, as an SSO proxy sets its CSRF cookie only on redirect.
 */
describe('/sso/login sets its cookie only when it redirects to the provider', () => {
  let h: SsoHarness;
  beforeAll(async () => {
    h = await startSsoHarness();
  });
  afterAll(async () => h?.close());

  const start = (query: Record<string, string>) =>
    fetch(`${h.url}/sso/login?${new URLSearchParams(query)}`, { redirect: 'manual' });

  it('sets none on a refused start', async () => {
    const { challenge } = handoffPair();
    const refused = [
      { provider: 'testidp', return_to: 'https://evil.example/', challenge },
      { provider: 'testidp', return_to: '/internal/api-keys', challenge },
      { provider: 'nope', return_to: '/ui/sso/done', challenge },
      { provider: 'testidp', return_to: '/ui/sso/done', challenge: 'short' },
    ];
    for (const query of refused) {
      const response = await start(query);
      expect(response.status, JSON.stringify(query)).toBe(400);
      expect(response.headers.getSetCookie(), JSON.stringify(query)).toEqual([]);
    }
  });

  it('sets it with the redirect to the provider', async () => {
    const { challenge } = handoffPair();
    const response = await start({ provider: 'testidp', return_to: '/ui/sso/done', challenge });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toContain(h.idp.issuer);
    const cookies = response.headers.getSetCookie();
    expect(cookies).toHaveLength(1);
    expect(cookies[0]).toMatch(/^gatehouse_sso=[A-Za-z0-9_-]{32}; Path=\/sso; HttpOnly; SameSite=Lax; Max-Age=\d+$/);
  });
});
