import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { startTestIdp, type TestIdp } from '../test/support/oidc-idp.js';
import { expect, saveScreenshot, test } from './fixtures.js';
import { startOwnServer, type OwnServer } from './own-server.js';

// A program on a loopback port asks for a key through a link; in Chromium, the gateway's page must
// take the user's click (and only theirs) before the program gets a hand-off.
let idp: TestIdp;
let own: OwnServer;
let gateway: string;
let program: { server: Server; origin: string; received: URL[] };

/** The program's own pages: one that frames the gateway's page, one that posts a forged Allow. */
function programPage(url: URL): string {
  const target = url.searchParams.get('target') ?? '';
  if (url.pathname === '/frame') return `<!doctype html><iframe src="${target}" width="800" height="600"></iframe>`;
  return `<!doctype html><form method="post" action="${gateway}/sso/consent">
<input name="request" value="${url.searchParams.get('request')}"><input name="token" value="guessed">
<input name="decision" value="allow"></form><script>document.forms[0].submit()</script>`;
}

test.beforeAll(async () => {
  idp = await startTestIdp({ accounts: { alice: { email: 'alice@example.com', groups: ['ml-team'] } } });
  const provider = {
    name: 'Corp SSO',
    issuer: idp.issuer,
    client_id: idp.clientId,
    client_secret_env: 'CORP_OIDC_SECRET',
    scopes: ['openid', 'email', 'groups'],
    mappings: [{ value: 'ml-team', team: 'ml', scopes: ['chat', 'embeddings'] }],
    allow_insecure_http: true,
  };
  own = await startOwnServer(
    'sso-consent',
    { sso: { providers: { corp: provider } } },
    {
      PROXY_MASTER_KEY: 'gk-master-sso-consent-e2e-0123456789',
      STORE_TOKEN: 'st-sso-consent-e2e-0123456789abcdef',
      CORP_OIDC_SECRET: idp.clientSecret,
    },
  );
  gateway = own.urls.gateway;
  idp.redirectUris = [`${gateway}/sso/callback`];
  const received: URL[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/favicon.ico') return void res.writeHead(204).end();
    received.push(url);
    res.writeHead(200, { 'content-type': 'text/html' }).end(url.pathname === '/cb' ? 'program' : programPage(url));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  program = { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
});

test.afterAll(async () => {
  await own?.stop();
  await new Promise((resolve) => program?.server.close(resolve));
  await idp?.close();
});

/** Opens the program's link and signs in at the provider; returns the program's verifier. */
async function openLink(page: Page): Promise<string> {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const query = new URLSearchParams({ provider: 'corp', return_to: `${program.origin}/cb`, challenge });
  await page.goto(`${gateway}/sso/login?${query}`);
  await page.getByLabel('User').fill('alice');
  await page.getByRole('button', { name: 'Sign in to Test IdP' }).click();
  await expect(page.getByRole('heading', { name: 'Allow a program an API key?' })).toBeVisible();
  return verifier;
}

const handoffs = () => program.received.filter((url) => url.searchParams.has('handoff'));

/** Takes the console error a step causes on purpose off the list the fixture checks. */
function expectConsoleError(errors: string[], pattern: RegExp): void {
  const index = errors.findIndex((text) => pattern.test(text));
  expect(index, `no console error like ${pattern} in ${JSON.stringify(errors)}`).toBeGreaterThanOrEqual(0);
  errors.splice(index, 1);
}

test('the program gets a key only after Allow on the gateway page, which no other page can frame or answer', async ({
  page,
  consoleErrors,
}) => {
  const verifier = await openLink(page);
  const consentUrl = page.url();
  expect(consentUrl.startsWith(`${gateway}/sso/consent?`)).toBe(true);
  await expect(page.getByText(`listening on ${new URL(program.origin).host}`)).toBeVisible();
  await expect(page.getByText('alice@example.com').first()).toBeVisible();
  await saveScreenshot(page, 'sso-loopback-consent');
  expect(handoffs()).toEqual([]);

  // Framed by the program's page under a decoy: the browser refuses to show it.
  await page.goto(`${program.origin}/frame?${new URLSearchParams({ target: consentUrl })}`);
  await page.waitForLoadState('load');
  await expect(page.frameLocator('iframe').getByRole('button', { name: 'Allow' })).toHaveCount(0);
  expectConsoleError(consoleErrors, /violates .*"frame-ancestors 'none'"/);

  // A forged Allow from the program's page: the browser sends the cookie (same site), not the token.
  const request = new URL(consentUrl).searchParams.get('request')!;
  await page.goto(`${program.origin}/forge?${new URLSearchParams({ request })}`);
  await expect(page.getByText("did not come from the gateway's confirmation page")).toBeVisible();
  expectConsoleError(consoleErrors, /status of 403 .*\/sso\/consent/);
  expect(handoffs()).toEqual([]);

  // The user's own click, on the gateway's page: the program receives the hand-off and redeems it.
  await page.goto(consentUrl);
  await page.getByRole('button', { name: 'Allow' }).click();
  await expect(page.getByText('program')).toBeVisible();
  expect(page.url().startsWith(`${program.origin}/cb?handoff=`)).toBe(true);
  const handoff = new URL(page.url()).searchParams.get('handoff')!;
  const redeemed = await fetch(`${gateway}/sso/redeem`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ handoff, verifier }),
  });
  expect(redeemed.status).toBe(201);
  expect(((await redeemed.json()) as { user: string }).user).toBe('alice@example.com');
  // Showing the gateway's JSON refusal made the browser ask the gateway for a favicon, which it has none of.
  const favicon = new RegExp(`status of 404 .*\\(${gateway}/favicon\\.ico\\)`);
  for (let i = consoleErrors.length - 1; i >= 0; i--) if (favicon.test(consoleErrors[i]!)) consoleErrors.splice(i, 1);
});

test('Deny sends the program access_denied', async ({ page }) => {
  const before = handoffs().length;
  await openLink(page);
  await page.getByRole('button', { name: 'Deny' }).click();
  await expect(page.getByText('program')).toBeVisible();
  const back = new URL(page.url());
  expect(back.origin).toBe(program.origin);
  expect(back.searchParams.get('error')).toBe('access_denied');
  expect(handoffs().length).toBe(before);
});
