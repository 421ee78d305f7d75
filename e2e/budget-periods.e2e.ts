import { expect, openSignedIn, test, type App } from './fixtures.js';

/** Calls the admin API with the master key; the parsed answer. */
async function admin(app: App, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${app.gatewayUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${app.masterKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return response.json();
}

test('a key’s dollar budgets set in the UI are saved and shown in its meters', async ({ page, app }) => {
  const name = `e2e-usd-${Date.now()}`;
  const issued = (await admin(app, 'POST', '/internal/api-keys', { name })) as { id: string };
  await openSignedIn(page, 'gateway/keys');
  const row = page.getByTestId('keys-table').getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('No limits');

  await row.getByRole('button', { name: 'Edit limits' }).click();
  const dialog = page.getByTestId('edit-key-limits-dialog');
  const daily = dialog.getByLabel('Spend budget per day (USD)', { exact: true });
  const monthly = dialog.getByLabel('Spend budget per month (USD)', { exact: true });
  await daily.fill('two dollars');
  await dialog.getByTestId('confirm-key-limits').click();
  await expect(dialog.locator('.field-error')).toContainText(
    'Spend budget per day (USD) must be an amount (e.g. 2.50; 0 allows no spending)',
  );
  await daily.fill('2.50');
  await monthly.fill('40');
  await dialog.getByTestId('confirm-key-limits').click();
  await expect(dialog).toBeHidden();

  await expect(row.locator('[data-limit-type="key_cost_daily"]')).toContainText('$0 / $2.50');
  const monthMeter = row.locator('[data-limit-type="key_cost_monthly"]');
  await expect(monthMeter).toContainText('$0 / $40.00');
  await expect(monthMeter).toHaveAttribute('title', /end of the UTC month/);
  const saved = await admin(app, 'GET', `/internal/api-keys/${issued.id}`);
  expect(saved).toMatchObject({ usd_daily_budget: 2.5, usd_monthly_budget: 40 });

  // Opened again, the dialog starts from what was saved.
  await row.getByRole('button', { name: 'Edit limits' }).click();
  await expect(daily).toHaveValue('2.5');
  await expect(monthly).toHaveValue('40');
});

test('a user’s monthly budget set in the users & teams form is saved and shown', async ({ page, app }) => {
  const user = `e2e-monthly-${Date.now()}`;
  await openSignedIn(page, 'gateway/people');
  await page.getByTestId('new-user').click();
  const dialog = page.getByTestId('principal-dialog');
  await dialog.getByLabel('Id', { exact: true }).fill(user);
  await dialog.getByLabel('Spend budget per month (USD)').fill('-3');
  await dialog.getByTestId('confirm-principal').click();
  await expect(dialog.locator('.field-error')).toContainText(
    'Spend budget per month (USD) must be an amount (e.g. 2.50; 0 allows no spending)',
  );
  await dialog.getByLabel('Spend budget per month (USD)').fill('12.5');
  await dialog.getByTestId('confirm-principal').click();
  await expect(dialog).toBeHidden();
  const userRow = page.getByTestId('users-table').getByRole('row').filter({ hasText: user });
  await expect(userRow.locator('[data-limit-type="user_cost_monthly"]')).toContainText('$0 / $12.50');
  expect(await admin(app, 'GET', `/internal/users/${user}`)).toMatchObject({ usd_monthly_budget: 12.5 });
});
