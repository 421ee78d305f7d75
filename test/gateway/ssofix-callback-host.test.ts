import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CookieJar, followRedirects } from '../support/browser-flow.js';
import { handoffPair, startSsoHarness, type SsoHarness } from './support/sso-harness.js';

/** A port free now, for a gateway whose redirect_uri must name it before it starts. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('single sign-on reached under another name than the redirect_uri', () => {
  let h: SsoHarness;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    h = await startSsoHarness({ redirect_uri: `http://127.0.0.1:${port}/sso/callback` }, undefined, {
      GATEWAY_PORT: String(port),
    });
  });
  afterAll(async () => h?.close());

  it('starts the sign-in again on the redirect_uri host and comes back to the page on the name it began under', async () => {
    const { verifier, challenge } = handoffPair();
    h.idp.autoLogin = 'alice';
    const query = new URLSearchParams({ provider: 'testidp', return_to: '/ui/sso/done', challenge });
    const jar = new CookieJar();
    const start = `http://localhost:${port}/sso/login?${query}`;
    const first = await fetch(start, { redirect: 'manual' });
    expect(first.status).toBe(302);
    const moved = new URL(first.headers.get('location')!);
    expect(moved.origin).toBe(`http://127.0.0.1:${port}`);
    expect(moved.pathname).toBe('/sso/login');
    // No cookie under a name the provider does not send the browser back to.
    expect(first.headers.get('set-cookie')).toBeNull();

    const walk = await followRedirects(start, jar, { stopAt: (url) => new URL(url).pathname === '/ui/sso/done' });
    if (walk.stoppedAt === undefined)
      throw new Error(`the sign-in ended at ${walk.last.url}: ${await walk.last.response.text()}`);
    const back = new URL(walk.stoppedAt);
    expect(back.origin).toBe(`http://localhost:${port}`);
    const handoff = back.searchParams.get('handoff');
    expect(handoff).toBeTruthy();
    expect((await h.redeem(handoff!, verifier)).status).toBe(201);
  });

  it('never sends the hand-off to another IP address under the gateway port', async () => {
    const { challenge } = handoffPair();
    const query = new URLSearchParams({
      provider: 'testidp',
      return_to: `http://10.1.2.3:${port}/ui/sso/done`,
      challenge,
      moved: '1',
    });
    const response = await fetch(`${h.url}/sso/login?${query}`, { redirect: 'manual' });
    expect(response.status).toBe(400);
  });

  it('answers a browser whose callback cannot be matched with a page of the gateway, and a program with JSON', async () => {
    const url = `${h.url}/sso/callback?state=${'x'.repeat(43)}&code=<b>y</b>`;
    const page = await fetch(url, { headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(page.status).toBe(400);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'none'/);
    const html = await page.text();
    expect(html).toContain('<h1>Sign-in failed</h1>');
    expect(html).toContain('state does not match a sign-in in progress');
    expect(html).not.toContain('<b>');

    const json = await fetch(url);
    expect(json.status).toBe(400);
    expect(((await json.json()) as { error: { type: string } }).error.type).toBe('invalid_request_error');
  });
});
