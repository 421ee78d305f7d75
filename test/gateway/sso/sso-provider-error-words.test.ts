import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { followRedirects } from '../../support/browser-flow.js';
import { returnedError, startSsoHarness, type SignInWalk, type SsoHarness } from '../support/sso-harness.js';

// A loopback program's address in this suite's port range; nothing listens there, the walk stops before it.
const PROGRAM = 'http://127.0.0.1:19851/callback';
const PROVIDER_WORDS = 'user said no <b>hi</b>';

/**
 * A provider's refusal reaches the gateway's failure text as its code and the gateway's words for it:
 * never the provider's `error_description`, nor a code that is no OAuth error code.
 */
describe('single sign-on: the provider error in the gateway’s own words', () => {
  let h: SsoHarness;
  beforeAll(async () => {
    h = await startSsoHarness();
  });
  afterAll(async () => h?.close());
  afterEach(() => {
    h.idp.failToken = undefined;
  });

  /** The provider's redirect back with an error in place of a code, for a sign-in started towards `returnTo`. */
  async function refusedCallback(
    returnTo: string | undefined,
    error: string,
  ): Promise<{ url: string; walk: SignInWalk }> {
    const walk = await h.walk('alice', { pauseAtCallback: true, ...(returnTo ? { returnTo } : {}) });
    const refused = new URL(walk.callbackUrl!);
    refused.search = new URLSearchParams({
      state: refused.searchParams.get('state')!,
      error,
      error_description: PROVIDER_WORDS,
      iss: h.idp.issuer,
    }).toString();
    return { url: refused.toString(), walk };
  }

  it('GET /sso/failures/<ref> names the code and what it means, without the provider’s description', async () => {
    const { url, walk } = await refusedCallback(undefined, 'access_denied');
    const { error, description } = returnedError(await h.resume(walk, url));
    expect(error).toBe('authentication_error');
    expect(description).toBe('the sign-in was rejected: access_denied: the user or the provider refused the sign-in');
  });

  it('a loopback program’s error_description holds the gateway’s words only', async () => {
    const { url, walk } = await refusedCallback(PROGRAM, 'access_denied');
    const result = await followRedirects(url, walk.jar, { stopAt: (next) => next.startsWith(PROGRAM) });
    const back = new URL(result.stoppedAt!);
    expect(back.searchParams.get('error')).toBe('authentication_error');
    const description = back.searchParams.get('error_description')!;
    expect(description).toContain('access_denied');
    expect(description).not.toContain('user said no');
    expect(description).not.toContain('<b>');
  });

  it('a code that is no OAuth error code is not repeated', async () => {
    const { url, walk } = await refusedCallback(PROGRAM, '<script>alert(1)</script>');
    const result = await followRedirects(url, walk.jar, { stopAt: (next) => next.startsWith(PROGRAM) });
    const description = new URL(result.stoppedAt!).searchParams.get('error_description')!;
    expect(description).toBe('the sign-in was rejected: an error whose code is not an OAuth error code');
  });

  it('the token endpoint’s description is left out too', async () => {
    h.idp.failToken = { status: 400, error: 'invalid_grant' };
    const { error, description } = returnedError(await h.walk('alice'));
    expect(error).toBe('authentication_error');
    expect(description).toContain('invalid_grant: the code or refresh token is invalid');
    expect(description).not.toContain('set by the test');
  });
});
