import type { Locator, Page } from '@playwright/test';
import { expect, gatewayAdmin, openSignedIn, test } from './fixtures.js';

/** Issues a key through the admin API with a recognisable name. */
async function issueKey(name: string): Promise<{ id: string; key: string }> {
  const response = await gatewayAdmin('/internal/api-keys', 'POST', { name });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string; key: string };
}

/** The texts a control's `aria-describedby` points at, joined; fails when an id does not resolve. */
async function description(control: Locator): Promise<string> {
  return control.evaluate((element) => {
    const ids = (element.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
    return ids
      .map((id) => {
        const target = document.getElementById(id);
        if (!target) throw new Error(`aria-describedby names a missing id: ${id}`);
        return target.textContent ?? '';
      })
      .join(' | ');
  });
}

const focused = (page: Page): Locator => page.locator(':focus');

test('dialogs start on their first field (or action) and give focus back to what opened them', async ({ page }) => {
  const name = `a11y-focus-${Date.now()}`;
  await issueKey(name);
  await openSignedIn(page, 'gateway/keys');

  const issue = page.getByTestId('issue-key');
  await issue.click();
  await expect(page.getByTestId('issue-key-dialog')).toBeVisible();
  await expect(page.getByLabel('Name', { exact: true })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('issue-key-dialog')).toBeHidden();
  await expect(issue).toBeFocused();

  // Cancel, not the Close button, and not the irreversible action.
  const row = page.getByTestId('keys-table').getByRole('row').filter({ hasText: name });
  const revoke = row.getByRole('button', { name: 'Revoke' });
  await revoke.click();
  const revokeDialog = page.getByTestId('revoke-key-dialog');
  await expect(revokeDialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await revokeDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(revokeDialog).toBeHidden();
  await expect(revoke).toBeFocused();

  // Opened from the keyboard on the table: focus goes back to the table.
  await row.click();
  await page.keyboard.press('Enter');
  const limits = page.getByTestId('edit-key-limits-dialog');
  await expect(limits.getByLabel('Requests per minute')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(limits).toBeHidden();
  await expect(page.getByTestId('keys-table')).toBeFocused();

  // A dialog without fields or a primary action (the shortcuts list) keeps focus inside it.
  await page.keyboard.press('?');
  await expect(focused(page)).toHaveCount(1);
  expect(await focused(page).evaluate((element) => Boolean(element.closest('dialog[open]')))).toBe(true);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('keys-table')).toBeFocused();
});

test('an invalid field is marked aria-invalid and described by its error and hint', async ({ page }) => {
  await openSignedIn(page, 'gateway/keys');
  await page.getByTestId('issue-key').click();
  const dialog = page.getByTestId('issue-key-dialog');
  const rpm = dialog.getByLabel('Requests per minute');
  await expect(rpm).not.toHaveAttribute('aria-invalid', 'true');
  await rpm.fill('lots');
  await dialog.getByTestId('confirm-issue-key').click();
  await expect(rpm).toHaveAttribute('aria-invalid', 'true');
  expect(await description(rpm)).toContain('whole number above 0');
  // Both the error and the hint describe a field that has both.
  const rag = dialog.getByLabel('RAG collections');
  await rag.fill('no spaces allowed');
  await dialog.getByTestId('confirm-issue-key').click();
  await expect(rag).toHaveAttribute('aria-invalid', 'true');
  const described = await description(rag);
  expect(described).toContain('Collection names use letters');
  expect(described).toContain('Comma separated');
  // A valid field with a hint is described by the hint alone.
  await expect(dialog.getByLabel('Name', { exact: true })).not.toHaveAttribute('aria-invalid', 'true');
  expect(await description(dialog.getByLabel('Name', { exact: true }))).toContain('What the key is for');
});

test('a required field says so by name, not in zod’s words', async ({ page }) => {
  await openSignedIn(page, 'gateway/people');
  await page.getByTestId('new-team').click();
  const dialog = page.getByTestId('principal-dialog');
  await dialog.getByTestId('confirm-principal').click();
  const id = dialog.getByLabel('Id', { exact: true });
  await expect(id).toHaveAttribute('aria-invalid', 'true');
  expect(await description(id)).toContain('Id is required');
  await expect(dialog).not.toContainText(/expected string|Too small|received undefined/);
  await page.keyboard.press('Escape');

  await page.goto(page.url().replace(/gateway\/people.*/, 'gateway/models'));
  await page.getByTestId('add-deployment').click();
  const deployment = page.getByTestId('deployment-dialog');
  await deployment.getByLabel('Weight').fill('heavy');
  await deployment.getByTestId('confirm-deployment').click();
  await expect(deployment.locator('.field-error')).toContainText(['Model is required', 'Weight must be a number']);
  await expect(deployment).not.toContainText(/expected string|Too small|received/);
});
