import { expect, saveScreenshot, test } from './fixtures.js';

test('signs in with the master key and store token, and shows both services healthy', async ({ page, app }) => {
  await page.goto(app.uiUrl);
  await expect(page.getByRole('heading', { name: 'Sign in to Gatehouse' })).toBeVisible();
  await saveScreenshot(page, 'login');

  await page.getByLabel('Gateway master key').fill(app.masterKey);
  await page.getByLabel('Store token').fill(app.storeToken);
  await page.getByRole('button', { name: 'Sign in' }).click();

  await expect(page.getByTestId('health-gateway')).toContainText('Healthy');
  await expect(page.getByTestId('health-store')).toContainText('Healthy');
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  await expect(page.getByTestId('service-gateway')).toContainText('Healthy');
  await expect(page.getByTestId('service-store')).toContainText('Healthy');
  await saveScreenshot(page, 'overview');
});

test('refuses a wrong master key with the server message', async ({ page, app, consoleErrors }) => {
  await page.goto(app.uiUrl);
  await page.getByLabel('Gateway master key').fill('gk-master-wrong');
  await page.getByLabel('Store token').fill(app.storeToken);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('The gateway did not accept this master key')).toBeVisible();
  await expect(page.getByText('The store did not accept this token')).toHaveCount(0);
  // Both wrong: each field says so at once.
  await page.getByLabel('Store token').fill('st-wrong-0123456789abcdef');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('The gateway did not accept this master key')).toBeVisible();
  await expect(page.getByText('The store did not accept this token')).toBeVisible();
  // The browser logs the refused request itself; that is the expected outcome here.
  consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((line) => !/401/.test(line)));
});

test('a credential that stops working mid-session sends the browser back to sign in, with the reason', async ({
  page,
  app,
  consoleErrors,
}) => {
  // A saved session whose store token the store no longer accepts (rotated while the tab was open).
  await page.addInitScript(
    ([key]) => {
      type BrowserStorage = { setItem(name: string, value: string): void };
      const { sessionStorage } = globalThis as unknown as { sessionStorage: BrowserStorage };
      sessionStorage.setItem(
        'gatehouse.credentials',
        JSON.stringify({ masterKey: key, storeToken: 'st-rotated-0123456789abcdef' }),
      );
    },
    [app.masterKey] as const,
  );
  await page.goto(new URL('store/maintenance', app.uiUrl).toString());
  await expect(page.getByTestId('login-notice')).toContainText('The store no longer accepts the store token');
  await expect(page.getByLabel('Gateway master key')).toBeVisible();
  await saveScreenshot(page, 'login-credential-lost');
  // Signing in again with working credentials returns to the screen that was open.
  await page.getByLabel('Gateway master key').fill(app.masterKey);
  await page.getByLabel('Store token').fill(app.storeToken);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('gc-panel')).toBeVisible();
  consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((line) => !/401/.test(line)));
});
