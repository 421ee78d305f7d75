import { createPublicKey, createSign, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ssoRefreshResultSchema, ssoSessionRecordSchema } from '../../src/shared/sso-api.js';
import { jwtPayload } from '../support/oidc-idp.js';
import { startSsoHarness, type SsoHarness } from './support/sso-harness.js';

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

function signJwt(payload: Record<string, unknown>, key: KeyObject, kid: string): string {
  const head = `${b64({ alg: 'RS256', typ: 'JWT', kid })}.${b64(payload)}`;
  return `${head}.${createSign('RSA-SHA256').update(head).sign(key).toString('base64url')}`;
}

/**
 * What the test provider cannot do by itself, done on the way to it (the gateway runs in this process
 * and reaches the provider with the global fetch): it rotates refresh tokens on every use (an old one
 * answers invalid_grant afterwards), and publishes an extra signing key in its JWKS when asked.
 */
class ProviderSide {
  readonly realFetch = globalThis.fetch;
  /** A signing key the JWKS lists besides the provider's own, once published. */
  extraJwk: Record<string, unknown> | undefined;
  private readonly original = new Map<string, string>();
  private readonly retired = new Set<string>();

  constructor(private readonly issuer: string) {}

  install(): void {
    globalThis.fetch = (input, init) => this.fetch(input, init);
  }

  uninstall(): void {
    globalThis.fetch = this.realFetch;
  }

