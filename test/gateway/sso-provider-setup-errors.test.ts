import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { returnedError, SECRET_ENV, startSsoHarness, type SsoHarness } from './support/sso-harness.js';

describe("the provider refusing the gateway's own client is an operator's configuration error", () => {
  let h: SsoHarness;
  beforeAll(async () => {
    h = await startSsoHarness({ timeout_seconds: 2 });
  });
  afterAll(async () => h?.close());
  afterEach(() => {
    h.idp.failToken = undefined;
  });

  for (const failure of [
    { status: 401, error: 'invalid_client' },
    { status: 400, error: 'unauthorized_client' },
  ])
    it(`reports ${failure.error} at sign-in as upstream_error naming the client registration`, async () => {
      h.idp.failToken = failure;
      const { error, description } = returnedError(await h.walk('alice'));
      expect(error).toBe('upstream_error');
      expect(description).toContain(failure.error);
      expect(description).toContain('sso.providers.testidp.client_id');
      expect(description).toContain(`client_secret_env (${SECRET_ENV})`);
      expect(description).not.toContain(h.idp.clientSecret);
      expect(description).not.toMatch(/rejected/);
    });

  it('says, when a refresh meets a refused client, that the provider refused it rather than could not be reached', async () => {
    const key = await h.signIn('bob');
    h.idp.failToken = { status: 401, error: 'invalid_client' };
    const refreshed = await h.admin('POST', `/internal/sso/sessions/${key.session_id}/refresh`);
    expect(refreshed.status).toBe(502);
    expect(refreshed.body.error.type).toBe('upstream_error');
    expect(refreshed.body.error.message).not.toContain('could not be reached');
    expect(refreshed.body.error.message).toContain('invalid_client');
    expect(refreshed.body.error.message).toContain('client_secret_env');
    expect(refreshed.body.error.message).toContain('stays open');
  });
});

describe('a wrong client secret at sign-in', () => {
  it('is reported as upstream_error naming client_secret_env, never the secret', async () => {
    const h = await startSsoHarness({}, undefined, { [SECRET_ENV]: 'not-the-registered-secret' });
    try {
      const { error, description } = returnedError(await h.walk('alice'));
      expect(error).toBe('upstream_error');
      expect(description).toContain('invalid_client');
      expect(description).toContain(`client_secret_env (${SECRET_ENV})`);
      expect(description).not.toContain('not-the-registered-secret');
    } finally {
      await h.close();
    }
  });
});

describe('a provider that cannot be used when the sign-in starts', () => {
  it('sends the browser back to return_to with the error when the provider is unreachable', async () => {
    const h = await startSsoHarness({ issuer: 'http://127.0.0.1:1' });
    try {
      const { error, description } = returnedError(await h.walk('alice'));
      expect(error).toBe('upstream_error');
      // The provider by its name: where it lives inside the network is for the admin's log.
      expect(description).toContain('discovery of Test IdP failed');
      expect(description).not.toContain('http://127.0.0.1:1');
      const loopback = await h.walk('alice', { returnTo: 'http://127.0.0.1:9/callback?state=abc' });
      expect(loopback.returned?.origin).toBe('http://127.0.0.1:9');
      expect(loopback.returned?.searchParams.get('state')).toBe('abc');
      expect(loopback.returned?.searchParams.get('error')).toBe('upstream_error');
      // return_to itself is still checked first, and refused in the error shape.
      const bad = await fetch(
        `${h.url}/sso/login?provider=testidp&return_to=https://evil.example/&challenge=${'a'.repeat(43)}`,
        { redirect: 'manual' },
      );
      expect(bad.status).toBe(400);
    } finally {
      await h.close();
    }
  });

  it('names both issuers when the discovered issuer is not the configured one', async () => {
    // The same provider under another name than the one its discovery document states.
    const provider = await startSsoHarness();
    const configured = provider.idp.issuer.replace('127.0.0.1', 'localhost');
    const mismatched = await startSsoHarness({ issuer: configured });
    try {
      const { error, description } = returnedError(await mismatched.walk('alice'));
      expect(error).toBe('upstream_error');
      expect(description).toContain(`'${provider.idp.issuer}'`);
      expect(description).toContain(`'${configured}'`);
      expect(description).toContain('sso.providers.testidp.issuer');
    } finally {
      await provider.close();
      await mismatched.close();
    }
  });
});
