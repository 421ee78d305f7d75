import { expect, gatewayAdmin, openSignedIn, test } from './fixtures.js';

interface CacheSettings {
  readonly settings: { readonly ttl_seconds: number };
}

const cacheSettings = async (): Promise<CacheSettings> =>
  (await (await gatewayAdmin('/internal/cache')).json()) as CacheSettings;

/**
 * Ctrl+S (⌘S on a Mac) saves a screen's draft, as in an editor, rather than opening the browser's
 * "Save page as": the Models, PII & policy and Cache screens all save through the same bar.
 */
test('ctrl+s saves the cache settings draft and the save bar goes', async ({ page }) => {
  const before = (await cacheSettings()).settings.ttl_seconds;
  try {
    await openSignedIn(page, 'gateway/cache');
    await page.getByLabel('Time to live (seconds)').fill(String(before + 7));
    const bar = page.getByRole('region', { name: 'Unsaved changes' });
    await expect(bar).toBeVisible();
    await page.keyboard.press('Control+s');
    await expect(bar).toBeHidden();
    expect((await cacheSettings()).settings.ttl_seconds).toBe(before + 7);
  } finally {
    await gatewayAdmin('/internal/cache', 'PUT', { ttl_seconds: before });
  }
});
