import { expect, gatewayAdmin, openSignedIn, test } from './fixtures.js';

/** The open collection is in the address, as every other screen's selection is: a reload or a link opens it. */
test('collections: the open collection survives a reload and opens from a link', async ({ page }) => {
  const name = `link-${Date.now()}`;
  expect((await gatewayAdmin('/internal/rag/collections', 'POST', { name })).status).toBe(201);
  try {
    await openSignedIn(page, 'gateway/collections');
    await page.getByRole('button', { name: `Open ${name}`, exact: true }).click();
    await expect(page.getByRole('heading', { name, exact: true })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`[?&]collection=${name}(&|$)`));

    await page.reload();
    await expect(page.getByRole('heading', { name, exact: true })).toBeVisible();

    await openSignedIn(page, `gateway/collections?collection=${name}`);
    await expect(page.getByRole('heading', { name, exact: true })).toBeVisible();
  } finally {
    await gatewayAdmin(`/internal/rag/collections/${encodeURIComponent(name)}`, 'DELETE');
  }
});
