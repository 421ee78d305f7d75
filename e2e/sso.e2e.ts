import Anthropic from '@anthropic-ai/sdk';
import { startTestIdp, type TestIdp } from '../test/support/oidc-idp.js';
import { expect, saveScreenshot, test } from './fixtures.js';
import { startOwnServer, type OwnServer } from './own-server.js';

// Self-contained: a real OpenID provider (oidc-provider) in this worker, and an app of its own
// configured to use it, so the other browser tests keep the app the global setup started.
const MASTER = 'gk-master-sso-e2e-0123456789abcdef';
let idp: TestIdp;
let server: OwnServer;
let urls: { gateway: string; ui: string };

test.beforeAll(async () => {
  idp = await startTestIdp({
    accounts: {
      alice: { email: 'alice@example.com', name: 'Alice', groups: ['ml-team'] },
    },
  });
  server = await startOwnServer(
    'sso',
    {
      sso: {
        providers: {
          corp: {
            name: 'Corp SSO',
            issuer: idp.issuer,
            client_id: idp.clientId,
            client_secret_env: 'CORP_OIDC_SECRET',
            scopes: ['openid', 'email', 'groups', 'offline_access'],
            mappings: [{ value: 'ml-team', team: 'ml', scopes: ['chat', 'embeddings'], user_tpd_budget: 100000 }],
            allow_insecure_http: true,
          },
        },
      },
    },
    {
      PROXY_MASTER_KEY: MASTER,
      STORE_TOKEN: 'st-sso-e2e-0123456789abcdef0123',
      CORP_OIDC_SECRET: idp.clientSecret,
    },
  );
  urls = server.urls;
  idp.redirectUris = [`${urls.gateway}/sso/callback`];
});

test.afterAll(async () => {
  await server?.stop();
  await idp?.close();
});

const chat = (key: string) =>
  fetch(`${urls.gateway}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'demo/echo', messages: [{ role: 'user', content: 'hello from sso' }] }),
  });

test('signs in with the organisation provider, shows the new key once, and signing out revokes it', async ({
  page,
}) => {
  await page.goto(urls.ui);
  const button = page.getByRole('button', { name: 'Sign in with Corp SSO' });
  await expect(button).toBeVisible();
  await saveScreenshot(page, 'sso-login');
  await button.click();

  // The provider's own sign-in page.
  await expect(page.getByRole('heading', { name: 'Test IdP' })).toBeVisible();
  await page.getByLabel('User').fill('alice');
  await page.getByRole('button', { name: 'Sign in to Test IdP' }).click();

  await expect(page.getByRole('heading', { name: 'Your API key' })).toBeVisible();
  await expect(page.getByTestId('sso-user')).toHaveText('alice@example.com');
  await expect(page.getByTestId('sso-team')).toHaveText('ml');
  await expect(page.getByTestId('sso-scopes')).toHaveText('chat, embeddings');
  const key = (await page.getByTestId('sso-key-secret').textContent())!.trim();
  expect(key).toMatch(/^gk-[\w-]{40,}$/);
  // The hand-off is gone from the address bar: a reload cannot show the key again.
  expect(page.url()).toBe(`${urls.ui}sso/done`);
  await saveScreenshot(page, 'sso-key');

  // Each SDK is shown the base URL it takes: Anthropic's adds /v1 itself, so /v1 there was a 404.
  const anthropicBase = (await page.getByTestId('sso-anthropic-base-url').textContent())!.trim();
  await expect(page.getByTestId('sso-openai-base-url')).toHaveText(`${anthropicBase}/v1`);
  const claude = new Anthropic({ baseURL: anthropicBase, apiKey: key, maxRetries: 0 });
  const message = await claude.messages.create({
    model: 'demo/echo',
    max_tokens: 16,
    messages: [{ role: 'user', content: 'hello from the anthropic sdk' }],
  });
  expect(message.content[0]).toMatchObject({ type: 'text', text: 'hello from the anthropic sdk' });

  const answer = await chat(key);
  expect(answer.status).toBe(200);
  expect(((await answer.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe(
    'hello from sso',
  );

  // A reload shows no key: it was shown once, and is still active.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Your API key was shown once' })).toBeVisible();
  await expect(page.getByText(key)).toHaveCount(0);

  // The admin's key list names the owner and the issuer.
  await page.addInitScript((master) => {
    const storage = (globalThis as unknown as { sessionStorage: { setItem(n: string, v: string): void } })
      .sessionStorage;
    storage.setItem(
      'gatehouse.credentials',
      JSON.stringify({ masterKey: master, storeToken: 'st-sso-e2e-0123456789abcdef0123' }),
    );
  }, MASTER);
  await page.goto(`${urls.ui}gateway/keys`);
  await expect(page.getByText('alice@example.com', { exact: true })).toBeVisible();
  await expect(page.getByTestId('key-issuer')).toHaveText(`via ${idp.issuer}`);
});

test('signing out from the key page revokes the key at once', async ({ page }) => {
  await page.goto(urls.ui);
  await page.getByRole('button', { name: 'Sign in with Corp SSO' }).click();
  await page.getByLabel('User').fill('alice');
  await page.getByRole('button', { name: 'Sign in to Test IdP' }).click();
  const key = (await page.getByTestId('sso-key-secret').textContent())!.trim();
  expect((await chat(key)).status).toBe(200);
  await page.getByTestId('sso-sign-out').click();
  await expect(page.getByTestId('sso-signed-out')).toContainText('is revoked');
  await expect(page.getByRole('link', { name: 'Also sign out of Corp SSO' })).toBeVisible();
  expect((await chat(key)).status).toBe(401);
  await page.getByTestId('sso-back').click();
  await expect(page.getByRole('heading', { name: 'Sign in to Gatehouse' })).toBeVisible();
});

test('signing out everywhere revokes every key the account holds from the provider', async ({ page, browser }) => {
  const signIn = async (tab: typeof page): Promise<string> => {
    await tab.goto(urls.ui);
    await tab.getByRole('button', { name: 'Sign in with Corp SSO' }).click();
    await tab.getByLabel('User').fill('alice');
    await tab.getByRole('button', { name: 'Sign in to Test IdP' }).click();
    return (await tab.getByTestId('sso-key-secret').textContent())!.trim();
  };
  // Another browser (a second laptop) signed in too: its key is the one a lost laptop leaves behind.
  const other = await browser.newContext();
  const elsewhere = await signIn(await other.newPage());
  await other.close();
  const here = await signIn(page);
  expect((await chat(elsewhere)).status).toBe(200);
  await page.getByTestId('sso-sign-out-everywhere').click();
  await expect(page.getByTestId('sso-signed-out')).toContainText('keys are revoked: every key of this account');
  expect((await chat(here)).status).toBe(401);
  expect((await chat(elsewhere)).status).toBe(401);
});
