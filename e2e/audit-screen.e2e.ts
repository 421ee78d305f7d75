import { expect, gatewayAdmin, openSignedIn, saveScreenshot, test } from './fixtures.js';

/** Calls the admin API and fails the test on an answer other than `status`. */
async function admin<T>(method: string, path: string, body: unknown, status: number): Promise<T> {
  const response = await gatewayAdmin(path, method, body);
  const text = await response.text();
  expect(response.status, `${method} ${path}: ${text}`).toBe(status);
  return JSON.parse(text) as T;
}

test('audit: admin changes are listed newest first, filtered from the address, with before and after', async ({
  page,
}) => {
  const run = Date.now();
  const team = `audit-team-${run}`;
  await admin('POST', '/internal/teams', { id: team }, 201);
  const issued = await admin<{ id: string; key: string }>(
    'POST',
    '/internal/api-keys',
    { name: `audit-key-${run}`, usd_daily_budget: 5 },
    201,
  );
  await admin('PATCH', `/internal/api-keys/${issued.id}`, { usd_daily_budget: 12.5 }, 200);
  await admin('DELETE', `/internal/teams/${team}`, undefined, 200);
  // The API leaves the secret out; the screen must show nothing that it does not.
  const trail = await (await gatewayAdmin(`/internal/audit?target=${issued.id}`)).text();
  expect(trail).not.toContain(issued.key);

  await openSignedIn(page, 'gateway/cache');
  await page.getByRole('link', { name: 'Audit' }).click();
  const table = page.getByTestId('audit-table');
  const rows = table.locator('tbody tr');
  // Newest first: the team's deletion, the key's budget change, its issue, the team's creation.
  await expect(rows.nth(0)).toContainText('team.delete');
  await expect(rows.nth(0)).toContainText(team);
  await expect(rows.nth(0)).toContainText('master');
  await expect(rows.nth(1)).toContainText('api_key.update');
  await expect(rows.nth(1)).toContainText(issued.id);
  await expect(rows.nth(1).getByTestId('audit-summary')).toHaveText('usd_daily_budget: 5 → 12.5');
  await expect(rows.nth(2)).toContainText('api_key.create');
  await expect(rows.nth(3)).toContainText('team.create');
  await expect(rows.nth(3)).toContainText(team);
  await saveScreenshot(page, 'gateway-audit');

  // The family filter narrows the list and is kept in the address.
  await page.getByRole('combobox', { name: 'Action' }).selectOption('api_key.*');
  await expect(page).toHaveURL(/action=api_key\.\*/);
  await expect(rows.first()).toContainText('api_key.update');
  await expect(table).not.toContainText('team.delete');
  await page.getByRole('textbox', { name: 'Target' }).fill(issued.id);
  await expect(page).toHaveURL(new RegExp(`target=${issued.id}`));
  await expect(rows).toHaveCount(2);
  await page.reload();
  await expect(rows).toHaveCount(2);
  await expect(page.getByRole('textbox', { name: 'Target' })).toHaveValue(issued.id);

  // From the keyboard: the second row (the issue), then back up to the update, opened with Enter.
  await table.focus();
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await page.keyboard.press('k');
  await page.keyboard.press('Enter');
  const drawer = page.getByTestId('audit-drawer');
  await expect(drawer).toContainText('api_key.update');
  const change = drawer.getByTestId('audit-changes').locator('tbody tr').filter({ hasText: 'usd_daily_budget' });
  await expect(change.locator('td')).toHaveText(['usd_daily_budget', '5', '12.5']);
  await expect(page.locator('body')).not.toContainText(issued.key);
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();

  // The details name the key and its budget, never its secret.
  await rows.nth(1).getByText('api_key.create').dblclick();
  await expect(drawer).toContainText('api_key.create');
  await expect(drawer.getByTestId('audit-details')).toContainText(`audit-key-${run}`);
  await expect(page.locator('body')).not.toContainText(issued.key);
  expect(await page.content()).not.toContain(issued.key);

  // A key target opens the Keys screen on that key.
  await drawer.getByRole('link', { name: issued.id }).click();
  await expect(page).toHaveURL(new RegExp(`gateway/keys\\?q=${issued.id}`));
});

test('audit: a change made while the screen is open appears without a refresh', async ({ page }) => {
  await openSignedIn(page, 'gateway/audit');
  const rows = page.getByTestId('audit-table').locator('tbody tr');
  await expect(rows.first()).toBeVisible();
  const team = `audit-live-${Date.now()}`;
  await admin('POST', '/internal/teams', { id: team }, 201);
  await expect(rows.first()).toContainText('team.create');
  await expect(rows.first()).toContainText(team);
});

test('audit: a filter that matches nothing says so, with a way back', async ({ page }) => {
  await openSignedIn(page, 'gateway/audit?target=no-such-target-anywhere');
  await expect(page.getByText('No event matches the filters')).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).first().click();
  await expect(page.getByTestId('audit-table')).toBeVisible();
  await expect(page).not.toHaveURL(/target=/);
});

test('audit: at 1024 px the list and an open event fit the window', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  const team = `audit-narrow-${Date.now()}`;
  await admin('POST', '/internal/teams', { id: team, usd_daily_budget: 3 }, 201);
  await admin('PATCH', `/internal/teams/${team}`, { usd_daily_budget: 4, name: 'Narrow team' }, 200);
  await openSignedIn(page, `gateway/audit?target=${team}`);
  const rows = page.getByTestId('audit-table').locator('tbody tr');
  await expect(rows.first()).toContainText('team.update');
  await expect(rows.first().getByTestId('audit-summary')).toBeVisible();
  await rows.first().getByText('team.update').dblclick();
  const drawer = page.getByTestId('audit-drawer');
  const change = drawer.getByTestId('audit-changes').locator('tbody tr').filter({ hasText: 'usd_daily_budget' });
  await expect(change.locator('td')).toHaveText(['usd_daily_budget', '3', '4']);
  await saveScreenshot(page, 'gateway-audit-1024');
  const box = await drawer.boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(1024);
  // The page itself never scrolls sideways (a wide table scrolls in its own frame).
  const pageWidth = await page.locator('html').evaluate((root) => root.scrollWidth);
  expect(pageWidth).toBeLessThanOrEqual(1024);
});
