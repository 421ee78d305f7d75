import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CookieJar } from '../support/browser-flow.js';
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
    expect(cookies[0]).toMatch(
      /^gatehouse_sso_[A-Za-z0-9_-]{22}=[A-Za-z0-9_-]{32}; Path=\/sso; HttpOnly; SameSite=Lax; Max-Age=\d+$/,
    );
  });
});

/**
 * Cookies are not isolated by port: a page on another port of 127.0.0.1 can set one for the gateway
 * (cookie tossing). A sign-in must never be bound to a value the gateway did not choose for it, or
 * whoever set it could finish the sign-in from elsewhere.
 */
describe('the sign-in cookie against cookie tossing', () => {
  let h: SsoHarness;
  beforeAll(async () => {
    h = await startSsoHarness();
  });
  afterAll(async () => h?.close());

  const TOSSED = 'ATTACKERCHOSENATTACKERCHOSEN1234';

  it('binds the sign-in to a value of its own, not to one another page set', async () => {
    const jar = new CookieJar();
    // What `document.cookie = 'gatehouse_sso=…; path=/sso'` on another port leaves in the browser.
    jar.store(h.url, new Response(null, { headers: { 'set-cookie': `gatehouse_sso=${TOSSED}; Path=/sso` } }));
    const walk = await h.walk('alice', { jar, pauseAtCallback: true });
    expect(walk.callbackUrl).toBeDefined();
    const names = (jar.header(h.url) ?? '').split('; ').map((pair) => pair.split('=')[0]!);
    // Whoever tossed the value replays the callback with it under every name the browser holds.
    const replayed = await fetch(walk.callbackUrl!, {
      redirect: 'manual',
      headers: { cookie: names.map((name) => `${name}=${TOSSED}`).join('; ') },
    });
    expect(replayed.status).toBe(400);
    // The gateway set no cookie of that value: the one holding it is the page's own.
    const pairs = (jar.header(h.url) ?? '').split('; ');
    expect(pairs.filter((pair) => pair.endsWith(`=${TOSSED}`))).toEqual([`gatehouse_sso=${TOSSED}`]);
    // The browser that signed in still finishes.
    const done = await h.resume(walk);
    const handoff = done.returned?.searchParams.get('handoff');
    expect(handoff, `${done.lastStatus} ${done.lastBody}`).toBeTruthy();
    expect((await h.redeem(handoff!, walk.verifier)).status).toBe(201);
  });

  it('completes two sign-ins started in two tabs of one browser, in either order', async () => {
    const jar = new CookieJar();
    const first = await h.walk('alice', { jar, pauseAtCallback: true });
    const second = await h.walk('alice', { jar, pauseAtCallback: true });
    const issued: string[] = [];
    for (const walk of [second, first]) {
      const done = await h.resume(walk);
      const handoff = done.returned?.searchParams.get('handoff');
      expect(handoff, `${done.lastStatus} ${done.lastBody}`).toBeTruthy();
      const redeemed = await h.redeem(handoff!, walk.verifier);
      expect(redeemed.status).toBe(201);
      issued.push(redeemed.body.id);
    }
    expect(new Set(issued).size).toBe(2);
    // Each finished sign-in took its cookie with it.
    expect(jar.header(h.url)).toBeUndefined();
  });
});

/**
 * Sign-ins abandoned at the provider leave their cookies until they expire, and browsers cap cookies
 * per host (shared by every port of 127.0.0.1): the gateway keeps the browser's count of them bounded.
 */
describe('sign-in cookies a browser collects', () => {
  let h: SsoHarness;
  beforeAll(async () => {
    h = await startSsoHarness();
  });
  afterAll(async () => h?.close());

  it('keeps at most eight, dropping the oldest, and the newest sign-in still completes', async () => {
    const jar = new CookieJar();
    const started: string[] = [];
    for (let i = 0; i < 12; i += 1) {
      const { challenge } = handoffPair();
      const url = `${h.url}/sso/login?${new URLSearchParams({ provider: 'testidp', return_to: '/ui/sso/done', challenge })}`;
      const response = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header(h.url) ?? '' } });
      expect(response.status).toBe(302);
      jar.store(h.url, response);
      started.push(response.headers.getSetCookie().at(-1)!.split('=', 1)[0]!);
    }
    const held = (jar.header(h.url) ?? '').split('; ').map((pair) => pair.split('=', 1)[0]!);
    expect(held).toEqual(started.slice(-8));
    const walk = await h.walk('alice', { jar });
    expect(walk.returned?.searchParams.get('handoff')).toBeTruthy();
  });
});
