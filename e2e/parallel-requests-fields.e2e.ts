import { expect, gatewayAdmin, openSignedIn, test } from './fixtures.js';

// `max_parallel_requests` of a key, a user and a team: edited where their other limits are, checked as
// the gateway checks it, and shown with their meters.

const LABEL = 'Requests in flight at once';
const PROBLEM = /^Requests in flight at once must be a whole number from 1 to 10,?000, or empty$/;

/** The admin API's record at `path`. */
async function record(path: string): Promise<Record<string, unknown>> {
  const response = await gatewayAdmin(path);
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

test('a key’s cap on requests in flight is set, checked and cleared in its limits dialog, and shown in its meters', async ({
  page,
}) => {
  const name = `e2e-parallel-key-${Date.now()}`;
  const issued = await gatewayAdmin('/internal/api-keys', 'POST', { name });
  expect(issued.status).toBe(201);
  const { id } = (await issued.json()) as { id: string };
  await openSignedIn(page, 'gateway/keys');
  const row = page.getByTestId('keys-table').getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('No limits');

  await row.getByRole('button', { name: 'Edit limits' }).click();
  const dialog = page.getByTestId('edit-key-limits-dialog');
  const field = dialog.getByLabel(LABEL, { exact: true });
  await expect(field).toHaveValue('');
  for (const wrong of ['0', '10001', '2.5']) {
    await field.fill(wrong);
    await dialog.getByTestId('confirm-key-limits').click();
    await expect(dialog.locator('.field-error')).toHaveText(PROBLEM);
  }
  await field.fill('4');
  await dialog.getByTestId('confirm-key-limits').click();
  await expect(dialog).toBeHidden();
  expect(await record(`/internal/api-keys/${id}`)).toMatchObject({ max_parallel_requests: 4 });
  const meter = row.locator('[data-limit-type="parallel_requests"]');
  await expect(meter).toContainText('requests in flight at once');
  await expect(meter).toContainText('0 / 4');

  // Opened again it starts from what was saved; emptied, the key has no cap of its own.
  await row.getByRole('button', { name: 'Edit limits' }).click();
  await expect(field).toHaveValue('4');
  await field.fill('');
  await dialog.getByTestId('confirm-key-limits').click();
  await expect(dialog).toBeHidden();
  expect(await record(`/internal/api-keys/${id}`)).toMatchObject({ max_parallel_requests: null });
  await expect(meter).toHaveCount(0);
});

test('a key issued with a cap on requests in flight carries it', async ({ page }) => {
  const name = `e2e-parallel-issued-${Date.now()}`;
  await openSignedIn(page, 'gateway/keys');
  await page.getByTestId('issue-key').click();
  const dialog = page.getByTestId('issue-key-dialog');
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByLabel(LABEL, { exact: true }).fill('10001');
  await dialog.getByTestId('confirm-issue-key').click();
  await expect(dialog.locator('.field-error')).toHaveText(PROBLEM);
  await dialog.getByLabel(LABEL, { exact: true }).fill('2');
  await dialog.getByTestId('confirm-issue-key').click();
  await expect(dialog).toBeHidden();
  const keys = (await record('/internal/api-keys')) as unknown as { data: { name: string }[] };
  expect(keys.data.find((key) => key.name === name)).toMatchObject({ max_parallel_requests: 2 });
});

test('a user’s and a team’s caps on requests in flight are set and cleared in their dialog, and shown in their meters', async ({
  page,
}) => {
  const stamp = Date.now();
  const team = `e2e-parallel-team-${stamp}`;
  const user = `e2e-parallel-user-${stamp}`;
  await openSignedIn(page, 'gateway/people');
  const dialog = page.getByTestId('principal-dialog');

  // Each created with a cap the form refuses first (naming the field), then one it takes.
  for (const [kind, id, wrong, cap] of [
    ['team', team, '0', '6'],
    ['user', user, '10001', '3'],
  ] as const) {
    await page.getByTestId(`new-${kind}`).click();
    await dialog.getByLabel('Id', { exact: true }).fill(id);
    await dialog.getByLabel(LABEL, { exact: true }).fill(wrong);
    await dialog.getByTestId('confirm-principal').click();
    await expect(dialog.locator('.field-error')).toHaveText(PROBLEM);
    await dialog.getByLabel(LABEL, { exact: true }).fill(cap);
    await dialog.getByTestId('confirm-principal').click();
    await expect(dialog).toBeHidden();
    expect(await record(`/internal/${kind}s/${id}`)).toMatchObject({ max_parallel_requests: Number(cap) });
    const row = page.getByTestId(`${kind}s-table`).getByRole('row').filter({ hasText: id });
    await expect(row.locator('[data-limit-type="parallel_requests"]')).toContainText(`0 / ${cap}`);
  }
  const userRow = page.getByTestId('users-table').getByRole('row').filter({ hasText: user });
  const userMeter = userRow.locator('[data-limit-type="parallel_requests"]');

  // Edited: the field starts from the record, the dialog's meters show the cap; emptied, it is cleared.
  await userRow.getByRole('button', { name: `Edit ${user}` }).click();
  await expect(dialog.getByLabel(LABEL, { exact: true })).toHaveValue('3');
  await expect(dialog.locator('[data-limit-type="parallel_requests"]')).toContainText('0 / 3');
  await dialog.getByLabel(LABEL, { exact: true }).fill('');
  await dialog.getByTestId('confirm-principal').click();
  await expect(dialog).toBeHidden();
  expect(await record(`/internal/users/${user}`)).toMatchObject({ max_parallel_requests: null });
  await expect(userMeter).toHaveCount(0);
});
