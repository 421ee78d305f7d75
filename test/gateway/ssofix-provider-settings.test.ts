import { generateKeyPairSync } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/server/config/load.js';
import { jwtPayload } from '../support/oidc-idp.js';
import { startSsoHarness, type SsoHarness } from './support/sso-harness.js';

describe('sso.providers.<id>.authorization_params', () => {
  const load = (params: Record<string, string>) =>
    loadConfig({
      env: { GATEHOUSE_DATA_DIR: '/tmp/ssofix-config' },
      overrides: {
        sso: {
          providers: {
            corp: {
              issuer: 'https://idp.example',
              client_id: 'gatehouse',
              client_secret_env: 'CORP_OIDC_SECRET',
              authorization_params: params,
            },
          },
        },
      },
    });

  it.each(['response_mode', 'request', 'request_uri'])('refuses %s, naming it', (name) => {
    expect(() => load({ [name]: 'form_post' })).toThrow(
      new RegExp(`sso\\.providers\\.corp\\.authorization_params\\.${name}: ${name} is not supported`),
    );
  });

  it('takes other parameters', () => {
    expect(load({ access_type: 'offline' }).config.sso.providers.corp?.authorization_params).toEqual({
      access_type: 'offline',
    });
  });
});

describe('a provider that replaced its signing key under the same kid', () => {
  let h: SsoHarness;
  beforeAll(async () => {
    h = await startSsoHarness();
  });
  afterAll(async () => h?.close());
  afterEach(() => {
    vi.restoreAllMocks();
    h.idp.rewriteIdToken = undefined;
  });

  it('is trusted at the next sign-in: the JWKS is read again once the signature fails against the cached key', async () => {
    // The gateway has read (and cached) the provider's JWKS.
    expect((await h.walk('alice')).returned?.searchParams.get('handoff')).toBeTruthy();

    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    let kid = '';
    h.idp.rewriteIdToken = (token) => {
      kid = (JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()) as { kid: string }).kid;
      return h.idp.sign(jwtPayload(token), privateKey);
    };
    const realFetch = globalThis.fetch;
    const jwksReads: string[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : input.toString());
      if (url.origin === new URL(h.idp.issuer).origin && url.pathname === '/jwks') {
        jwksReads.push(url.toString());
        const jwk = { ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' };
        return Response.json({ keys: [jwk] });
      }
      return realFetch(input, init);
    });

    const walk = await h.walk('alice');
    expect(walk.failure, JSON.stringify(jwksReads)).toBeUndefined();
    expect(walk.returned?.searchParams.get('handoff')).toBeTruthy();
    expect(jwksReads).toHaveLength(1);
  });

  it('still refuses a token whose signature no key of the provider verifies', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    h.idp.rewriteIdToken = (token) => h.idp.sign(jwtPayload(token), privateKey);
    const walk = await h.walk('alice');
    expect(walk.returned?.searchParams.get('handoff')).toBeNull();
    expect(walk.returned?.searchParams.get('error')).toBe('authentication_error');
  });
});
