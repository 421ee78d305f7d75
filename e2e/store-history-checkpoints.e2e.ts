import { expect, openSignedIn, storeCall, test } from './fixtures.js';
import { apply, freshNamespace, screen } from './store-helpers.js';

/**
 * History marks the revisions checkpoints point at, as `git log --decorate` marks tagged commits, so a
 * release is found in the log without opening Checkpoints; a checkpoint made meanwhile shows up too.
 */
test('history marks checkpointed revisions and links a checkpoint to its documents', async ({ page }) => {
  const namespace = freshNamespace('history', 'checkpoints');
  await apply(namespace, 'main', 'one', { 'a.txt': '1\n' });
  await storeCall('/v1/checkpoints', { scope: { namespace, branch: 'main' }, name: 'release-1' });
  await storeCall('/v1/checkpoints', { scope: { namespace, branch: 'main' }, name: 'approved' });
  await apply(namespace, 'main', 'two', { 'a.txt': '2\n' });

  await openSignedIn(page, screen('history', namespace));
  const log = page.getByRole('listbox', { name: 'Revisions' });
  const one = log.getByRole('option', { name: /^one/ });
  // Two checkpoints: the first by name, the other counted, both in the tooltip.
  await expect(one).toContainText('approved+1');
  await expect(one.getByTitle('Checkpoints approved, release-1')).toBeVisible();
  await expect(one).toHaveAccessibleName(/checkpoint approved/);
  await expect(log.getByRole('option', { name: /^two/ })).not.toContainText('approved');

  // Made elsewhere while the screen is open: the log marks it without a reload.
  await storeCall('/v1/checkpoints', { scope: { namespace, branch: 'main' }, name: 'latest' });
  await expect(log.getByRole('option', { name: /^two/ })).toContainText('latest', { timeout: 10_000 });

  // The selected revision's header links each of its checkpoints to the documents at it.
  await one.click();
  const detail = page.getByTestId('revision-detail');
  await expect(detail.getByRole('link', { name: 'Documents at checkpoint release-1' })).toBeVisible();
  await detail.getByRole('link', { name: 'Documents at checkpoint approved' }).click();
  await expect(page).toHaveURL(/\/store\/documents\?.*checkpoint=approved/);
  await expect(page.getByRole('listbox', { name: 'Documents' }).getByRole('option', { name: 'a.txt' })).toBeVisible();
});
