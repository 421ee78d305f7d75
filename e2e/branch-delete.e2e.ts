import type { Page } from '@playwright/test';
import { allowStatus, apply, freshNamespace, holdStoreChanges, screen } from './store-helpers.js';
import { expect, openSignedIn, saveScreenshot, storeCall, test } from './fixtures.js';

const fresh = (name: string): string => freshNamespace('branch-delete', name);

interface Listed {
  readonly branches: readonly { readonly name: string; readonly head_revision: number }[];
}

/** The namespace's branch names, as the store lists them. */
async function branchNames(namespace: string): Promise<string[]> {
  const listed = await storeCall<Listed>(`/v1/branches?namespace=${encodeURIComponent(namespace)}`);
  return listed.branches.map((branch) => branch.name);
}

/** `main` with two revisions and `feature` created from it with two of its own (three revisions in all). */
async function mainAndFeature(namespace: string): Promise<{ featureHead: number }> {
  await apply(namespace, 'main', 'first', { 'a.txt': '1\n' });
  await apply(namespace, 'main', 'second', { 'a.txt': '2\n' });
  await storeCall('/v1/branches', { scope: { namespace, branch: 'main' }, name: 'feature' });
  await apply(namespace, 'feature', 'feature work', { 'b.txt': '1\n' });
  const head = await apply(namespace, 'feature', 'more feature work', { 'b.txt': '2\n' });
  return { featureHead: head.revision };
}

/** A branch's row, by the link its first cell holds (its name is also in other rows' Restore buttons). */
const row = (page: Page, branch: string) =>
  page
    .getByTestId('branches-table')
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: branch, exact: true }) });

const deleteButton = (page: Page, branch: string) =>
  page.getByTestId('branches-table').getByRole('button', { name: `Delete branch ${branch}`, exact: true });

test('a side branch is deleted with its history: gone from the list, a toast, focus on the table', async ({ page }) => {
  const namespace = fresh('side');
  const { featureHead } = await mainAndFeature(namespace);
  await openSignedIn(page, screen('branches', namespace));
  const table = page.getByTestId('branches-table');
  await expect(row(page, 'feature')).toBeVisible();

  await deleteButton(page, 'feature').click();
  const dialog = page.getByRole('dialog', { name: 'Delete branch “feature”?' });
  await expect(dialog).toBeVisible();
  // It cannot be undone, so the dialog opens on Cancel.
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expect(dialog).toContainText(
    `Deletes feature and all its history: 3 revisions from its head #${featureHead} back to its first`,
  );
  await expect(dialog).toContainText('This cannot be undone. The name feature becomes free');
  await saveScreenshot(page, 'store-branch-delete-dialog');

  await dialog.getByTestId('confirm-delete-branch').click();
  await expect(dialog).toBeHidden();
  await expect(page.locator('.toaster')).toContainText('Deleted branch “feature” and its 3 revisions');
  await expect(row(page, 'feature')).toHaveCount(0);
  await expect(row(page, 'main')).toBeVisible();
  // The opener went with its row: focus is on the table it was in.
  await expect(table).toBeFocused();
  // The sidebar's branch picker was refreshed too.
  await expect(page.getByTestId('branch-picker').locator('option', { hasText: 'feature' })).toHaveCount(0);
  expect(await branchNames(namespace)).toEqual(['main']);
});

test('Cancel (or Esc) deletes nothing and gives focus back to the row button', async ({ page }) => {
  const namespace = fresh('cancel');
  await mainAndFeature(namespace);
  await openSignedIn(page, screen('branches', namespace));
  const opener = deleteButton(page, 'feature');
  await opener.click();
  const dialog = page.getByTestId('delete-branch-dialog');
  await expect(dialog).toContainText('3 revisions');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();

  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
  expect(await branchNames(namespace)).toEqual(['feature', 'main']);
});

test('a checkpoint in the branch is named before confirming: Delete stays disabled, with a way to Checkpoints', async ({
  page,
}) => {
  const namespace = fresh('checkpoint');
  await mainAndFeature(namespace);
  await storeCall('/v1/checkpoints', { scope: { namespace, branch: 'feature' }, name: 'release' });
  await openSignedIn(page, screen('branches', namespace));
  await deleteButton(page, 'feature').click();
  const dialog = page.getByTestId('delete-branch-dialog');
  await expect(dialog).toContainText('3 revisions');
  const held = dialog.getByTestId('branch-held');
  await expect(held).toContainText('Checkpoint “release” points into feature');
  await expect(dialog.getByTestId('confirm-delete-branch')).toBeDisabled();
  await saveScreenshot(page, 'store-branch-delete-held');

  await held.getByRole('link', { name: 'Open Checkpoints' }).click();
  await expect(page).toHaveURL(/\/ui\/store\/checkpoints\?/);
  await expect(page.getByTestId('checkpoints-table')).toContainText('release');
  expect(await branchNames(namespace)).toEqual(['feature', 'main']);
});

test('a checkpoint made after the dialog opened is refused in the dialog with the store message and a way to Checkpoints', async ({
  page,
  consoleErrors,
}) => {
  const namespace = fresh('checkpoint-later');
  const { featureHead } = await mainAndFeature(namespace);
  await openSignedIn(page, screen('branches', namespace));
  await deleteButton(page, 'feature').click();
  const dialog = page.getByTestId('delete-branch-dialog');
  await expect(dialog).toContainText('3 revisions');
  const releaseChanges = await holdStoreChanges(page);
  await storeCall('/v1/checkpoints', { scope: { namespace, branch: 'feature' }, name: 'release' });
  await dialog.getByTestId('confirm-delete-branch').click();
  await releaseChanges();

  const alert = dialog.getByRole('alert');
  await expect(alert).toContainText('Could not delete feature');
  await expect(alert).toContainText(
    `branch "feature" of namespace "${namespace}" holds revision ${featureHead} of checkpoint "release": delete or move the checkpoint first`,
  );
  // The list was read again: Delete now stays disabled, and the link leads to the checkpoint.
  await expect(dialog.getByTestId('confirm-delete-branch')).toBeDisabled();
  await saveScreenshot(page, 'store-branch-delete-refused');
  expect(await branchNames(namespace)).toEqual(['feature', 'main']);

  await alert.getByRole('link', { name: 'Open Checkpoints' }).click();
  await expect(page).toHaveURL(/\/ui\/store\/checkpoints\?/);
  await expect(page.getByTestId('checkpoints-table')).toContainText('release');
  allowStatus(consoleErrors, 409);
});

