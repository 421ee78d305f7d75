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

test('keys: two keys of one name get buttons told apart by their prefix', async ({ page }) => {
  const name = `twin-${Date.now()}`;
  const made: Array<{ id: string; key_prefix: string }> = [];
  for (let index = 0; index < 2; index += 1) {
    const created = await gatewayAdmin('/internal/api-keys', 'POST', { name });
    expect(created.status).toBe(201);
    made.push((await created.json()) as { id: string; key_prefix: string });
  }
  await openSignedIn(page, `gateway/keys?q=${name}`);
  for (const key of made)
    await expect(page.getByRole('button', { name: `Revoke ${name} (${key.key_prefix})`, exact: true })).toHaveCount(1);
  await page.getByRole('button', { name: `Revoke ${name} (${made[1]!.key_prefix})`, exact: true }).click();
  await page.getByTestId('confirm-revoke').click();
  const listed = (await (await gatewayAdmin('/internal/api-keys?include_revoked=true')).json()) as {
    data: Array<{ id: string; status: string }>;
  };
  expect(listed.data.find((key) => key.id === made[1]!.id)?.status).toBe('revoked');
  expect(listed.data.find((key) => key.id === made[0]!.id)?.status).not.toBe('revoked');
});
