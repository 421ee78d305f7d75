import { expect, openSignedIn, test } from './fixtures.js';
import { apply, freshNamespace, screen } from './store-helpers.js';

const named = (namespace: string, branch = 'main'): RegExp =>
  new RegExp(`[?&]ns=${encodeURIComponent(namespace)}&branch=${encodeURIComponent(branch)}(&|$)`);

test('g shortcuts and the Overview link open the store on the scope the sidebar shows, named in the address', async ({
  page,
}) => {
  const namespace = freshNamespace('uinav', 'go');
  await apply(namespace, 'main', 'one', { 'a.txt': '1\n' });
  await apply(namespace, 'main', 'two', { 'a.txt': '2\n' });
  await openSignedIn(page, screen('history', namespace));
  await expect(page.getByTestId('log-row')).toHaveCount(2);

  // From a gateway screen, whose address has no scope of its own.
  await page.keyboard.press('g');
  await page.keyboard.press('k');
  await expect(page.getByRole('heading', { name: 'API keys', level: 1 })).toBeVisible();
  await page.keyboard.press('g');
  await page.keyboard.press('h');
  await expect(page).toHaveURL(named(namespace));
  await expect(page.getByTestId('log-row')).toHaveCount(2);
  // A selection made there keeps naming it, so the link opens the same revision anywhere.
  await page.keyboard.press('j');
  await expect(page).toHaveURL(/[?&]rev=\d+/);
  await expect(page).toHaveURL(named(namespace));

  await page.keyboard.press('g');
  await page.keyboard.press('o');
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  await page.getByRole('main').getByRole('link', { name: 'History', exact: true }).click();
  await expect(page).toHaveURL(named(namespace));
  await expect(page.getByRole('heading', { name: 'History', level: 1 })).toBeVisible();

  for (const key of ['d', 'c', 'b', 'p', 'n']) {
    await page.keyboard.press('g');
    await page.keyboard.press('k');
    await expect(page.getByRole('heading', { name: 'API keys', level: 1 })).toBeVisible();
    await page.keyboard.press('g');
    await page.keyboard.press(key);
    await expect(page, `g ${key}`).toHaveURL(named(namespace));
  }
});

test('a store screen opened without ns and branch writes the scope it shows into its address, replacing it', async ({
  page,
  app,
}) => {
  const namespace = freshNamespace('uinav', 'unnamed');
  const { revision } = await apply(namespace, 'main', 'only', { 'a.txt': '1\n' });
  await openSignedIn(page, screen('documents', namespace));
  await expect(page.getByRole('heading', { name: 'Documents', level: 1 })).toBeVisible();

  // The scope it opens on is the one used last in this browser: the address says which.
  await page.goto(new URL(`store/history?rev=${revision}`, app.uiUrl).toString());
  await expect(page).toHaveURL(named(namespace));
  await expect(page).toHaveURL(new RegExp(`[?&]rev=${revision}(&|$)`));
  await expect(page.getByTestId('revision-detail')).toContainText('only');

  // Replaced, not pushed: Back leaves the screen rather than going to the address without the scope.
  await page.goBack();
  await expect(page).toHaveURL(/\/store\/documents\?/);
});
