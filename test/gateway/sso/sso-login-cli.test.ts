import { spawn } from 'node:child_process';
import { once } from 'node:events';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CookieJar, followRedirects } from '../../support/browser-flow.js';
import { followAllowing, startSsoHarness, type SsoHarness } from '../support/sso-harness.js';

/**
 * Runs `npm run login` (as one Node process) with --no-browser; the test plays the browser from the
 * URL it prints (the tool's own /start, which sends the browser on to the gateway), choosing Allow on
 * the gateway's confirmation page.
 */
async function runLogin(
  h: SsoHarness,
  args: string[],
  browse: (url: string) => Promise<void>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/cli/login.ts', '--gateway', h.url, '--no-browser', ...args],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  let browsed: Promise<void> | undefined;
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    const url = /(http:\/\/127\.0\.0\.1:\d+\/start)\b/.exec(stderr)?.[1];
    if (url && !browsed) browsed = browse(url);
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  await browsed;
  return { code, stdout, stderr };
}

describe('npm run login: loopback-redirect sign-in for tools', () => {
  let h: SsoHarness;
  beforeAll(async () => {
    h = await startSsoHarness();
  });
  afterAll(async () => h?.close());

  it('prints the sign-in URL, receives the hand-off on its loopback listener and prints only the key on stdout', async () => {
    h.idp.autoLogin = 'alice';
    let finalPage = '';
    const result = await runLogin(h, [], async (url) => {
      const walk = await followAllowing(url, new CookieJar());
      // The browser ends on the tool's own listener, which tells the user where the key went.
      expect(walk.last.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback\?state=/);
      finalPage = await walk.last.response.text();
    });
    expect(result.code, result.stderr).toBe(0);
    expect(finalPage).toContain('Your API key is in the terminal');
    const key = result.stdout.trim();
    expect(key).toMatch(/^gk-[\w-]{40,}$/);
    expect(result.stderr).toContain('Sign in with Test IdP in your browser');
    expect(result.stderr).toContain('Signed in as alice@example.com with Test IdP');
    expect(result.stderr).toContain('team ml');
    expect(result.stderr).not.toContain(key);
    const answer = await h
      .openaiClient(key)
      .chat.completions.create({ model: 'demo/echo', messages: [{ role: 'user', content: 'from the cli' }] });
    expect(answer.choices[0]?.message.content).toBe('from the cli');
    const listed = (await h.admin('GET', '/internal/api-keys')).body.data.find((k: { key_prefix: string }) =>
      key.startsWith(k.key_prefix.replace('…', '')),
    );
    expect(listed).toMatchObject({ user: 'alice@example.com', issuer: h.idp.issuer, subject: 'alice' });
  });

  it('exits 1 with the reason when the sign-in is refused, and shows it in the browser', async () => {
    h.idp.autoLogin = 'carol';
    let finalPage = '';
    const result = await runLogin(h, ['--provider', 'testidp'], async (url) => {
      const walk = await followRedirects(url, new CookieJar());
      finalPage = await walk.last.response.text();
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('sign-in failed (permission_error)');
    expect(finalPage).toContain('Sign-in failed');
  });

  it('refuses a sign-in finished in another browser, and stops when its address is opened twice', async () => {
    // Another local user who read the address (a browser's command line is readable by all) finishes
    // a sign-in of their own and hands it to the tool: without the browser's cookie it is refused.
    h.idp.autoLogin = 'alice';
    let refusedPage = 0;
    const handedOver = await runLogin(h, ['--timeout', '20'], async (url) => {
      const victim = new CookieJar();
      const tool = new URL(url).origin;
      const walk = await followAllowing(url, victim, { stopAt: (next) => next.startsWith(`${tool}/callback`) });
      const callback = walk.stoppedAt!;
      // The callback as the other user's browser would bring it: no cookie of the tool's.
      refusedPage = (await fetch(callback)).status;
      await followRedirects(callback, victim);
    });
    expect(refusedPage).toBe(403);
    expect(handedOver.code, handedOver.stderr).toBe(0);
    expect(handedOver.stderr).toContain('Signed in as alice@example.com');

    let secondVisit = 0;
    const twice = await runLogin(h, [], async (url) => {
      await fetch(url, { redirect: 'manual' });
      secondVisit = (await fetch(url, { redirect: 'manual' })).status;
    });
    expect(secondVisit).toBe(409);
    expect(twice.code).toBe(1);
    expect(twice.stdout).toBe('');
    expect(twice.stderr).toContain('the sign-in address was opened twice');
  });

  it('names the providers when the one asked for does not exist, and times out when nobody signs in', async () => {
    const unknown = await runLogin(h, ['--provider', 'nope'], async () => {});
    // The provider is the caller's to choose: a bad-arguments exit, naming each provider by id and name.
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("no provider 'nope'; the gateway offers: testidp (Test IdP)");
    const idle = await runLogin(h, ['--timeout', '1'], async () => {});
    expect(idle.code).toBe(1);
    expect(idle.stderr).toContain('no sign-in within 1 s');
    await expect(
      new OpenAI({ baseURL: `${h.url}/v1`, apiKey: 'gk-not-a-key', maxRetries: 0 }).models.list(),
    ).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
  });
});
