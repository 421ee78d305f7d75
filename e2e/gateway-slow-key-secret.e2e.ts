import type { Page, Route } from '@playwright/test';
import { expect, gatewayAdmin, openSignedIn, test } from './fixtures.js';

/** Requests to `/internal/api-keys` of one method, answered as usual until `hold()`, then kept until `release()`. */
async function holdKeyRequests(page: Page, method: 'GET' | 'POST') {
  let holding = false;
  const held: Route[] = [];
  await page.route(
    (url) => url.pathname.endsWith('/internal/api-keys'),
    async (route) => {
      if (!holding || route.request().method() !== method) return route.fallback();
      held.push(route);
    },
  );
  return {
    hold: () => {
      holding = true;
    },
    held: () => held.length,
    release: async () => {
      holding = false;
      for (const route of held.splice(0)) await route.fallback().catch(() => undefined);
    },
  };
}

/** The secret shown is the key's current one: it starts as the prefix the gateway lists for it (`gk-AbCdEf12…`). */
async function expectCurrentSecret(id: string, secret: string): Promise<void> {
  const record = (await (await gatewayAdmin(`/internal/api-keys/${id}`)).json()) as { key_prefix: string };
  expect(secret.startsWith(record.key_prefix.replace(/…$/, ''))).toBe(true);
}

test('keys: a rotated secret shows as soon as the gateway answers, while the list is still being read again', async ({
  page,
}) => {
  const name = `slow-rotate-${Date.now()}`;
  const { id } = (await (await gatewayAdmin('/internal/api-keys', 'POST', { name, scopes: ['chat'] })).json()) as {
    id: string;
  };
  const reads = await holdKeyRequests(page, 'GET');
  await openSignedIn(page, `gateway/keys?q=${name}`);
  await expect(page.getByTestId('keys-table')).toContainText(name);

  reads.hold();
  await page.getByRole('button', { name: `Rotate the secret of ${name}`, exact: true }).click();
  await page.getByTestId('confirm-rotate-key').click();
  const secretDialog = page.getByRole('dialog', { name: `New secret for “${name}”` });
  await expect(secretDialog).toBeVisible();
  // The list's refresh is still on its way: the secret did not wait for it.
  expect(reads.held()).toBeGreaterThan(0);
  await expect(page.getByRole('dialog', { name: `Rotate the secret of “${name}”?` })).toBeHidden();
  const secret = (await secretDialog.getByTestId('issued-key-secret').innerText()).trim();
  await expectCurrentSecret(id, secret);
  // The row already says so, from the gateway's answer.
  await expect(page.getByTestId('keys-table').getByTestId('key-rotated')).toHaveText('rotated just now');

  await reads.release();
  await secretDialog.getByRole('button', { name: 'I have copied the key' }).click();
  await expect(secretDialog).toBeHidden();
});

test('keys: an issued key’s secret shows as soon as the gateway answers, while the list is still being read again', async ({
  page,
}) => {
  const name = `slow-issue-${Date.now()}`;
  const reads = await holdKeyRequests(page, 'GET');
  await openSignedIn(page, `gateway/keys?q=${name}`);
  await expect(page.getByText(`No key matches “${name}”`)).toBeVisible();

  reads.hold();
  await page.getByTestId('issue-key').click();
  await page.getByTestId('issue-key-dialog').getByLabel('Name', { exact: true }).fill(name);
  await page.keyboard.press('Enter');
  const secretDialog = page.getByRole('dialog', { name: `Key “${name}” issued` });
  await expect(secretDialog).toBeVisible();
  expect(reads.held()).toBeGreaterThan(0);
  const listed = (await (await gatewayAdmin('/internal/api-keys')).json()) as { data: { id: string; name: string }[] };
  const issued = listed.data.find((key) => key.name === name);
  expect(issued).toBeDefined();
  await expectCurrentSecret(issued!.id, (await secretDialog.getByTestId('issued-key-secret').innerText()).trim());

  await reads.release();
  await secretDialog.getByRole('button', { name: 'I have copied the key' }).click();
  await expect(page.getByTestId('keys-table')).toContainText(name);
});

test('keys: leaving while a key is being issued asks first, and the secret shows once the gateway answers', async ({
  page,
}) => {
  const name = `slow-issue-leave-${Date.now()}`;
  const writes = await holdKeyRequests(page, 'POST');
  // A page to go back to, then the Keys screen.
  await openSignedIn(page, 'gateway/usage');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Keys' }).click();
  await expect(page).toHaveURL(/\/ui\/gateway\/keys/);

  writes.hold();
  await page.getByTestId('issue-key').click();
  await page.getByTestId('issue-key-dialog').getByLabel('Name', { exact: true }).fill(name);
  await page.getByTestId('confirm-issue-key').click();
  await expect.poll(writes.held).toBe(1);

  await page.evaluate(() => (globalThis as unknown as { history: { back(): void } }).history.back());
  const leave = page.getByTestId('leave-dialog');
  await expect(leave).toContainText('Leave before the new secret arrives?');
  await leave.getByRole('button', { name: 'Stay' }).click();
  await expect(leave).toBeHidden();
  await expect(page).toHaveURL(/\/ui\/gateway\/keys/);

  await writes.release();
  const secretDialog = page.getByRole('dialog', { name: `Key “${name}” issued` });
  await expect(secretDialog.getByTestId('issued-key-secret')).toHaveText(/\S/);
  await secretDialog.getByRole('button', { name: 'I have copied the key' }).click();
  await expect(secretDialog).toBeHidden();
});
