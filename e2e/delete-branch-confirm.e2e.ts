import type { Page } from '@playwright/test';
import { apply, freshNamespace, screen } from './store-helpers.js';
import { expect, openSignedIn, saveScreenshot, storeCall, test } from './fixtures.js';

// Deleting main, or a namespace's last branch, asks for the branch's name to be typed first.

const fresh = (name: string): string => freshNamespace('delete-branch-confirm', name);

async function branchNames(namespace: string): Promise<string[]> {
  const listed = await storeCall<{ branches: { name: string }[] }>(
    `/v1/branches?namespace=${encodeURIComponent(namespace)}`,
  );
  return listed.branches.map((branch) => branch.name);
}

const openDelete = async (page: Page, namespace: string, branch: string) => {
  await openSignedIn(page, screen('branches', namespace, branch));
  await page
    .getByTestId('branches-table')
    .getByRole('button', { name: `Delete branch ${branch}`, exact: true })
    .click();
  return page.getByTestId('delete-branch-dialog');
};

test('the last branch: the dialog says the namespace goes, and Delete waits for the typed name', async ({ page }) => {
  const namespace = fresh('last');
  await apply(namespace, 'main', 'only write', { 'a.txt': '1\n' });
  const dialog = await openDelete(page, namespace, 'main');
  await expect(dialog).toContainText('1 revision from its head');
  await expect(dialog.getByTestId('namespace-goes')).toContainText(
    `main is the last branch of ${namespace}: deleting it deletes the namespace ${namespace}`,
  );
  const confirm = dialog.getByTestId('confirm-delete-branch');
  const typed = dialog.getByRole('textbox', { name: 'Type main to confirm' });
  await expect(confirm).toBeDisabled();
  await typed.fill('mai');
  await expect(confirm).toBeDisabled();
  await saveScreenshot(page, 'delete-branch-confirm-last');
  await typed.fill('main');
  await expect(confirm).toBeEnabled();
  await confirm.click();
  await expect(dialog).toBeHidden();
  expect(await branchNames(namespace)).toEqual([]);
});

test('main with other branches still asks for its name; another branch does not', async ({ page }) => {
  const namespace = fresh('main');
  await apply(namespace, 'main', 'first', { 'a.txt': '1\n' });
  await storeCall('/v1/branches', { scope: { namespace, branch: 'main' }, name: 'feature' });
  await storeCall('/v1/branches', { scope: { namespace, branch: 'main' }, name: 'other' });
  await apply(namespace, 'feature', 'feature work', { 'b.txt': '1\n' });

  const dialog = await openDelete(page, namespace, 'main');
  await expect(dialog.getByTestId('namespace-goes')).toHaveCount(0);
  await expect(dialog.getByTestId('confirm-delete-branch')).toBeDisabled();
  await expect(dialog).toContainText('a request naming no branch');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();

  await page.getByTestId('branches-table').getByRole('button', { name: 'Delete branch other', exact: true }).click();
  await expect(dialog.getByTestId('delete-branch-name')).toHaveCount(0);
  await expect(dialog.getByTestId('confirm-delete-branch')).toBeEnabled();
  await dialog.getByTestId('confirm-delete-branch').click();
  await expect(dialog).toBeHidden();
  expect(await branchNames(namespace)).toEqual(['feature', 'main']);
});
