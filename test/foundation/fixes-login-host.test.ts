import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { startTempServers, type TempServers } from '../support/temp-servers.js';

/** Runs `npm run login` as its one Node process, with only the environment given (plus PATH). */
async function runLogin(env: Readonly<Record<string, string>>): Promise<{ code: number; stderr: string }> {
  try {
    const { stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'src/cli/login.ts', '--no-browser', '--timeout', '5'],
      { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 20_000 },
    );
    return { code: 0, stderr };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, stderr: failed.stderr };
  }
}

/**
 * `npm run login` finds the gateway where a server started from the same environment listens: at
 * GATEHOUSE_HOST as well as GATEWAY_PORT, and on this machine's loopback address when that host is
 * every interface. The gateways here have no SSO provider, so reaching one ends with it saying so.
 */
describe('npm run login and GATEHOUSE_HOST', () => {
  let servers: TempServers | undefined;
  afterEach(async () => {
    await servers?.stop();
    servers = undefined;
  });

  async function gatewayOn(host: string): Promise<string> {
    servers = await startTempServers({}, { GATEHOUSE_HOST: host });
    return new URL(servers.gatewayUrl).port;
  }

  it('connects to the host the server listens on', async () => {
    const port = await gatewayOn('127.0.0.2');
    const result = await runLogin({ GATEHOUSE_HOST: '127.0.0.2', GATEWAY_PORT: port });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `login: the gateway at http://127.0.0.2:${port} has no single sign-on provider (sso.providers)\n`,
    );
  });

  it('connects to the loopback address when the server listens on every interface', async () => {
    const port = await gatewayOn('0.0.0.0');
    const result = await runLogin({ GATEHOUSE_HOST: '0.0.0.0', GATEWAY_PORT: port });
    expect(result.stderr).toBe(
      `login: the gateway at http://127.0.0.1:${port} has no single sign-on provider (sso.providers)\n`,
    );
  });

  it('brackets an IPv6 address, and takes :: as the IPv6 loopback address', async () => {
    const port = await gatewayOn('::');
    const wildcard = await runLogin({ GATEHOUSE_HOST: '::', GATEWAY_PORT: port });
    expect(wildcard.stderr).toBe(
      `login: the gateway at http://[::1]:${port} has no single sign-on provider (sso.providers)\n`,
    );
    const loopback = await runLogin({ GATEHOUSE_HOST: '::1', GATEWAY_PORT: port });
    expect(loopback.stderr).toContain(`http://[::1]:${port} has no single sign-on provider`);
  });
});
