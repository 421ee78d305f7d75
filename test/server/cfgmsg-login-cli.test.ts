import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/** Runs `npm run login` as its one Node process, with only the environment given (plus PATH). */
async function runLogin(
  args: readonly string[],
  env: Readonly<Record<string, string>>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'src/cli/login.ts', '--no-browser', ...args],
      { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 20_000 },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

// Nothing listens here: the range is this file's own.
const CLOSED_PORT = 19241;

describe('npm run login when the gateway cannot be reached', () => {
  it('names the address and why, and how to point it elsewhere, taking the port from GATEWAY_PORT', async () => {
    const result = await runLogin([], { GATEWAY_PORT: String(CLOSED_PORT) });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `login: cannot reach the gateway at http://127.0.0.1:${CLOSED_PORT} (connection refused): is it running? ` +
        'Pass --gateway <url> or set GATEHOUSE_GATEWAY_URL\n',
    );
  });

  it('prefers GATEHOUSE_GATEWAY_URL to GATEWAY_PORT, and --gateway to both', async () => {
    const fromUrl = await runLogin([], {
      GATEWAY_PORT: '19242',
      GATEHOUSE_GATEWAY_URL: `http://localhost:${CLOSED_PORT}`,
    });
    expect(fromUrl.stderr).toContain(
      `cannot reach the gateway at http://localhost:${CLOSED_PORT} (connection refused)`,
    );
    const fromFlag = await runLogin(['--gateway', `http://127.0.0.1:${CLOSED_PORT}`], {
      GATEHOUSE_GATEWAY_URL: 'http://localhost:19242',
    });
    expect(fromFlag.stderr).toContain(
      `cannot reach the gateway at http://127.0.0.1:${CLOSED_PORT} (connection refused)`,
    );
  });

  it('refuses an address or port it cannot use with exit 2, before trying it', async () => {
    const badPort = await runLogin([], { GATEWAY_PORT: 'eighty' });
    expect(badPort).toMatchObject({
      code: 2,
      stderr: 'login: GATEWAY_PORT must be a port number from 1 to 65535, got "eighty"\n',
    });
    const freePort = await runLogin([], { GATEWAY_PORT: '0' });
    expect(freePort.code).toBe(2);
    expect(freePort.stderr).toContain('pass --gateway with the address it printed');
    const badUrl = await runLogin(['--gateway', '127.0.0.1:8747'], {});
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toBe(
      "login: --gateway must be an http:// or https:// address such as http://127.0.0.1:8747, got '127.0.0.1:8747'\n",
    );
  });
});

describe('npm run login -- --help', () => {
  it('explains each option and the environment variables it reads', async () => {
    const { code, stdout } = await runLogin(['--help'], {});
    expect(code).toBe(0);
    expect(stdout).toMatch(/^usage: npm run login -- /);
    for (const option of ['--gateway <url>', '--provider <id>', '--no-browser', '--timeout <seconds>', '--json'])
      expect(stdout).toMatch(new RegExp(`\\n  ${option.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} +\\S`));
    for (const variable of ['GATEHOUSE_GATEWAY_URL', 'GATEWAY_PORT'])
      expect(stdout).toMatch(new RegExp(`\\n  ${variable} +\\S`));
    expect(stdout).toContain('exit codes: 0 signed in');
  });
});

describe('npm run login writes no control characters to the terminal', () => {
  it('shows escape sequences in text it repeats as \\x1b, so they cannot retitle, clear or fake a prompt', async () => {
    const result = await runLogin(['\u001b]0;OWNED\u0007\u001b[2Jfake prompt'], {});
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('login: unknown argument \\x1b]0;OWNED\\x07\\x1b[2Jfake prompt\n');
    // eslint-disable-next-line no-control-regex
    expect(result.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });
});
