import { generateKeyPairSync } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { jwtPayload } from '../../support/oidc-idp.js';
import { CookieJar } from '../../support/browser-flow.js';
import {
  followAllowing,
  handoffPair,
  startSsoHarness,
  type SignInWalk,
  type SsoHarness,
} from '../support/sso-harness.js';

/** The error the gateway sent the browser back with. */
function returnedError(walk: SignInWalk): { error: string | null; description: string | null } {
  expect(walk.returned, `expected a redirect back, got ${walk.lastStatus} ${walk.lastBody}`).toBeDefined();
  expect(walk.returned!.searchParams.get('handoff')).toBeNull();
  return {
    error: walk.returned!.searchParams.get('error'),
    description: walk.failure ?? walk.returned!.searchParams.get('error_description'),
  };
}

function rawGet(url: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function errorOf(response: Response): Promise<{ type: string; message: string; code: number }> {
  return ((await response.json()) as { error: { type: string; message: string; code: number } }).error;
}

async function keyCount(h: SsoHarness): Promise<number> {
  return (await h.admin('GET', '/internal/api-keys?include_revoked=true')).body.data.length;
}

describe('single sign-on refuses what it must', () => {
  let h: SsoHarness;
  beforeAll(async () => {
    h = await startSsoHarness();
  });
  afterAll(async () => h?.close());
  afterEach(() => {
    h.idp.rewriteIdToken = undefined;
    h.idp.codeTtlSeconds = 60;
    h.idp.failToken = undefined;
  });

  it('refuses a callback whose state was not issued, in the shared error shape, and keeps the real one usable', async () => {
    const walk = await h.walk('alice', { pauseAtCallback: true });
    const forged = new URL(walk.callbackUrl!);
    forged.searchParams.set('state', 'not-the-state-we-sent');
    const response = await fetch(forged, {
      redirect: 'manual',
      headers: { cookie: walk.jar.header(forged.toString())! },
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('x-request-id')).toBeTruthy();
    expect(await response.json()).toEqual({
      error: { type: 'invalid_request_error', code: 400, message: expect.stringContaining('state does not match') },
    });
    // The genuine callback still completes.
    const done = await h.resume(walk);
    expect(done.returned!.searchParams.get('handoff')).toBeTruthy();
  });

  it('passes on the provider refusing the sign-in (error=access_denied)', async () => {
    const walk = await h.walk('alice', { pauseAtCallback: true });
    const refused = new URL(walk.callbackUrl!);
    refused.search = new URLSearchParams({
      state: refused.searchParams.get('state')!,
      error: 'access_denied',
      error_description: 'the user declined',
      iss: h.idp.issuer,
    }).toString();
    const { error, description } = returnedError(await h.resume(walk, refused.toString()));
    expect(error).toBe('authentication_error');
    expect(description).toBe('the sign-in was rejected: access_denied: the user or the provider refused the sign-in');
  });

  it('reports a provider whose token endpoint is down as upstream_error, issuing nothing', async () => {
    const before = await keyCount(h);
    h.idp.failToken = { status: 503, error: 'temporarily_unavailable' };
    const { error, description } = returnedError(await h.walk('alice'));
    expect(error).toBe('upstream_error');
    expect(description).toContain('the provider answered 503');
    expect(await keyCount(h)).toBe(before);
  });

  it('refuses a missing state', async () => {
    const response = await fetch(`${h.url}/sso/callback?code=abc`, { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toContain('state is missing');
  });

  it('refuses a replayed callback (the state is single use) and a replayed hand-off', async () => {
    const walk = await h.walk('alice', { pauseAtCallback: true });
    const first = await h.resume(walk);
    const handoff = first.returned!.searchParams.get('handoff')!;
    const replay = await fetch(walk.callbackUrl!, {
      redirect: 'manual',
      headers: { cookie: walk.jar.header(walk.callbackUrl!)! },
    });
    expect(replay.status).toBe(400);
    expect((await errorOf(replay)).message).toContain('already used');
    expect((await h.redeem(handoff, walk.verifier)).status).toBe(201);
    const again = await h.redeem(handoff, walk.verifier);
    expect(again.status).toBe(400);
    expect(again.body.error.message).toContain('handoff is unknown, already redeemed or expired');
  });

  it('refuses a hand-off redeemed without the verifier of the sign-in (and burns it)', async () => {
    const walk = await h.walk('alice');
    const handoff = walk.returned!.searchParams.get('handoff')!;
    const before = await keyCount(h);
    const wrong = await h.redeem(handoff, handoffPair().verifier);
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toContain('verifier does not match');
    expect((await h.redeem(handoff, walk.verifier)).status).toBe(400);
    expect(await keyCount(h)).toBe(before);
  });

  it('refuses a callback from another browser than the one that started the sign-in', async () => {
    const walk = await h.walk('alice', { pauseAtCallback: true });
    const response = await fetch(walk.callbackUrl!, { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toContain('another browser');
  });

  it('refuses an expired authorization code (the provider answers invalid_grant)', async () => {
    h.idp.codeTtlSeconds = 1;
    const walk = await h.walk('alice', { pauseAtCallback: true });
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const before = await keyCount(h);
    const { error, description } = returnedError(await h.resume(walk));
    expect(error).toBe('authentication_error');
    expect(description).toContain('invalid_grant');
    expect(await keyCount(h)).toBe(before);
  });

  it('refuses an ID token with a bad signature (signed by a key the provider does not publish)', async () => {
    const { privateKey: stranger } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    h.idp.rewriteIdToken = (token) => h.idp.sign(jwtPayload(token), stranger);
    const { error, description } = returnedError(await h.walk('alice'));
    expect(error).toBe('authentication_error');
    expect(description).toMatch(/signature/i);
  });

  it('refuses an ID token for another audience, validly signed', async () => {
    h.idp.rewriteIdToken = (token) => h.idp.sign({ ...jwtPayload(token), aud: 'some-other-client' });
    const { error, description } = returnedError(await h.walk('alice'));
    expect(error).toBe('authentication_error');
    expect(description).toMatch(/aud/);
  });

  it('refuses an ID token whose nonce is not the one sent', async () => {
    h.idp.rewriteIdToken = (token) => h.idp.sign({ ...jwtPayload(token), nonce: 'replayed-nonce' });
    const { error, description } = returnedError(await h.walk('alice'));
    expect(error).toBe('authentication_error');
    expect(description).toMatch(/nonce/);
  });

  it('refuses an ID token from another issuer, and an expired one', async () => {
    h.idp.rewriteIdToken = (token) => h.idp.sign({ ...jwtPayload(token), iss: 'http://127.0.0.1:1/evil' });
    expect(returnedError(await h.walk('alice')).description).toMatch(/iss/);
    h.idp.rewriteIdToken = (token) => {
      const payload = jwtPayload(token);
      return h.idp.sign({ ...payload, iat: 1_000_000, exp: 1_000_600 });
    };
    expect(returnedError(await h.walk('alice')).description).toMatch(/exp|timestamp/);
  });

  it('refuses a user who matches no mapping (no default grant): 403 permission_error, no key', async () => {
    const before = await keyCount(h);
    const { error, description } = returnedError(await h.walk('carol'));
    expect(error).toBe('permission_error');
    // The reason is for anyone holding the link: it names no address.
    expect(description).toContain('this account matches no claim mapping of Test IdP');
    expect(description).not.toContain('carol@example.com');
    expect(await keyCount(h)).toBe(before);
  });

  it("refuses an unverified e-mail address, which could name someone else's key", async () => {
    const before = await keyCount(h);
    const { error, description } = returnedError(await h.walk('mallory'));
    expect(error).toBe('authentication_error');
    expect(description).toContain("has not verified the account's e-mail address");
    expect(description).not.toContain('alice@example.com');
    expect(await keyCount(h)).toBe(before);
  });

  it('refuses an address the provider marks unverified with the string "false", as some providers write it', async () => {
    const before = await keyCount(h);
    const { error, description } = returnedError(await h.walk('trudy'));
    expect(error).toBe('authentication_error');
    expect(description).toContain("has not verified the account's e-mail address");
    expect(await keyCount(h)).toBe(before);
  });

  it('refuses an address marked unverified in another spelling ("False")', async () => {
    const { error, description } = returnedError(await h.walk('victor'));
    expect(error).toBe('authentication_error');
    expect(description).toContain("has not verified the account's e-mail address");
  });

  it('names the user by the address as one account, and refuses one no user id can hold', async () => {
    const signedIn = await h.signIn('unal');
    expect(signedIn.user).toBe('carol.ünal@example.com');
    // A record the admin API accepts: it can be named in limits and RAG access lists.
    expect((await h.admin('GET', `/internal/users/${encodeURIComponent('carol.ünal@example.com')}`)).status).toBe(200);
    const { error, description } = returnedError(await h.walk('spacey'));
    expect(error).toBe('authentication_error');
    expect(description).toContain(`claim, the account's value, cannot name a user here`);
  });

  it('validates the sign-in start, naming the field', async () => {
    const { challenge } = handoffPair();
    const start = (query: Record<string, string>) =>
      fetch(`${h.url}/sso/login?${new URLSearchParams(query)}`, { redirect: 'manual' });
    const unknown = await start({ provider: 'nope', return_to: '/ui/sso/done', challenge });
    expect(unknown.status).toBe(400);
    expect((await errorOf(unknown)).message).toContain("provider 'nope' is not configured; configured: testidp");
    // An unknown provider is named first, even with the rest of the query missing: it is the likelier mistake.
    const bare = await start({ provider: 'nope' });
    expect(bare.status).toBe(400);
    expect((await errorOf(bare)).message).toBe("provider 'nope' is not configured; configured: testidp");
    for (const returnTo of [
      'https://evil.example/x',
      '//evil.example/x',
      'http://10.0.0.1:8080/cb',
      'http://127.0.0.1:0/cb',
      '/internal/api-keys',
      // Under /ui/ as written, elsewhere once the browser resolves the dots.
      '/ui/../v1/models',
      '/ui/%2e%2e/internal/api-keys',
    ]) {
      const bad = await start({ provider: 'testidp', return_to: returnTo, challenge });
      expect(bad.status, returnTo).toBe(400);
      // Every refusal names both kinds of target, whichever kind was sent.
      expect((await errorOf(bad)).message).toContain('return_to must be a path under /ui/ or ');
    }
    const noChallenge = await start({ provider: 'testidp', return_to: '/ui/sso/done' });
    expect(noChallenge.status).toBe(400);
    expect((await errorOf(noChallenge)).message).toContain('challenge');
    // The Host check (DNS rebinding) covers /sso/* as every route.
    const wrongHost = await rawGet(`${h.url}/sso/login?provider=testidp`, 'evil.example');
    expect(wrongHost.status).toBe(403);
    expect(JSON.parse(wrongHost.body).error.type).toBe('permission_error');
  });

  it('accepts a loopback return_to for tools once the user allows it, and keeps its own query parameters', async () => {
    const { challenge } = handoffPair();
    h.idp.autoLogin = 'bob';
    const query = new URLSearchParams({
      provider: 'testidp',
      return_to: 'http://127.0.0.1:45678/callback?tool=1',
      challenge,
    });
    const walk = await followAllowing(`${h.url}/sso/login?${query}`, new CookieJar(), {
      stopAt: (next) => next.startsWith('http://127.0.0.1:45678/'),
    });
    const returned = new URL(walk.stoppedAt!);
    expect(returned.searchParams.get('tool')).toBe('1');
    expect(returned.searchParams.get('handoff')).toBeTruthy();
  });
});
