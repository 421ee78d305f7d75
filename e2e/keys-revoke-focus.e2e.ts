import { expect, gatewayAdmin, openSignedIn, test } from './fixtures.js';

/**
 * Revoking the only key the filter matches removes its row and the table: focus goes to the filter,
 * where the next search starts, rather than to the page's body.
 */
test('keys: after revoking the filter’s only match, focus is on the filter', async ({ page }) => {
  const name = `revoke-focus-${Date.now()}`;
  expect((await gatewayAdmin('/internal/api-keys', 'POST', { name })).status).toBe(201);
  // Another key, so the screen still has keys to filter once this one is revoked.
  expect((await gatewayAdmin('/internal/api-keys', 'POST', { name: `other-${Date.now()}` })).status).toBe(201);
  await openSignedIn(page, `gateway/keys?q=${name}`);
  await page.getByRole('button', { name: `Revoke ${name}`, exact: true }).click();
  await page.getByTestId('confirm-revoke').click();
  await expect(page.getByText(`No key matches “${name}”`)).toBeVisible();
  await expect(page.getByLabel('Filter keys')).toBeFocused();
});
