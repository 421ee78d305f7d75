import type { Page } from '@playwright/test';
import { apply, freshNamespace, screen } from './store-helpers.js';
import { expect, openSignedIn, saveScreenshot, storeCall, test } from './fixtures.js';

// A checkpoint taken where nothing was written points at revision 0. A branch made from it through
// the API starts with a revision of no changes; History and Branches must tell that story, not claim
// the branch came from another one.

const branchRow = (page: Page, branch: string) =>
  page
    .getByTestId('branches-table')
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: branch, exact: true }) });

test('a branch made from an empty checkpoint reads as such on History and Branches', async ({ page }) => {
  const namespace = freshNamespace('empty-cp', 'branch');
  // Taken before anything was written: a checkpoint of a branch never written is refused once the namespace has one.
  await storeCall('/v1/checkpoints', { scope: { namespace, branch: 'main' }, name: 'blank' });
  await apply(namespace, 'main', 'main config', { 'a.txt': 'a\n' });
  const created = await storeCall<{ head_revision: number }>('/v1/branches', {
    scope: { namespace, branch: 'main' },
    name: 'fresh',
    from_checkpoint: 'blank',
  });

  await openSignedIn(page, screen('history', namespace, 'fresh'));
  const detail = page.getByTestId('revision-detail');
  await expect(detail.locator('.revision-title')).toHaveText(
    'branch from checkpoint "blank" (revision 0, no documents)',
  );
  await expect(detail).toContainText(`#${created.head_revision}`);
  await expect(detail).toContainText('first revision');
  await expect(detail).toContainText('This revision changed no documents.');
  await expect(detail).not.toContainText('main@');
  await saveScreenshot(page, 'store-history-empty-checkpoint-branch');

  await openSignedIn(page, screen('branches', namespace, 'fresh'));
  // No base: it was made from no revision.
  const cells = branchRow(page, 'fresh').getByRole('cell');
  await expect(cells.nth(1)).toHaveText('—');
  await expect(cells.nth(2)).toHaveText(`#${created.head_revision}`);
});
