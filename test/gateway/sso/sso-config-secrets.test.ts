import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/server/config/load.js';
import { CookieJar, followRedirects } from '../../support/browser-flow.js';
import { spawnHeadless, type HeadlessProcess } from '../../support/headless-process.js';
import { jwtPayload, startTestIdp, type TestIdp } from '../../support/oidc-idp.js';
import { defaultAccounts, handoffPair, TEST_MAPPINGS } from '../support/sso-harness.js';

function providerConfig(issuer: string, extra: Record<string, unknown> = {}) {
  return {
    sso: {
      providers: {
        corp: {
          issuer,
          client_id: 'gatehouse',
          client_secret_env: 'CORP_OIDC_SECRET',
          mappings: TEST_MAPPINGS,
          allow_insecure_http: true,
          ...extra,
        },
      },
    },
  };
}

describe('SSO configuration', () => {
  it('validates the provider section, naming the key', () => {
    const env = { GATEHOUSE_DATA_DIR: '/tmp/x' };
    expect(() => loadConfig({ env, overrides: providerConfig('not a url') })).toThrow(/sso\.providers\.corp\.issuer/);
    // A team the admin API could not name (in limits, in RAG access lists) is refused here too.
    expect(() =>
      loadConfig({
        env,
        overrides: providerConfig('https://idp.example', { mappings: [{ value: 'g', team: 'ghost team' }] }),
      }),
    ).toThrow(/sso\.providers\.corp\.mappings\[0\]\.team/);
    expect(() => loadConfig({ env, overrides: providerConfig('https://idp.example', { client_secret: 'x' }) })).toThrow(
      /sso\.providers\.corp.*client_secret/,
    );
    expect(() =>
      loadConfig({
        env,
        overrides: providerConfig('https://idp.example', { mappings: [{ value: 'g', scopes: ['admin'] }] }),
      }),
    ).toThrow(/sso\.providers\.corp\.mappings\[0\]\.scopes\[0\]/);
    expect(() =>
      loadConfig({ env, overrides: providerConfig('https://idp.example', { authorization_params: { state: 'x' } }) }),
    ).toThrow(/sso\.providers\.corp\.authorization_params: may not set state/);
    const { config } = loadConfig({ env, overrides: providerConfig('https://idp.example') });
    expect(config.sso.providers.corp).toMatchObject({
      scopes: ['openid', 'email', 'profile', 'offline_access'],
      user_claim: 'email',
      groups_claim: 'groups',
      refresh_interval_seconds: 900,
    });
  });

  it('accepts the example of docs/sso.md and of the example file', () => {
    const doc = readFileSync('docs/sso.md', 'utf8');
    const yaml = /```yaml\n([\s\S]*?)```/.exec(doc)![1]!;
    const { config } = loadConfig({
      env: { GATEHOUSE_DATA_DIR: '/tmp/x' },
      overrides: parseYaml(yaml) as Record<string, unknown>,
    });
    expect(config.sso.providers.corp).toMatchObject({
      name: 'Corp SSO',
      user_claim: 'email',
      key_ttl_seconds: 2592000,
    });
    expect(config.sso.providers.corp!.mappings).toHaveLength(3);
    const example = loadConfig({ file: 'resources/gatehouse.example.yaml', env: {} }).config;
    expect(example.sso).toEqual({ login_timeout_seconds: 600, providers: {} });
  });

  it('refuses to start without the client secret in the environment, naming the variable and not a value', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-sso-config-'));
    try {
      const file = join(dir, 'gatehouse.json');
      writeFileSync(file, JSON.stringify(providerConfig('http://127.0.0.1:9/')));
      await expect(
        spawnHeadless({ GATEHOUSE_CONFIG: file, GATEHOUSE_DATA_DIR: dir, CORP_OIDC_SECRET: '' }, 15_000),
      ).rejects.toThrow(
        /sso\.providers\.corp\.client_secret_env: the environment variable CORP_OIDC_SECRET is not set/,
      );
      writeFileSync(file, JSON.stringify(providerConfig('http://127.0.0.1:9/', { allow_insecure_http: false })));
      await expect(
        spawnHeadless(
          { GATEHOUSE_CONFIG: file, GATEHOUSE_DATA_DIR: dir, CORP_OIDC_SECRET: 'some-secret-value' },
          15_000,
        ),
      ).rejects.toThrow(/sso\.providers\.corp\.issuer: an http issuer needs allow_insecure_http: true/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('SSO secrets stay out of the logs and answers', () => {
  let dir: string;
  let idp: TestIdp;
  let server: HeadlessProcess;
  const seen: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-sso-secrets-'));
    idp = await startTestIdp({ accounts: defaultAccounts() });
    const file = join(dir, 'gatehouse.json');
    writeFileSync(
      file,
      JSON.stringify(providerConfig(idp.issuer, { scopes: ['openid', 'email', 'groups', 'offline_access'] })),
    );
    server = await spawnHeadless({
      GATEHOUSE_CONFIG: file,
      GATEHOUSE_DATA_DIR: dir,
      GATEHOUSE_LOG_LEVEL: 'debug',
      PROXY_MASTER_KEY: 'gk-master-sso-secrets-0123456789',
      CORP_OIDC_SECRET: idp.clientSecret,
    });
    idp.redirectUris = [`${server.gatewayUrl}/sso/callback`];
  });
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited();
    await idp?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const signIn = async (): Promise<{ status: number; text: string }> => {
    const { verifier, challenge } = handoffPair();
    idp.autoLogin = 'alice';
    const jar = new CookieJar();
    const query = new URLSearchParams({ provider: 'corp', return_to: '/ui/sso/done', challenge });
    const walk = await followRedirects(`${server.gatewayUrl}/sso/login?${query}`, jar, {
      stopAt: (next) => next.includes('/ui/sso/done'),
    });
    for (const hop of walk.hops) seen.push(hop.url, hop.response.headers.get('location') ?? '');
    const back = new URL(walk.stoppedAt!);
    const handoff = back.searchParams.get('handoff');
    if (!handoff) return { status: 0, text: back.toString() };
    const response = await fetch(`${server.gatewayUrl}/sso/redeem`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ handoff, verifier }),
    });
    const text = await response.text();
    seen.push(text);
    return { status: response.status, text };
  };

  it('never prints the client secret, the refresh token or an issued key, through success, failure, refresh and sign-out', async () => {
    const ok = await signIn();
    expect(ok.status).toBe(201);
    const key = JSON.parse(ok.text) as { key: string; session_id: string };
    // A failure is logged with its reason.
    idp.rewriteIdToken = (token) => idp.sign({ ...jwtPayload(token), aud: 'other' });
    const failed = await signIn();
    expect(failed.text).toContain('error=authentication_error');
    idp.rewriteIdToken = undefined;
    const admin = { authorization: 'Bearer gk-master-sso-secrets-0123456789' };
    const refresh = await fetch(`${server.gatewayUrl}/internal/sso/sessions/${key.session_id}/refresh`, {
      method: 'POST',
      headers: admin,
    });
    seen.push(await refresh.text());
    seen.push(
      await (await fetch(`${server.gatewayUrl}/internal/sso/sessions?include_ended=true`, { headers: admin })).text(),
    );
    seen.push(
      await (await fetch(`${server.gatewayUrl}/internal/api-keys?include_revoked=true`, { headers: admin })).text(),
    );
    const out = await fetch(`${server.gatewayUrl}/sso/logout`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.key}` },
    });
    seen.push(await out.text());
    expect(out.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200));

    const output = server.output();
    expect(output).toContain('sso sign-in failed');
    // Issued at sign-in and rotated at refresh.
    expect(idp.refreshTokens.length).toBeGreaterThanOrEqual(2);
    const answers = seen.join('\n');
    for (const secret of [idp.clientSecret, ...idp.refreshTokens]) {
      expect(output).not.toContain(secret);
      expect(answers).not.toContain(secret);
    }
    expect(output).not.toContain(key.key);
    expect(seen.join('\n')).not.toMatch(/refresh_token|"v1\./);
  });
});
