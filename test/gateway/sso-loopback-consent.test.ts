import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bindingCookieName } from '../../src/server/gateway/routes/sso/sso-cookie.js';
import { CookieJar, followRedirects } from '../support/browser-flow.js';
import { handoffPair, startSsoHarness, UI_RETURN, type SsoHarness } from './support/sso-harness.js';

/**
 * A program on a loopback port gets a hand-off only once the user allowed it on the gateway's own
 * page: a link anyone can make (with a challenge of their own) no longer delivers a victim's key.
 */

/** A program listening on a loopback port: it records every request that reaches it. */
interface Listener {
  readonly origin: string;
  readonly received: URL[];
  close(): Promise<void>;
}

async function listen(): Promise<Listener> {
  const received: URL[] = [];
  const server: Server = createServer((req, res) => {
    received.push(new URL(req.url ?? '/', 'http://127.0.0.1'));
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The browser at the confirmation page: its cookies, the page and its form's fields. */
interface AtConsent {
  readonly jar: CookieJar;
  readonly verifier: string;
  readonly url: string;
  readonly response: Response;
  readonly html: string;
  readonly form: { request: string; token: string };
}

function formOf(html: string): { request: string; token: string } {
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? '';
  return { request: field('request'), token: field('token') };
}

describe('SSO hand-off to a program on a loopback port', () => {
  let h: SsoHarness;
  let program: Listener;
  beforeAll(async () => {
    h = await startSsoHarness();
    program = await listen();
  });
  afterAll(async () => {
    await program?.close();
    await h?.close();
  });

  const link = (challenge: string, returnTo = `${program.origin}/cb`) =>
    `${h.url}/sso/login?${new URLSearchParams({ provider: 'testidp', return_to: returnTo, challenge })}`;

  const keysOf = async (user: string) =>
    ((await h.admin('GET', '/internal/api-keys')).body.data as { user: string | null }[]).filter(
      (k) => k.user === user,
    );

  /** A browser signed in at the provider as `account` opens a link to the gateway with the program's challenge. */
  async function toConsent(account: string): Promise<AtConsent> {
    const { verifier, challenge } = handoffPair();
    const jar = new CookieJar();
    h.idp.autoLogin = account;
    const walk = await followRedirects(link(challenge), jar);
    const html = await walk.last.response.text();
    return { jar, verifier, url: walk.last.url, response: walk.last.response, html, form: formOf(html) };
  }

  /** Posts the page's form as the browser does, or as a forger would with `override`. */
  const answer = (
    at: AtConsent,
    decision: 'allow' | 'deny',
    override: { cookie?: string | null; token?: string; headers?: Record<string, string> } = {},
  ) => {
    const cookie = override.cookie === undefined ? at.jar.header(h.url) : override.cookie;
    return fetch(`${h.url}/sso/consent`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(cookie ? { cookie } : {}),
        ...override.headers,
      },
      body: new URLSearchParams({ ...at.form, ...(override.token ? { token: override.token } : {}), decision }),
    });
  };

  it('gives a crafted link no key: the browser stops at the gateway, the listener receives nothing', async () => {
    // The program chose the verifier and made the link; the victim, signed in at the provider, opens it.
    const { verifier, challenge } = handoffPair();
    h.idp.autoLogin = 'alice';
    const victim = await followRedirects(link(challenge), new CookieJar());
    const handoffs = program.received.map((url) => url.searchParams.get('handoff')).filter((v) => v !== null);
    for (const handoff of handoffs) expect((await h.redeem(handoff, verifier)).status).not.toBe(201);
    expect(handoffs).toEqual([]);
    expect(new URL(victim.last.url).origin).toBe(h.url);
    expect(await keysOf('alice@example.com')).toEqual([]);
  });

  it('asks on a page of its own origin that cannot be framed, naming the port, the account and the grant', async () => {
    const at = await toConsent('alice');
    expect(new URL(at.url).pathname).toBe('/sso/consent');
    expect(at.response.status).toBe(200);
    const headers = at.response.headers;
    expect(headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(headers.get('x-frame-options')).toBe('DENY');
    expect(headers.get('referrer-policy')).toBe('no-referrer');
    expect(headers.get('cache-control')).toBe('no-store');
    const port = new URL(program.origin).port;
    expect(at.html).toContain(`listening on <strong>127.0.0.1:${port}</strong>`);
    expect(at.html).toContain('alice@example.com');
    expect(at.html).toContain('<dd>chat, embeddings</dd>');
    expect(at.html).toContain('<dd>ml</dd>');
    expect(at.form.request).not.toBe('');
    expect(at.form.token).not.toBe('');
    // Another browser cannot see the question.
    const elsewhere = await fetch(at.url);
    expect(elsewhere.status).toBe(400);
    expect(await elsewhere.text()).not.toContain(at.form.token);
  });

  it('refuses a forged Allow without the cookie or the token, and the user can still answer', async () => {
    const at = await toConsent('alice');
    const refused = async (response: Response, status: number, message: string) => {
      expect(response.status).toBe(status);
      expect(response.headers.get('location')).toBeNull();
      expect(((await response.json()) as { error: { message: string } }).error.message).toContain(message);
    };
    await refused(await answer(at, 'allow', { cookie: null }), 400, 'another browser');
    await refused(
      await answer(at, 'allow', { cookie: `${bindingCookieName(at.form.request)}=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA` }),
      400,
      'another browser',
    );
    // The cookie comes along from a page on another port (every port of 127.0.0.1 is the same site).
    await refused(await answer(at, 'allow', { token: 'guessed' }), 403, "did not come from the gateway's");
    await refused(await answer(at, 'allow', { headers: { origin: program.origin } }), 403, 'did not come');
    await refused(await answer(at, 'allow', { headers: { 'sec-fetch-site': 'same-site' } }), 403, 'did not come');
    expect(program.received.filter((url) => url.searchParams.has('handoff'))).toEqual([]);
    expect(await keysOf('alice@example.com')).toEqual([]);

    const allowed = await answer(at, 'allow', { headers: { origin: 'null', 'sec-fetch-site': 'same-origin' } });
    expect(allowed.status).toBe(303);
    expect(new URL(allowed.headers.get('location')!).searchParams.get('handoff')).toBeTruthy();
  });

  it('on Allow sends the program its hand-off, which its verifier redeems for the key, once', async () => {
    const at = await toConsent('alice');
    const allowed = await answer(at, 'allow', { headers: { origin: h.url } });
    expect(allowed.status).toBe(303);
    expect(allowed.headers.get('cache-control')).toBe('no-store');
    const back = new URL(allowed.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(`${program.origin}/cb`);
    await followRedirects(back.toString(), at.jar);
    expect(program.received.at(-1)?.searchParams.get('handoff')).toBe(back.searchParams.get('handoff'));
    const redeemed = await h.redeem(back.searchParams.get('handoff')!, at.verifier);
    expect(redeemed.status).toBe(201);
    expect(redeemed.body).toMatchObject({ user: 'alice@example.com', team: 'ml' });
    expect((await h.openaiClient(redeemed.body.key).models.list()).data.length).toBeGreaterThan(0);
    // The answer is used up: the same form posted again gives nothing more.
    const again = await answer(at, 'allow');
    expect(again.status).toBe(400);
    expect(((await again.json()) as { error: { message: string } }).error.message).toContain('already answered');
  });

  it('on Deny sends the program access_denied and issues no key', async () => {
    const at = await toConsent('bob');
    const denied = await answer(at, 'deny');
    expect(denied.status).toBe(303);
    const back = new URL(denied.headers.get('location')!);
    expect(back.origin).toBe(program.origin);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('error_description')).toContain(`listening on ${back.host}`);
    expect(back.searchParams.has('handoff')).toBe(false);
    expect((await answer(at, 'allow')).status).toBe(400);
    expect(await keysOf('bob@example.com')).toEqual([]);
  });

  it("leaves the UI's own sign-in as it was: straight back to /ui/ with the hand-off", async () => {
    const walk = await h.walk('bob', { returnTo: UI_RETURN });
    expect(walk.returned?.pathname).toBe(UI_RETURN);
    const handoff = walk.returned?.searchParams.get('handoff');
    expect(handoff, `no hand-off at /ui/: ${walk.lastStatus} ${walk.lastBody.slice(0, 200)}`).toBeTruthy();
    const redeemed = await h.redeem(handoff!, walk.verifier);
    expect(redeemed.status).toBe(201);
    expect(redeemed.body.user).toBe('bob@example.com');
  });
});

describe('npm run login with the confirmation page', () => {
  let h: SsoHarness;
  beforeAll(async () => {
    h = await startSsoHarness();
  });
  afterAll(async () => h?.close());

  /** Runs the command; `browse` plays the browser from the address it prints. */
  async function runLogin(browse: (url: string, stderr: () => string) => Promise<void>) {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/login.ts', '--gateway', h.url, '--no-browser'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let browsed: Promise<void> | undefined;
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const url = /(http:\/\/127\.0\.0\.1:\d+\/start)\b/.exec(stderr)?.[1];
      if (url && !browsed && stderr.includes('choose Allow')) browsed = browse(url, () => stderr);
    });
    const [code] = (await once(child, 'exit')) as [number | null];
    await browsed;
    return { code, stdout, stderr };
  }

  /** The browser from the command's /start to the confirmation, then the button, then back to the command. */
  async function browse(start: string, decision: 'allow' | 'deny'): Promise<{ consent: string; final: string }> {
    const jar = new CookieJar();
    const toPage = await followRedirects(start, jar);
    expect(new URL(toPage.last.url).pathname).toBe('/sso/consent');
    const consent = await toPage.last.response.text();
    const cookie = jar.header(h.url);
    const posted = await fetch(`${h.url}/sso/consent`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
      body: new URLSearchParams({ ...formOf(consent), decision }),
    });
    expect(posted.status).toBe(303);
    const back = await followRedirects(new URL(posted.headers.get('location')!).toString(), jar);
    return { consent, final: await back.last.response.text() };
  }

  it('prints the port the page names, and gets the key once the user allows it', async () => {
    h.idp.autoLogin = 'alice';
    let pages = { consent: '', final: '' };
    const result = await runLogin(async (url) => {
      pages = await browse(url, 'allow');
    });
    expect(result.code, result.stderr).toBe(0);
    const port = new URL(/(http:\/\/127\.0\.0\.1:\d+)\/start/.exec(result.stderr)![1]!).port;
    expect(result.stderr).toContain(`the program listening on 127.0.0.1:${port} may have an API key`);
    expect(pages.consent).toContain(`listening on <strong>127.0.0.1:${port}</strong>`);
    expect(pages.final).toContain('Your API key is in the terminal');
    const key = result.stdout.trim();
    expect(key).toMatch(/^gk-[\w-]{40,}$/);
    expect(result.stderr).toContain('Signed in as alice@example.com with Test IdP');
    const answer = await h
      .openaiClient(key)
      .chat.completions.create({ model: 'demo/echo', messages: [{ role: 'user', content: 'allowed' }] });
    expect(answer.choices[0]?.message.content).toBe('allowed');
  });

  it('exits 1 without a key when the user denies it', async () => {
    h.idp.autoLogin = 'bob';
    let final = '';
    const result = await runLogin(async (url) => {
      final = (await browse(url, 'deny')).final;
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain("Deny was chosen on the gateway's confirmation page; no key was issued");
    expect(final).toContain('Sign-in failed');
  });
});
