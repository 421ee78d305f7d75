import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config/load.js';
import { configFiles } from '../support/config-files.js';

const provider = (redirect: string): string =>
  [
    '      issuer: https://login.corp.example/realms/main',
    '      client_id: gatehouse',
    '      client_secret_env: CORP_OIDC_SECRET',
    `      redirect_uri: ${redirect}`,
  ].join('\n');

/**
 * The Host check answers IP addresses, localhost and server.allowed_hosts: a redirect_uri on any other
 * name brings the user back from the provider to a 403, so loading the file (the start and --check
 * alike print its warnings) says so.
 */
describe('an SSO redirect_uri on a host the gateway does not answer', () => {
  const files = configFiles('gatehouse-cfgmsg-sso-');
  afterAll(() => files.cleanup());

  it('is a warning naming the provider, the host and the setting to add it to', () => {
    const file = files.write(
      [
        'sso:',
        '  providers:',
        '    corp:',
        provider('https://gatehouse.corp.example:8747/sso/callback'),
        '    lan:',
        provider('http://192.168.1.5:8747/sso/callback'),
        '    local:',
        provider('http://localhost:8747/sso/callback'),
        '    v6:',
        provider('http://[::1]:8747/sso/callback'),
      ].join('\n'),
    );
    const { warnings } = loadConfig({ file, env: { CORP_OIDC_SECRET: 'x' } });
    expect(warnings).toEqual([
      "sso.providers.corp.redirect_uri: 'gatehouse.corp.example' is not in server.allowed_hosts, and the gateway answers only IP addresses, localhost and those names, so the provider's redirect back would be refused (403) after the user signed in; add 'gatehouse.corp.example' to server.allowed_hosts",
    ]);
  });

  it('is quiet once the host is in server.allowed_hosts, as the configuration example in docs/sso.md has it', () => {
    const listed = files.write(
      [
        'server:',
        '  allowed_hosts: [GATEHOUSE.corp.example]',
        'sso:',
        '  providers:',
        '    corp:',
        provider('https://gatehouse.corp.example:8747/sso/callback'),
      ].join('\n'),
    );
    expect(loadConfig({ file: listed, env: {} }).warnings).toEqual([]);
    const example = /## Configuration[\s\S]*?```yaml\n([\s\S]*?)```/.exec(readFileSync('docs/sso.md', 'utf8'))?.[1];
    expect(example).toContain('redirect_uri: https://gatehouse.corp.example');
    const loaded = loadConfig({ file: files.write(example!), env: {} });
    expect(loaded.warnings.filter((warning) => warning.includes('redirect_uri'))).toEqual([]);
  });
});