  private async fetch(input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> {
    const url = input instanceof Request ? input.url : String(input);
    if (url === `${this.issuer}/jwks` && this.extraJwk) {
      const jwks = (await (await this.realFetch(input, init)).json()) as { keys: unknown[] };
      return Response.json({ keys: [...jwks.keys, this.extraJwk] });
    }
    const form = url === `${this.issuer}/token` && init?.body ? new URLSearchParams(String(init.body)) : undefined;
    if (form?.get('grant_type') !== 'refresh_token') return this.realFetch(input, init);
    const presented = form.get('refresh_token')!;
    if (this.retired.has(presented))
      return Response.json({ error: 'invalid_grant', error_description: 'refresh token rotated' }, { status: 400 });
    const underlying = this.original.get(presented) ?? presented;
    form.set('refresh_token', underlying);
    const response = await this.realFetch(input, { ...init, body: form });
    if (response.status !== 200) return response;
    const body = (await response.json()) as Record<string, unknown>;
    this.retired.add(presented);
    const next = `rotated-${randomUUID()}`;
    this.original.set(next, underlying);
    return Response.json({ ...body, refresh_token: next });
  }
}

describe('a refresh round survives the provider rotating its key or skewing its clock', () => {
  let h: SsoHarness;
  let provider: ProviderSide;
  /** A signing key the provider rotates to: signs ID tokens with it, and its public JWK to publish. */
  const rotateKey = () => {
    const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const kid = `rotated-${randomUUID()}`;
    return {
      jwk: { ...createPublicKey(key).export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' },
      sign: (token: string) => signJwt(jwtPayload(token), key, kid),
    };
  };

  beforeAll(async () => {
    h = await startSsoHarness({ timeout_seconds: 2 });
    provider = new ProviderSide(h.idp.issuer);
    provider.install();
  });
  afterAll(async () => {
    provider?.uninstall();
    await h?.close();
  });
  afterEach(() => {
    h.idp.rewriteIdToken = undefined;
    provider.extraJwk = undefined;
  });

  const round = async () => ssoRefreshResultSchema.parse((await h.admin('POST', '/internal/sso/refresh')).body);
  const status = async (id: string) =>
    ssoSessionRecordSchema.parse((await h.admin('GET', `/internal/sso/sessions/${id}`)).body);

  it('keeps every key when the provider signs with a new key its JWKS lists (the cached JWKS is fresh)', async () => {
    const keys = [await h.signIn('alice'), await h.signIn('bob')];
    // The sign-ins just read the JWKS: it is too young for the library to read again on its own.
    const rotated = rotateKey();
    provider.extraJwk = rotated.jwk;
    h.idp.rewriteIdToken = rotated.sign;
    const first = await round();
    expect(first.ended).toEqual([]);
    for (const key of keys) expect((await status(key.session_id)).status).toBe('active');
    expect(first.unavailable).toBe(0);
    const second = await round();
    expect(second).toMatchObject({ ended: [], unavailable: 0 });
  });

  it('keeps every key while the new signing key is not yet published, and checks them once it is', async () => {
    const key = await h.signIn('bob');
    const rotated = rotateKey();
    h.idp.rewriteIdToken = rotated.sign;
    const first = await round();
    expect(first.ended).toEqual([]);
    expect(first.unavailable).toBeGreaterThanOrEqual(1);
    const refreshed = await h.admin('POST', `/internal/sso/sessions/${key.session_id}/refresh`);
    expect(refreshed.status).toBe(502);
    expect(refreshed.body.error.type).toBe('upstream_error');
    expect(refreshed.body.error.message).toMatch(/ID token/);
    // Open, shown as unverified: the provider could not confirm the membership this time.
    expect((await status(key.session_id)).status).toBe('unverified');
    provider.extraJwk = rotated.jwk;
    const after = await round();
    expect(after).toMatchObject({ ended: [], unavailable: 0 });
    expect((await status(key.session_id)).refreshed_at).not.toBeNull();
  });

  it('keeps every key while the provider clock makes the refreshed ID token read expired, keeping the rotated refresh token', async () => {
    const key = await h.signIn('alice');
    const hoursAgo = Math.floor(Date.now() / 1000) - 7200;
    h.idp.rewriteIdToken = (token) => h.idp.sign({ ...jwtPayload(token), iat: hoursAgo, exp: hoursAgo + 600 });
    const skewed = await round();
    expect(skewed.ended).toEqual([]);
    expect(skewed.unavailable).toBeGreaterThanOrEqual(1);
    expect((await status(key.session_id)).status).toBe('unverified');
    // The provider is right again: the refresh token it rotated during the skewed round is the live one.
    h.idp.rewriteIdToken = undefined;
    const after = await round();
    expect(after).toMatchObject({ ended: [], unavailable: 0 });
    expect((await status(key.session_id)).status).toBe('active');
  });

  it('still ends the session when the provider refuses the refresh itself (invalid_grant)', async () => {
    h.idp.accounts.set('gina', { email: 'gina@example.com', groups: ['staff'] });
    const key = await h.signIn('gina');
    h.idp.accounts.get('gina')!.disabled = true;
    const result = await round();
    expect(result.ended).toContainEqual({
      session_id: key.session_id,
      key_id: key.id,
      reason: expect.stringContaining('refresh refused by the provider (invalid_grant'),
    });
  });
});

describe('a refresh round checks sessions side by side', () => {
  it('waits for a hanging provider about once per batch, not once per session', async () => {
    const h = await startSsoHarness({ timeout_seconds: 1, max_active_keys_per_user: 6 });
    try {
      const sessions = 12;
      for (let i = 0; i < sessions; i++) await h.signIn(i % 2 === 0 ? 'alice' : 'bob');
      h.idp.stallToken = 1_500;
      const started = Date.now();
      const result = ssoRefreshResultSchema.parse((await h.admin('POST', '/internal/sso/refresh')).body);
      const elapsed = Date.now() - started;
      h.idp.stallToken = undefined;
      expect(result).toMatchObject({ checked: sessions, ended: [], unavailable: sessions });
      // One after another this takes 12 timeouts (12 s); 8 at a time, two.
      expect(elapsed).toBeLessThan(6_000);
      const again = ssoRefreshResultSchema.parse((await h.admin('POST', '/internal/sso/refresh')).body);
      expect(again).toMatchObject({ checked: sessions, ended: [], unavailable: 0 });
    } finally {
      await h.close();
    }
  });
});
