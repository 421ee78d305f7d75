import { expect, gatewayAdmin, openSignedIn, test } from './fixtures.js';

/**
 * Deleting the last collection removes the row's button and the table with it: focus goes to New
 * collection, the screen's first action, rather than to the page's body.
 */
test('collections: after the last collection is deleted, focus is on New collection', async ({ page }) => {
  const name = `last-${Date.now()}`;
  expect((await gatewayAdmin('/internal/rag/collections', 'POST', { name })).status).toBe(201);
  try {
    // Other tests' collections are left out, so this one is the screen's only collection.
    await page.route('**/internal/rag/collections', async (route) => {
      if (route.request().method() !== 'GET') return route.fallback();
      const response = await route.fetch();
      const body = (await response.json()) as { data: { name: string }[] };
      body.data = body.data.filter((collection) => collection.name === name);
      return route.fulfill({ response, json: body });
    });
    await openSignedIn(page, 'gateway/collections');
    await page.getByRole('button', { name: `Delete ${name}`, exact: true }).click();
    await page.getByRole('button', { name: 'Delete collection' }).click();
    await expect(page.getByText('No collections yet')).toBeVisible();
    await expect(page.getByTestId('new-collection')).toBeFocused();
  } finally {
    await gatewayAdmin(`/internal/rag/collections/${name}`, 'DELETE');
  }
});
