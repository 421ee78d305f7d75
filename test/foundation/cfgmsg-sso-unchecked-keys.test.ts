import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config/load.js';
import { configFiles } from '../support/config-files.js';

const provider = (id: string, ...settings: string[]): string =>
  [
    `    ${id}:`,
    `      name: ${id.toUpperCase()} SSO`,
    '      issuer: https://login.corp.example/realms/main',
    '      client_id: gatehouse',
    '      client_secret_env: CORP_OIDC_SECRET',
    ...settings.map((line) => `      ${line}`),
  ].join('\n');

const WARNING =
  'sso.providers.corp: keys issued through CORP SSO never expire and are never checked against it again, since it is asked for no refresh token and sets no key_ttl_seconds; add offline_access to sso.providers.corp.scopes (or authorization_params: {access_type: offline} for Google) so that group membership is checked every refresh_interval_seconds, or set sso.providers.corp.key_ttl_seconds so that keys expire';

/**
 * Without a refresh token nothing checks a key's holder again, and without key_ttl_seconds nothing
 * ends the key: loading the file (the start and --check alike print its warnings) says so, naming
 * both ways out.
 */
describe('an SSO provider whose keys would never expire and never be checked', () => {
  const files = configFiles('gatehouse-cfgmsg-sso-unchecked-');
  afterAll(() => files.cleanup());

  const unchecked = (): string =>
    files.write(
      [
        'sso:',
        '  providers:',
        provider('corp', 'scopes: [openid, email, profile, groups]'),
        provider('ttl', 'scopes: [openid, email]', 'key_ttl_seconds: 86400'),
        provider('offline', 'scopes: [openid, email, offline_access]'),
        provider('google', 'scopes: [openid, email]', 'authorization_params: { access_type: offline }'),
        provider('defaults'),
      ].join('\n'),
    );

  it('is a warning naming the provider and both ways out, and only for that provider', () => {
    const { warnings } = loadConfig({ file: unchecked(), env: { CORP_OIDC_SECRET: 'x' } });
    expect(warnings).toEqual([WARNING]);
  });

  it('is printed by --check, which still finds the configuration valid', () => {
    const checked = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'src/server/cli.ts', '--check', '--config', unchecked()],
      {
        env: { ...process.env, CORP_OIDC_SECRET: 'x', GATEHOUSE_DATA_DIR: files.folder() },
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(checked.status).toBe(0);
    expect(checked.stderr).toContain(`gatehouse: ${WARNING}`);
    expect(checked.stdout).toContain('is valid');
  }, 70_000);
});
