import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ssoRefreshResultSchema, ssoSessionRecordSchema } from '../../src/shared/sso-api.js';
import { jwtPayload } from '../support/oidc-idp.js';
import { returnedError, startSsoHarness, type SsoHarness } from './support/sso-harness.js';

const chat = (h: SsoHarness, key: string) =>
  h.openaiClient(key).chat.completions.create({ model: 'demo/echo', messages: [{ role: 'user', content: 'ping' }] });
const round = async (h: SsoHarness) =>
  ssoRefreshResultSchema.parse((await h.admin('POST', '/internal/sso/refresh')).body);
const session = async (h: SsoHarness, id: string) =>
  ssoSessionRecordSchema.parse((await h.admin('GET', `/internal/sso/sessions/${id}`)).body);
/** Lets the sign-in's verification grow older than a bound of one second (no timing is asserted). */
const pastOneSecond = () => new Promise((resolve) => setTimeout(resolve, 1_100));

describe('a session whose refreshes keep failing is suspended past max_unverified_seconds', () => {
  let h: SsoHarness;
  beforeAll(async () => {
    h = await startSsoHarness({ timeout_seconds: 2, max_unverified_seconds: 1 });
  });
  afterAll(async () => h?.close());
  afterEach(() => {
    h.idp.failToken = undefined;
  });

  it('suspends the key (401 naming the provider and since when) until a refresh succeeds, then it works again', async () => {
    const key = await h.signIn('bob');
    const signedIn = await session(h, key.session_id);
    expect(signedIn).toMatchObject({ status: 'active', verified_at: signedIn.created_at });
    await pastOneSecond();
    h.idp.failToken = { status: 503, error: 'temporarily_unavailable' };
    expect(await round(h)).toMatchObject({ ended: [], unavailable: 1 });
    expect(await session(h, key.session_id)).toMatchObject({ status: 'suspended', verified_at: signedIn.created_at });
    const refused = await chat(h, key.key).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.AuthenticationError);
    const message = (refused as InstanceType<typeof OpenAI.AuthenticationError>).message;
    expect(message).toContain('Test IdP');
    expect(message).toContain(`could not be verified with Test IdP since ${signedIn.created_at}`);

    h.idp.failToken = undefined;
    expect(await round(h)).toMatchObject({ ended: [], unavailable: 0 });
    const verified = await session(h, key.session_id);
    expect(verified.status).toBe('active');
    expect(verified.verified_at).toBe(verified.refreshed_at);
    await expect(chat(h, key.key)).resolves.toBeDefined();
  });

  it('keeps a suspended key from scraping /metrics too, which checks keys before any route stage', async () => {
    const scraping = await startSsoHarness(
      {
        max_unverified_seconds: 1,
        timeout_seconds: 2,
        mappings: [{ value: 'staff', team: 'staff', scopes: ['chat', 'metrics'] }],
      },
      undefined,
      {},
      { gateway: { metrics_public: false } },
    );
    try {
      const key = await scraping.signIn('bob');
      const scrape = () => fetch(`${scraping.url}/metrics`, { headers: { authorization: `Bearer ${key.key}` } });
      expect((await scrape()).status).toBe(200);
      await pastOneSecond();
      scraping.idp.failToken = { status: 503, error: 'temporarily_unavailable' };
      await round(scraping);
      const refused = await scrape();
      expect(refused.status).toBe(401);
      expect(((await refused.json()) as { error: { message: string } }).error.message).toContain(
        'could not be verified with Test IdP',
      );
    } finally {
      await scraping.close();
    }
  });

  it('ends a suspended session as before once the provider answers that the member left the group', async () => {
    h.idp.accounts.set('erin', { email: 'erin@example.com', groups: ['staff'] });
    const key = await h.signIn('erin');
    await pastOneSecond();
    h.idp.failToken = { status: 400, error: 'invalid_client' };
    await round(h);
    expect((await session(h, key.session_id)).status).toBe('suspended');
    h.idp.failToken = undefined;
    h.idp.accounts.get('erin')!.groups = ['contractors'];
    const result = await round(h);
    expect(result.ended).toContainEqual({
      session_id: key.session_id,
      key_id: key.id,
      reason: 'removed from a mapped group',
    });
    expect(await session(h, key.session_id)).toMatchObject({ status: 'ended' });
    const refused = await chat(h, key.key).catch((error: unknown) => error);
    expect((refused as Error).message).toContain('revoked');
  });

  it('shows a session whose refresh failed within the bound as unverified, its key still working', async () => {
    const wide = await startSsoHarness({ timeout_seconds: 2 });
    try {
      const key = await wide.signIn('alice');
      wide.idp.failToken = { status: 503, error: 'temporarily_unavailable' };
      await round(wide);
      expect(await session(wide, key.session_id)).toMatchObject({ status: 'unverified', refreshed_at: null });
      await expect(chat(wide, key.key)).resolves.toBeDefined();
      wide.idp.failToken = undefined;
      await round(wide);
      expect((await session(wide, key.session_id)).status).toBe('active');
    } finally {
      await wide.close();
    }
  });

  it('never suspends with max_unverified_seconds: 0', async () => {
    const unbounded = await startSsoHarness({ timeout_seconds: 2, max_unverified_seconds: 0 });
    try {
      const key = await unbounded.signIn('bob');
      await pastOneSecond();
      unbounded.idp.failToken = { status: 503, error: 'temporarily_unavailable' };
      await round(unbounded);
      expect((await session(unbounded, key.session_id)).status).toBe('unverified');
      await expect(chat(unbounded, key.key)).resolves.toBeDefined();
    } finally {
      await unbounded.close();
    }
  });
});

