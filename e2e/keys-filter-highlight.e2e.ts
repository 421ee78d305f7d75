import { expect, gatewayAdmin, openSignedIn, test } from './fixtures.js';

/**
 * The Keys table's highlighted row follows its key through the filter: Enter never opens a key the
 * filter hid, nor throws when the highlighted row is past the end of a shorter list.
 */
test('keys: a highlighted key hidden by the filter is not opened by Enter, and is highlighted again when shown', async ({
  page,
}) => {
  const tag = `hl${Date.now()}`;
  for (const suffix of ['a', 'b', 'c']) {
    const issued = await gatewayAdmin('/internal/api-keys', 'POST', { name: `${tag}-${suffix}` });
    expect(issued.status).toBe(201);
  }
  await openSignedIn(page, `gateway/keys?q=${tag}`);
  const table = page.getByTestId('keys-table');
  await expect(table).toBeFocused();
  await page.keyboard.press('End');
  const highlighted = table.locator('tbody tr[aria-selected="true"]');
  await expect(highlighted).toHaveCount(1);
  const names = ['a', 'b', 'c'].map((suffix) => `${tag}-${suffix}`);
  const text = await highlighted.innerText();
  const name = names.find((key) => text.includes(key))!;
  const other = names.find((key) => key !== name)!;

  // Filtered down to another key: nothing is highlighted, so Enter opens nothing.
  // `/` selects what the filter holds, so typing replaces it.
  await page.keyboard.press('/');
  await page.keyboard.type(other);
  await expect(table.locator('tbody tr')).toHaveCount(1);
  await expect(highlighted).toHaveCount(0);
  await table.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('edit-key-limits-dialog')).toHaveCount(0);

  // Shown again, alone or among the others, the same key is the highlighted one.
  await page.getByLabel('Filter keys').fill(name);
  await expect(highlighted).toHaveCount(1);
  await expect(highlighted).toContainText(name);
  await page.getByLabel('Filter keys').fill(tag);
  await expect(highlighted).toHaveCount(1);
  await expect(highlighted).toContainText(name);
});

test('keys: ↓ in the filter moves into the table on the first match, and Enter there opens it', async ({ page }) => {
  const name = `down${Date.now()}`;
  expect((await gatewayAdmin('/internal/api-keys', 'POST', { name })).status).toBe(201);
  await openSignedIn(page, 'gateway/keys');
  const table = page.getByTestId('keys-table');
  // The filter is there once the keys are: `/` before that would focus nothing.
  await expect(table).toBeFocused();
  await page.keyboard.press('/');
  await page.keyboard.type(name);
  await expect(table.locator('tbody tr')).toHaveCount(1);
  await page.keyboard.press('ArrowDown');
  await expect(table).toBeFocused();
  await expect(table.locator('tbody tr[aria-selected="true"]')).toContainText(name);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('edit-key-limits-dialog')).toBeVisible();
});
