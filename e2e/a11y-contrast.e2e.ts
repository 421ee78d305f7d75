import { expect, openSignedIn, test } from './fixtures.js';
import { expectReadable } from './contrast-helpers.js';

test('dark theme: a danger button reads at 4.5:1 or more, at rest and under the pointer', async ({ page }) => {
  await openSignedIn(page, 'gateway/cache', { theme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  const purge = page.getByRole('button', { name: 'Purge everything' });
  await expect(purge).toBeVisible();
  await expect(purge).toHaveClass(/btn-danger/);
  await expectReadable(purge, 'the Purge everything button');
  await purge.hover();
  // Read once the colour's short transition has run.
  await expect(async () => expectReadable(purge, 'the Purge everything button under the pointer')).toPass();
});

test('light theme: a danger button still reads at 4.5:1 or more', async ({ page }) => {
  await openSignedIn(page, 'gateway/cache', { theme: 'light' });
  const purge = page.getByRole('button', { name: 'Purge everything' });
  await expect(purge).toBeVisible();
  await expectReadable(purge, 'the Purge everything button');
});
