import { expect, openSignedIn, test } from './fixtures.js';

/**
 * What the UI offers people who drive it from scripts. The first test is the example of docs/ui.md's
 * "Automating the UI", line for line (only the import differs), so the documented recipe keeps working.
 */

// The addresses and credentials of the app under test (the global setup sets these).
const ui = process.env.GATEHOUSE_UI_URL!;
const masterKey = process.env.GATEHOUSE_MASTER_KEY!;
const storeToken = process.env.GATEHOUSE_STORE_TOKEN!;

test('issue a key from a remembered sign-in', async ({ browser }) => {
  // Sign in once with "Remember on this computer": storageState() keeps localStorage, not sessionStorage.
  const setup = await browser.newPage();
  await setup.goto(new URL('gateway/keys', ui).href);
  await setup.getByLabel('Gateway master key').fill(masterKey);
  await setup.getByLabel('Store token').fill(storeToken);
  await setup.getByLabel('Remember on this computer').check();
  await setup.getByRole('button', { name: 'Sign in', exact: true }).click();
  // Wait on the screen's heading, never on 'networkidle' (polls and the live stream never go quiet).
  await expect(setup.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();
  const storageState = await setup.context().storageState();
  await setup.close();

  const context = await browser.newContext({ storageState });
  const page = await context.newPage();
  await page.goto(new URL('gateway/keys', ui).href);
  await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();

  const name = `recipe-${Date.now()}`;
  await page.getByRole('button', { name: 'Issue key' }).click();
  // The page behind an open dialog is inert but still matched (its own "Issue key"): scope to the dialog.
  const form = page.getByRole('dialog', { name: 'Issue an API key' });
  await form.getByLabel('Name', { exact: true }).fill(name);
  await form.getByRole('button', { name: 'Issue key' }).click();
  // Titles quote names with “ and ”: match them with a regular expression.
  const issued = page.getByRole('dialog', { name: new RegExp(`^Key .${name}. issued$`) });
  await expect(issued.locator('code').first()).toHaveText(/^gk-/);
  await issued.getByRole('button', { name: 'I have copied the key' }).click();
  // A table whose rows open something is a grid; a row's name holds relative times ("just now").
  const keys = page.getByRole('grid', { name: 'API keys' });
  await expect(keys.getByRole('row', { name: new RegExp(name) })).toBeVisible();
  await context.close();
});

test('a sign-in refused after a click takes focus to the field refused, which says why', async ({
  page,
  app,
  consoleErrors,
}) => {
  await page.goto(app.uiUrl);
  await page.getByLabel('Gateway master key').fill('gk-master-wrong');
  await page.getByLabel('Store token').fill(app.storeToken);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  const masterKeyField = page.getByLabel('Gateway master key');
  await expect(masterKeyField).toBeFocused();
  await expect(masterKeyField).toHaveAccessibleDescription(/The gateway did not accept this master key/);
  // The browser logs the refused request itself; that is the expected outcome here.
  consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((line) => !/401/.test(line)));
});

test('new deployments of one model have buttons named apart before they are saved', async ({ page }) => {
  await openSignedIn(page, 'gateway/models');
  // Two with their own base URLs (named by it), two on the provider's default (named by their place).
  for (const baseUrl of ['http://127.0.0.1:19551/v1', 'http://127.0.0.1:19552/v1', '', '']) {
    await page.getByRole('button', { name: 'Add deployment' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a deployment' });
    await dialog.getByLabel('Model', { exact: true }).fill('demo/echo');
    if (baseUrl) await dialog.getByLabel('Base URL').fill(baseUrl);
    await dialog.getByRole('button', { name: 'Add to draft' }).click();
    await expect(dialog).toHaveCount(0);
  }
  const table = page.getByRole('grid', { name: 'Deployments' });
  for (const row of [
    'demo/echo, new, http://127.0.0.1:19551/v1',
    'demo/echo, new, http://127.0.0.1:19552/v1',
    'demo/echo, new deployment 3',
    'demo/echo, new deployment 4',
  ]) {
    await expect(table.getByRole('button', { name: `Edit ${row}`, exact: true })).toHaveCount(1);
    await expect(table.getByRole('button', { name: `Remove deployment ${row}`, exact: true })).toHaveCount(1);
    await expect(table.getByRole('button', { name: `Test connection of ${row}`, exact: true })).toHaveCount(1);
  }
});
