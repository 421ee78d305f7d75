import { expect, openSignedIn, saveScreenshot, test, type App } from './fixtures.js';

/** Issues a key through the admin API; the secret comes back once. */
async function issueKey(app: App, body: Record<string, unknown>): Promise<{ id: string; key: string }> {
  const response = await fetch(`${app.gatewayUrl}/internal/api-keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${app.masterKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string; key: string };
}

/** One chat request to the demo model with a key; the status it got. */
async function chat(app: App, key: string, content: string): Promise<number> {
  const response = await fetch(`${app.gatewayUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'demo/echo', messages: [{ role: 'user', content }] }),
  });
  await response.arrayBuffer();
  return response.status;
}

test('a team and a user with a budget created in the UI; their key’s request shows in the meters and today’s spend', async ({
  page,
  app,
  consoleErrors,
}) => {
  const stamp = Date.now();
  const team = `e2e-team-${stamp}`;
  const user = `e2e-user-${stamp}`;
  await openSignedIn(page, 'gateway/people');
  await expect(page).toHaveTitle(/Users & teams/);

  // A team, checked by the shared schema before it is sent.
  await page.getByTestId('new-team').click();
  const dialog = page.getByTestId('principal-dialog');
  await dialog.getByLabel('Id', { exact: true }).fill('not a valid id!');
  await dialog.getByTestId('confirm-principal').click();
  await expect(dialog.locator('.field-error')).toContainText('letters and digits');
  await dialog.getByLabel('Id', { exact: true }).fill(team);
  await dialog.getByLabel('Token budget per day').fill('50000');
  await dialog.getByTestId('confirm-principal').click();
  await expect(dialog).toBeHidden();
  const teamRow = page.getByTestId('teams-table').getByRole('row').filter({ hasText: team });
  await expect(teamRow).toContainText('token budget per day');

  // A user in it with a daily token budget of their own.
  await page.getByTestId('new-user').click();
  await dialog.getByLabel('Id', { exact: true }).fill(user);
  await dialog.getByLabel('Team').selectOption(team);
  await dialog.getByLabel('Requests per minute').fill('abc');
  await dialog.getByTestId('confirm-principal').click();
  await expect(dialog.locator('.field-error')).toContainText('whole number');
  await dialog.getByLabel('Requests per minute').fill('');
  await dialog.getByLabel('Token budget per day').fill('5000');
  await dialog.getByTestId('confirm-principal').click();
  await expect(dialog).toBeHidden();
  const userRow = page.getByTestId('users-table').getByRole('row').filter({ hasText: user });
  await expect(userRow).toContainText(team);
  const userMeter = userRow.locator('[data-limit-type="user_daily"]');
  await expect(userMeter).toContainText('/ 5K');
  await expect(userMeter).toHaveAttribute('aria-valuenow', '0');
  await expect(userRow.getByTestId('today')).toContainText('0 req');

  // A key for the user, and a request with it: the meter and today's spend move without a reload.
  const issued = await issueKey(app, { name: `e2e-budget-${stamp}`, user });
  expect(await chat(app, issued.key, 'spend some of the budget')).toBe(200);
  await expect(userRow.getByTestId('today')).toContainText('1 req');
  await expect(userMeter).not.toHaveAttribute('aria-valuenow', '0');
  await expect(teamRow.getByTestId('today')).toContainText('1 req');
  await expect(page.getByTestId('spend-table')).toContainText(user);
  await saveScreenshot(page, 'gateway-people');

  // The keys screen shows the same budgets on the key.
  await page.getByRole('link', { name: 'Keys' }).click();
  const keyRow = page
    .getByTestId('keys-table')
    .getByRole('row')
    .filter({ hasText: `e2e-budget-${stamp}` });
  const keyUserMeter = keyRow.getByRole('meter', { name: `user ${user} token budget per day` });
  await expect(keyUserMeter).toContainText('/ 5K');
  await expect(keyUserMeter).not.toHaveAttribute('aria-valuenow', '0');
  await expect(keyRow.getByRole('meter', { name: `team ${team} token budget per day` })).toContainText('/ 50K');

  // Usage per user and per team carries the cost column.
  await page.getByRole('link', { name: 'Usage' }).click();
  await page.getByRole('radio', { name: 'Per user' }).click();
  const totals = page.getByRole('table', { name: 'Usage totals' });
  await expect(totals).toContainText(user);
  await expect(totals.getByRole('columnheader', { name: 'Cost' })).toBeVisible();
  await page.getByRole('radio', { name: 'Per team' }).click();
  await expect(totals).toContainText(team);

  // The team cannot go while its user and key belong to it: Delete is disabled, with the reason.
  await page.getByRole('link', { name: 'Users & teams' }).click();
  await teamRow.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByTestId('delete-principal-dialog');
  await expect(confirm.getByTestId('confirm-delete-principal')).toBeDisabled();
  await expect(confirm).toContainText('cannot be deleted while 1 user and 1 active key belong to it');
  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  await expect(teamRow).toBeVisible();

  // From the keyboard: the teams table takes focus, Enter opens the row, Esc closes the dialog.
  await page.getByTestId('teams-table').focus();
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // The browser logs the refused deletion; that refusal is what the test expected.
  consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((line) => !/ 409 /.test(line)));
});

test('a key’s rate limit edited in the UI applies to the next request, no restart', async ({ page, app }) => {
  const name = `e2e-rpm-${Date.now()}`;
  const issued = await issueKey(app, { name });
  await openSignedIn(page, 'gateway/keys');
  const row = page.getByTestId('keys-table').getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('No limits');

  await row.getByRole('button', { name: 'Edit limits' }).click();
  const dialog = page.getByTestId('edit-key-limits-dialog');
  await dialog.getByLabel('Requests per minute', { exact: true }).fill('0');
  await dialog.getByTestId('confirm-key-limits').click();
  await expect(dialog.locator('.field-error')).toContainText('whole number');
  await dialog.getByLabel('Requests per minute', { exact: true }).fill('1');
  await saveScreenshot(page, 'gateway-edit-key-limits');
  await dialog.getByTestId('confirm-key-limits').click();
  await expect(dialog).toBeHidden();
  const meter = row.locator('[data-limit-type="requests"]');
  await expect(meter).toContainText('0 / 1');

  expect(await chat(app, issued.key, 'first')).toBe(200);
  expect(await chat(app, issued.key, 'second')).toBe(429);
  // The meter shows the bucket used up (and says when all of it is available again).
  await expect(meter).toContainText('1 / 1');
  await expect(meter).toHaveClass(/limit-full/);
  await expect(meter).toHaveAttribute('title', /All 1 available again in/);
  await saveScreenshot(page, 'gateway-keys-limits');

  // Cleared in the UI: the key has no limit again, at once.
  await row.getByRole('button', { name: 'Edit limits' }).click();
  await dialog.getByLabel('Requests per minute', { exact: true }).fill('');
  await dialog.getByTestId('confirm-key-limits').click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText('No limits');
  expect(await chat(app, issued.key, 'third')).toBe(200);
});

test('the users & teams screen in the dark theme, reached with g e', async ({ page }) => {
  await openSignedIn(page, '', { theme: 'dark' });
  await expect(page.getByTestId('service-gateway')).toBeVisible();
  await page.keyboard.press('g');
  await page.keyboard.press('e');
  await expect(page).toHaveURL(/gateway\/people/);
  await expect(page.getByTestId('spend-panel')).toBeVisible();
  await expect(page.getByTestId('teams-table')).toBeFocused();
  await saveScreenshot(page, 'gateway-people-dark');
});
