import { expect, gatewayAdmin, openSignedIn, test } from './fixtures.js';

/**
 * A key whose budget is used up is still "Active" (its secret is valid), but every request it sends is
 * refused until the budget's window ends: its row says "Over budget", naming the budget in its tooltip,
 * so the list does not read as if the key worked.
 */
test('keys: a key with a spent budget says Over budget on its row, one without says nothing more', async ({ page }) => {
  const tag = `budget${Date.now()}`;
  // A $0 daily budget freezes the key's spending: used up from the start.
  const frozen = await gatewayAdmin('/internal/api-keys', 'POST', {
    name: `${tag}-frozen`,
    scopes: ['chat'],
    usd_daily_budget: 0,
  });
  expect(frozen.status).toBe(201);
  expect((await gatewayAdmin('/internal/api-keys', 'POST', { name: `${tag}-free`, scopes: ['chat'] })).status).toBe(
    201,
  );

  await openSignedIn(page, `gateway/keys?q=${tag}`);
  const table = page.getByTestId('keys-table');
  const frozenRow = table.getByRole('row').filter({ hasText: `${tag}-frozen` });
  const freeRow = table.getByRole('row').filter({ hasText: `${tag}-free` });
  await expect(frozenRow.getByText('Over budget', { exact: true })).toBeVisible();
  await expect(frozenRow.getByTitle(/^Refusing requests: key spend budget per day/)).toBeVisible();
  await expect(freeRow.getByText('Active', { exact: true })).toBeVisible();
  await expect(freeRow.getByText('Over budget', { exact: true })).toHaveCount(0);
});
