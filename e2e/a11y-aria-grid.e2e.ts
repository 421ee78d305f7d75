import { expect, gatewayAdmin, openSignedIn, test } from './fixtures.js';

/**
 * A table whose rows open something is an ARIA grid: focus stays on it, and its
 * aria-activedescendant names the highlighted row, so a screen reader hears each j/k move and the row
 * Enter opens. A table that only shows figures stays a table.
 */
test('the Keys table is a grid whose active descendant is the highlighted row', async ({ page }) => {
  const tag = `grid${Date.now()}`;
  for (const suffix of ['a', 'b']) {
    const issued = await gatewayAdmin('/internal/api-keys', 'POST', { name: `${tag} ${suffix}` });
    expect(issued.status).toBe(201);
  }
  await openSignedIn(page, `gateway/keys?q=${tag}`);
  const grid = page.getByRole('grid', { name: 'API keys' });
  await expect(grid).toBeFocused();
  await expect(grid).toHaveAttribute('data-testid', 'keys-table');
  await expect(grid.getByRole('row')).toHaveCount(3);
  await expect(grid).not.toHaveAttribute('aria-activedescendant');

  const activeRow = async (): Promise<string> => {
    const id = await grid.getAttribute('aria-activedescendant');
    expect(id).toMatch(/^\S+$/);
    const row = page.locator(`[id="${id}"]`);
    await expect(row).toHaveAttribute('aria-selected', 'true');
    expect(await row.evaluate((element) => element.tagName)).toBe('TR');
    return (await row.innerText()).includes(`${tag} a`) ? 'a' : 'b';
  };
  await page.keyboard.press('j');
  const first = await activeRow();
  await page.keyboard.press('j');
  const second = await activeRow();
  expect(second).not.toBe(first);
  await expect(grid.locator('[aria-selected="true"]')).toHaveCount(1);

  // The highlighted row keeps its id when the rows change around it.
  const id = await grid.getAttribute('aria-activedescendant');
  await page.getByLabel('Filter keys').fill(`${tag} ${second}`);
  await expect(grid.getByRole('row')).toHaveCount(2);
  await expect(grid).toHaveAttribute('aria-activedescendant', id!);
});

test('a table of figures only (Usage totals) stays a table', async ({ page }) => {
  await openSignedIn(page, 'gateway/usage');
  await expect(page.getByRole('heading', { name: 'Usage', level: 1 })).toBeVisible();
  await expect(page.getByRole('grid')).toHaveCount(0);
});
