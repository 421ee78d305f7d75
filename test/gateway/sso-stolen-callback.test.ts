import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bindingCookieName } from '../../src/server/gateway/routes/sso/sso-cookie.js';
import { startSsoHarness, type SsoHarness } from './support/sso-harness.js';

/**
 * A callback URL (code and state) seen by someone else, replayed from a browser that did not start the
 * sign-in: it is refused, and it must not cost the person signing in their sign-in, since the party
 * that has the URL can do nothing else with it.
 */
describe('SSO callback replayed from another browser', () => {
  let h: SsoHarness;
  beforeAll(async () => {
    h = await startSsoHarness();
  });
  afterAll(async () => h?.close());

  const replay = (url: string, cookie?: string): Promise<Response> =>
    fetch(url, { redirect: 'manual', headers: cookie === undefined ? {} : { cookie } });

  it('is refused without a cookie or with another one, and the genuine browser still finishes its sign-in', async () => {
    const walk = await h.walk('alice', { pauseAtCallback: true });
    const noCookie = await replay(walk.callbackUrl!);
    expect(noCookie.status).toBe(400);
    expect(((await noCookie.json()) as { error: { message: string } }).error.message).toContain('another browser');
    const state = new URL(walk.callbackUrl!).searchParams.get('state')!;
    const otherCookie = await replay(walk.callbackUrl!, `${bindingCookieName(state)}=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`);
    expect(otherCookie.status).toBe(400);

    const done = await h.resume(walk);
    const handoff = done.returned?.searchParams.get('handoff');
    expect(handoff, `the genuine callback was refused: ${done.lastStatus} ${done.lastBody}`).toBeTruthy();
    const redeemed = await h.redeem(handoff!, walk.verifier);
    expect(redeemed.status).toBe(201);
    expect(redeemed.body.user).toBe('alice@example.com');
  });
});
