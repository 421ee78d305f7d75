import type { Page } from '@playwright/test';
import { apply, freshNamespace, mainAndFeature, screen } from './store-helpers.js';
import { expect, openSignedIn, storeCall, test } from './fixtures.js';

// Renaming a branch (`git branch -m`) from the Branches screen: only the name changes, the history
// stays, a name the namespace has is refused as typed, and main is not offered.

const fresh = (name: string): string => freshNamespace('branch-rename', name);

/** A branch's row, by the link its first cell holds (its name is also in other rows' buttons). */
const row = (page: Page, branch: string) =>
  page
    .getByTestId('branches-table')
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: branch, exact: true }) });

const renameButton = (page: Page, branch: string) =>
  page.getByTestId('branches-table').getByRole('button', { name: `Rename branch ${branch}`, exact: true });

interface Log {
  readonly entries: readonly { readonly message: string }[];
}

test('a branch is renamed with its history, and the screen follows it when it was the scope', async ({ page }) => {
  const namespace = fresh('history');
  await mainAndFeature(namespace);
  await apply(namespace, 'feature', 'feature work', { 'c.txt': '1\n' });
  await storeCall('/v1/branches', { scope: { namespace, branch: 'main' }, name: 'release' });
  await openSignedIn(page, screen('branches', namespace, 'feature'));
  await expect(row(page, 'feature')).toBeVisible();

  await renameButton(page, 'feature').click();
  const dialog = page.getByTestId('rename-branch-dialog');
  const field = dialog.getByLabel('New name', { exact: true });
  await expect(field).toHaveValue('feature');
  await expect(dialog.getByTestId('confirm-rename-branch')).toBeDisabled();
  await field.fill('release');
  await expect(dialog).toContainText(`Branch name “release” is taken: ${namespace} already has a branch of that name.`);
  await expect(dialog.getByTestId('confirm-rename-branch')).toBeDisabled();
  await field.fill('feature/limits');
  await dialog.getByTestId('confirm-rename-branch').click();

  await expect(dialog).toBeHidden();
  await expect(page.locator('.toaster')).toContainText('Renamed branch “feature” to “feature/limits”');
  await expect(row(page, 'feature/limits')).toBeVisible();
  await expect(row(page, 'feature')).toHaveCount(0);
  await expect(page).toHaveURL(/branch=feature%2Flimits|branch=feature\/limits/);
  const log = await storeCall<Log>(`/v1/log?namespace=${encodeURIComponent(namespace)}&branch=feature%2Flimits`);
  expect(log.entries.map((entry) => entry.message)).toContain('feature work');
});

test('main is not offered for renaming, and says why', async ({ page }) => {
  const namespace = fresh('main');
  await mainAndFeature(namespace);
  await openSignedIn(page, screen('branches', namespace));
  const button = renameButton(page, 'main');
  await expect(button).toBeDisabled();
  await expect(button).toHaveAttribute('title', /main is the branch every request that names no branch means/);
  await expect(renameButton(page, 'feature')).toBeEnabled();
});
