import { expect, gatewayAdmin, openSignedIn, test } from './fixtures.js';

test('Cache: a leave asked while Save is on its way goes on once the save lands, instead of offering to discard what was saved', async ({
  page,
}) => {
  await openSignedIn(page, 'gateway/cache');
  const ttl = page.getByLabel('Time to live (seconds)');
  await expect(ttl).toBeVisible();
  // The save is held until the leave has been asked, so the two overlap as they do on a slow link.
  let releaseSave: () => void = () => undefined;
  const saveHeld = new Promise<void>((resolve) => (releaseSave = resolve));
  await page.route('**/internal/cache', async (route) => {
    if (route.request().method() === 'PUT') await saveHeld;
    await route.continue();
  });
  try {
    await ttl.fill('4343');
    await page.getByTestId('save-cache').click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Keys' }).click();
    const dialog = page.getByRole('dialog', { name: 'Discard unsaved changes to Cache?' });
    await expect(dialog).toBeVisible();

    releaseSave();
    // Nothing is left to discard: the prompt goes, and so does the navigation it held.
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/ui\/gateway\/keys$/);
    await expect(page.getByRole('heading', { name: 'Keys', level: 1 })).toBeVisible();
    const saved = (await (await gatewayAdmin('/internal/cache')).json()) as { settings: { ttl_seconds?: number } };
    expect(saved.settings.ttl_seconds).toBe(4343);
  } finally {
    releaseSave();
    await gatewayAdmin('/internal/cache', 'PUT', { reset: true });
  }
});