test('a branch that moved after the dialog opened is not deleted unseen: counted again, then deleted', async ({
  page,
  consoleErrors,
}) => {
  const namespace = fresh('moved');
  const { featureHead } = await mainAndFeature(namespace);
  await openSignedIn(page, screen('branches', namespace));
  await deleteButton(page, 'feature').click();
  const dialog = page.getByTestId('delete-branch-dialog');
  await expect(dialog).toContainText(`3 revisions from its head #${featureHead}`);

  const releaseChanges = await holdStoreChanges(page);
  const moved = await apply(namespace, 'feature', 'written elsewhere', { 'c.txt': '1\n' });
  await dialog.getByTestId('confirm-delete-branch').click();
  await releaseChanges();
  await expect(dialog.getByTestId('branch-moved')).toContainText(
    `feature moved to #${moved.revision} after this dialog opened (a write from elsewhere), so nothing was deleted`,
  );
  await expect(dialog.getByRole('alert')).toContainText(`not the expected_revision ${featureHead}`);
  await expect(dialog).toContainText(`4 revisions from its head #${moved.revision}`);
  expect(await branchNames(namespace)).toEqual(['feature', 'main']);

  await dialog.getByTestId('confirm-delete-branch').click();
  await expect(dialog).toBeHidden();
  await expect(page.locator('.toaster')).toContainText('Deleted branch “feature” and its 4 revisions');
  expect(await branchNames(namespace)).toEqual(['main']);
  allowStatus(consoleErrors, 409);
});

test('deleting the scope’s branch moves the scope to main, else to the first branch, never to the gone one', async ({
  page,
  app,
}) => {
  const namespace = fresh('current');
  await mainAndFeature(namespace);
  await openSignedIn(page, screen('branches', namespace, 'feature'));
  const table = page.getByTestId('branches-table');
  await expect(row(page, 'feature')).toContainText('current');
  await deleteButton(page, 'feature').click();
  await page.getByTestId('confirm-delete-branch').click();
  await expect(page.getByTestId('delete-branch-dialog')).toBeHidden();
  await expect(page).toHaveURL(/branch=main/);
  await expect(row(page, 'main')).toContainText('current');
  await expect(row(page, 'feature')).toHaveCount(0);
  await expect(page.getByTestId('branch-picker')).toHaveValue('main');
  await expect(table).toBeFocused();

  // Without a main, the first branch by name.
  const other = fresh('no-main');
  await apply(other, 'beta', 'b', { 'a.txt': '1\n' });
  await apply(other, 'alpha', 'a', { 'a.txt': '1\n' });
  await apply(other, 'gamma', 'g', { 'a.txt': '1\n' });
  await page.goto(new URL(screen('branches', other, 'gamma'), app.uiUrl).toString());
  await deleteButton(page, 'gamma').click();
  await page.getByTestId('confirm-delete-branch').click();
  await expect(page).toHaveURL(/branch=alpha/);
  await expect(row(page, 'alpha')).toContainText('current');
  await expect(page.getByTestId('branch-picker')).toHaveValue('alpha');
});

test('deleting the last branch of a namespace leaves its empty state, not another namespace', async ({ page, app }) => {
  const namespace = fresh('last');
  await apply(namespace, 'solo', 'only write', { 'a.txt': '1\n' });
  await openSignedIn(page, screen('branches', namespace, 'solo'));
  await expect(page.getByTestId('branch-picker')).toHaveValue('solo');
  // Without ns in the address the scope is the last one used, which a namespace gone from the list would lose.
  await page.goto(new URL('store/branches', app.uiUrl).toString());
  await expect(page.getByText(`Namespace ${namespace}.`)).toBeVisible();
  await deleteButton(page, 'solo').click();
  const dialog = page.getByTestId('delete-branch-dialog');
  await expect(dialog).toContainText('1 revision from its head');
  // The namespace list is read again, without the namespace: the screen stays on it all the same.
  const namespacesRead = page.waitForResponse(
    (response) => response.url().includes('/v1/namespaces') && response.request().method() === 'GET',
  );
  // The namespace's last branch: its name is typed to confirm.
  await dialog.getByTestId('delete-branch-name').fill('solo');
  await dialog.getByTestId('confirm-delete-branch').click();
  await expect(dialog).toBeHidden();
  const listed = (await (await namespacesRead).json()) as { namespaces: { name: string }[] };
  expect(listed.namespaces.map((entry) => entry.name)).not.toContain(namespace);
  expect(new URL(page.url()).searchParams.get('ns')).toBe(namespace);
  await expect(page.getByText(`${namespace} has no branches now`)).toBeVisible();
  await expect(page.getByText(`Namespace ${namespace}.`)).toBeVisible();
  await expect(page.locator('.toaster')).toContainText('Deleted branch “solo” and its 1 revision');
  // No table is left to hold focus: it goes to the screen's first action.
  await expect(page.getByTestId('new-branch')).toBeFocused();
  expect(await branchNames(namespace)).toEqual([]);
});