describe('an ID token issued in the future', () => {
  let h: SsoHarness;
  beforeAll(async () => {
    h = await startSsoHarness({ timeout_seconds: 2 });
  });
  afterAll(async () => h?.close());
  afterEach(() => {
    h.idp.rewriteIdToken = undefined;
  });
  const issuedIn = (seconds: number) => (token: string) =>
    h.idp.sign({ ...jwtPayload(token), iat: Math.floor(Date.now() / 1000) + seconds });

  it('refuses the sign-in, naming iat, when it is beyond the clock tolerance', async () => {
    h.idp.rewriteIdToken = issuedIn(3600);
    const walk = await h.walk('bob');
    const { error, description } = returnedError(walk);
    expect(error).toBe('authentication_error');
    expect(description).toContain("the ID token's iat");
    expect(description).toContain('in the future');
  });

  it('accepts one within the clock tolerance', async () => {
    h.idp.rewriteIdToken = issuedIn(10);
    await expect(h.signIn('bob')).resolves.toMatchObject({ refreshable: true });
  });

  it('leaves the session open, unverified, when a refresh answers with one', async () => {
    const key = await h.signIn('alice');
    h.idp.rewriteIdToken = issuedIn(3600);
    const refreshed = await h.admin('POST', `/internal/sso/sessions/${key.session_id}/refresh`);
    expect(refreshed.status).toBe(502);
    expect(refreshed.body.error.message).toContain("the ID token's iat");
    expect((await session(h, key.session_id)).status).toBe('unverified');
    await expect(chat(h, key.key)).resolves.toBeDefined();
  });
});

describe('a provider that gives no refresh token', () => {
  it('says so in the issued key, whose session is not refreshable', async () => {
    const h = await startSsoHarness({ scopes: ['openid', 'email', 'profile', 'groups'] });
    try {
      const key = await h.signIn('bob');
      expect(key).toMatchObject({ refreshable: false, expires_at: null });
      expect(await session(h, key.session_id)).toMatchObject({ refreshable: false, status: 'active' });
    } finally {
      await h.close();
    }
  });
});
