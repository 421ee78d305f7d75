import type { Page } from '@playwright/test';
import { expect, openSignedIn, test } from './fixtures.js';

/** Goes to the Keys screen through the app's own link and issues a key; resolves with its secret. */
async function issueFromKeysScreen(page: Page, name: string): Promise<string> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Keys' }).click();
  await page.getByTestId('issue-key').click();
  const dialog = page.getByTestId('issue-key-dialog');
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByTestId('confirm-issue-key').click();
  return (await page.getByTestId('issued-key-secret').innerText()).trim();
}

const back = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as { history: { back(): void } }).history.back());

test('leaving while a new key’s secret is shown asks first (Back, reload); once it is closed, nothing asks', async ({
  page,
}) => {
  // A page to go back to, then the Keys screen.
  await openSignedIn(page, 'gateway/usage');
  const secret = await issueFromKeysScreen(page, `leave-${Date.now()}`);
  const secretDialog = page.getByTestId('key-secret-dialog');
  const leave = page.getByTestId('leave-dialog');

  await back(page);
  await expect(leave).toBeVisible();
  await expect(leave).toContainText('Leave without the new key?');
  await expect(leave.getByRole('button', { name: 'Stay' })).toBeFocused();
  await leave.getByRole('button', { name: 'Stay' }).click();
  await expect(leave).toBeHidden();
  await expect(page).toHaveURL(/\/ui\/gateway\/keys$/);
  await expect(page.getByTestId('issued-key-secret')).toHaveText(secret);

  // A reload asks the browser first; dismissed, the secret is still there.
  const prompted = page.waitForEvent('dialog');
  void page.evaluate(() => (globalThis as unknown as { location: { reload(): void } }).location.reload());
  const prompt = await prompted;
  expect(prompt.type()).toBe('beforeunload');
  await prompt.dismiss();
  await expect(page.getByTestId('issued-key-secret')).toHaveText(secret);

  // Closed by its button, the secret holds nothing back: Back leaves at once.
  await page.getByTestId('close-secret').click();
  await expect(secretDialog).toBeHidden();
  await back(page);
  await expect(page).not.toHaveURL(/\/ui\/gateway\/keys$/);
  await expect(leave).toBeHidden();
});
