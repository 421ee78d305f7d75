import { startTestIdp, type TestIdp } from '../test/support/oidc-idp.js';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.js';
import { startOwnServer, type OwnServer } from './own-server.js';

// Its own provider and app: the UI opened under `localhost` while the gateway listens on 127.0.0.1.
const MASTER = 'gk-master-ssofix-e2e-0123456789abcdef';
const STORE_TOKEN = 'st-ssofix-e2e-0123456789abcdef0123';
let idp: TestIdp;
let server: OwnServer;
let localUi: string;

test.beforeAll(async () => {
  idp = await startTestIdp({
    accounts: {
      alice: { email: 'alice@example.com', groups: ['ml-team'] },
      carol: { email: 'carol@example.com', groups: ['contractors'] },
    },
  });
  server = await startOwnServer(
    'ssofix',
    {
      sso: {
        providers: {
          corp: {
            name: 'Corp SSO',
            issuer: idp.issuer,
            client_id: idp.clientId,
            client_secret_env: 'CORP_OIDC_SECRET',
            scopes: ['openid', 'email', 'groups'],
            mappings: [{ value: 'ml-team', team: 'ml', scopes: ['chat'] }],
            allow_insecure_http: true,
          },
        },
      },
    },
    { PROXY_MASTER_KEY: MASTER, STORE_TOKEN, CORP_OIDC_SECRET: idp.clientSecret },
  );
  const gateway = new URL(server.urls.gateway);
  expect(gateway.hostname).toBe('127.0.0.1');
  localUi = `http://localhost:${gateway.port}/ui/`;
  idp.redirectUris = [`${server.urls.gateway}/sso/callback`, `http://localhost:${gateway.port}/sso/callback`];
});

test.afterAll(async () => {
  await server?.stop();
  await idp?.close();
});

async function signIn(page: Page, user: string): Promise<void> {
  await page.goto(localUi);
  await page.getByRole('button', { name: 'Sign in with Corp SSO' }).click();
  await page.getByLabel('User').fill(user);
  await page.getByRole('button', { name: 'Sign in to Test IdP' }).click();
}

test('the UI opened at localhost signs in with the provider, and a reload says the key is still active', async ({
  page,
}) => {
  await signIn(page, 'alice');
  await expect(page.getByRole('heading', { name: 'Your API key' })).toBeVisible();
  expect(new URL(page.url()).host).toBe(new URL(localUi).host);
  const key = (await page.getByTestId('sso-key-secret').textContent())!.trim();
  const prefix = key.slice(0, 8);
  // Corp SSO gives no refresh token (no offline_access) and sets no key_ttl_seconds: nothing ends the key.
  await expect(page.getByTestId('sso-expires')).toHaveText(/^never expires; not re-checked against Corp SSO/);

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Your API key was shown once' })).toBeVisible();
  await expect(page.getByTestId('sso-shown-before')).toContainText('is still active');
  await expect(page.getByTestId('sso-shown-before')).toContainText(prefix);
  await expect(page.getByTestId('sso-shown-before')).not.toContainText('……');
  await expect(page.getByText('No API key was issued')).toHaveCount(0);
  await expect(page.getByText(key)).toHaveCount(0);
});

test('the UI opened at localhost signs in with the master key', async ({ page }) => {
  await page.goto(localUi);
  await page.getByLabel('Gateway master key').fill(MASTER);
  await page.getByLabel('Store token').fill(STORE_TOKEN);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to Gatehouse' })).toHaveCount(0);
  await expect(page.getByRole('navigation').first()).toBeVisible();
});

test('the sign-in-failed page shows its own words for an error in the address, never the address text', async ({
  page,
}) => {
  const lure = 'Your account is locked. Call +1 555 0100 to restore access';
  const query = new URLSearchParams({ error: 'permission_error', error_description: lure });
  await page.goto(`${localUi}sso/done?${query}`);
  await expect(page.getByRole('heading', { name: 'Sign-in failed' })).toBeVisible();
  await expect(page.getByText('Your account is not allowed an API key here.')).toBeVisible();
  await expect(page.getByText(lure)).toHaveCount(0);
  await expect(page.getByTestId('sso-failure-detail')).toHaveCount(0);
});

test("a failed sign-in shows the gateway's reason", async ({ page }) => {
  await signIn(page, 'carol');
  await expect(page.getByRole('heading', { name: 'Sign-in failed' })).toBeVisible();
  await expect(page.getByText('Your account is not allowed an API key here.')).toBeVisible();
  await expect(page.getByTestId('sso-failure-detail')).toContainText(
    'this account matches no claim mapping of Corp SSO',
  );
  // The page's address carries the reference anyone with the link can look up: no address in it.
  await expect(page.getByTestId('sso-failure-detail')).not.toContainText('carol@example.com');
});
