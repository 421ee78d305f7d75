import { expect, openSignedIn, saveScreenshot, storeCall, test } from './fixtures.js';
import { apply, freshNamespace, screen } from './store-helpers.js';

/** `main` with two revisions, `hotfix` made from its head, and one revision of hotfix's own. */
async function hotfixFromMain(namespace: string): Promise<{ base: number; created: number; fix: number }> {
  await apply(namespace, 'main', 'one', { 'a.txt': '1\n', 'b.txt': 'b\n' });
  await apply(namespace, 'main', 'two', { 'a.txt': '2\n' });
  const branch = await storeCall<{ base_revision: number; head_revision: number }>('/v1/branches', {
    scope: { namespace, branch: 'main' },
    name: 'hotfix',
  });
  const fix = await apply(namespace, 'hotfix', 'fix', { 'a.txt': 'fix\n' });
  return { base: branch.base_revision, created: branch.head_revision, fix: fix.revision };
}

test('a branch’s first revision reads as its copy of main, offers no revert, and links to main’s history', async ({
  page,
}) => {
  const namespace = freshNamespace('branch-history', 'origin');
  const { base, created } = await hotfixFromMain(namespace);
  await openSignedIn(page, screen('history', namespace, 'hotfix'));
  const log = page.getByRole('listbox', { name: 'Revisions' });
  await expect(log.getByRole('option')).toHaveCount(2);
  // The creation row counts what it copied rather than listing the documents as changed.
  await expect(log.getByRole('option').nth(1)).toContainText(`2 documents as of main@${base}`);
  // Below the oldest revision, the history it came from.
  const earlier = page.getByTestId('earlier-history');
  await expect(earlier).toHaveText(`Earlier history: main up to #${base}`);

  await log.getByRole('option').nth(1).click();
  const detail = page.getByTestId('revision-detail');
  await expect(detail.getByTestId('branched-from')).toHaveText(`branched from main@${base}`);
  // Its documents are listed as of main, not as created, with no diff from nothing.
  const start = detail.getByTestId('branch-start');
  await expect(start).toContainText(`2 documents as of main@${base}, copied when hotfix was made: not new content.`);
  await expect(start.getByRole('link', { name: `Open a.txt at #${created}` })).toBeVisible();
  await expect(start.getByRole('link', { name: 'History of b.txt on main' })).toBeVisible();
  await expect(detail.getByTestId('changes-view')).toHaveCount(0);
  await expect(detail).not.toContainText('Created');
  // Reverting the copy would delete every document: not offered, and the reason stands in its place.
  await expect(page.getByTestId('revert-button')).toHaveCount(0);
  await expect(detail.getByTestId('branch-start-note')).toContainText(
    `A branch’s first revision copies main@${base}: it has nothing of its own to revert or cherry-pick.`,
  );
  await expect(page.getByTestId('rollback-button')).toBeEnabled();
  await saveScreenshot(page, 'branch-history-origin');

  // main@N in the header opens that revision in main's history.
  await detail
    .getByTestId('branched-from')
    .getByRole('link', { name: `main@${base}` })
    .click();
  await expect(page).toHaveURL(new RegExp(`/store/history\\?.*branch=main&rev=${base}(&|$)`));
  await expect(page.getByTestId('revision-detail').getByRole('heading', { name: 'two' })).toBeVisible();
  await expect(log.getByRole('option', { selected: true })).toContainText('two');

  // So does the link under the branch's oldest revision.
  await page.goBack();
  await expect(earlier).toBeVisible();
  await earlier.getByRole('link', { name: `main up to #${base}` }).click();
  await expect(page).toHaveURL(new RegExp(`/store/history\\?.*branch=main&rev=${base}(&|$)`));
  await expect(log.getByRole('option', { selected: true })).toContainText('two');
  // main's own first revision is a change like any other: revertable.
  await log.getByRole('option', { name: /^one/ }).click();
  await expect(page.getByTestId('revision-detail')).toContainText('first revision');
  await expect(page.getByTestId('revert-button')).toBeVisible();
});

test('seen from main, a branch’s creation is not offered for cherry-pick, and a document’s history links its earlier history', async ({
  page,
}) => {
  const namespace = freshNamespace('branch-history', 'elsewhere');
  const { base, created } = await hotfixFromMain(namespace);
  await openSignedIn(page, screen('history', namespace, 'main', `&rev=${created}`));
  const detail = page.getByTestId('revision-detail');
  await expect(detail.getByTestId('revision-elsewhere')).toBeVisible();
  await expect(detail.getByTestId('branch-start-note')).toBeVisible();
  await expect(page.getByTestId('cherry-pick-button')).toHaveCount(0);
  await expect(detail.getByRole('button', { name: 'Restore into main' })).toBeVisible();

  await openSignedIn(page, screen('history', namespace, 'hotfix', '&document=a.txt'));
  await expect(page.getByRole('listbox', { name: 'Revisions' }).getByRole('option')).toHaveCount(2);
  const earlier = page.getByTestId('earlier-history').getByRole('link', { name: `main up to #${base}` });
  await expect(earlier).toHaveAttribute('href', new RegExp(`branch=main&rev=${base}&document=a.txt$`));
  // The filter's way out says what it does.
  await page.getByRole('link', { name: 'Show all revisions' }).click();
  await expect(page).not.toHaveURL(/document=/);
  await expect(page.getByRole('listbox', { name: 'Revisions' }).getByRole('option')).toHaveCount(2);
});
