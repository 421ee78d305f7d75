import { expect, openSignedIn, test } from './fixtures.js';
import { apply, freshNamespace, screen } from './store-helpers.js';

/**
 * A document's history, as `git log -- <path>` or GitHub Desktop's file history: from the document in
 * Documents to the revisions of the branch that changed it, each opening on that document's diff.
 */
test('documents: History lists only the revisions that changed the document, each showing its diff', async ({
  page,
}) => {
  const namespace = freshNamespace('history', 'document');
  await apply(namespace, 'main', 'first router', { 'router.json': '{"model":"a"}\n', 'prompt.md': 'hi\n' });
  await apply(namespace, 'main', 'prompt only', { 'prompt.md': 'hello\n' });
  await apply(namespace, 'main', 'second router', { 'router.json': '{"model":"b"}\n', 'prompt.md': 'bye\n' });

  await openSignedIn(page, screen('documents', namespace, 'main', '&key=router.json'));
  await page.getByRole('link', { name: 'History of router.json' }).click();
  await expect(page).toHaveURL(/\/store\/history\?.*document=router\.json/);
  const log = page.getByRole('listbox', { name: 'Revisions' });
  await expect(log.getByRole('option')).toHaveCount(2);
  await expect(log.getByRole('option').nth(0)).toContainText('second router');
  await expect(log.getByRole('option').nth(1)).toContainText('first router');
  await expect(page.getByText('2 revisions')).toBeVisible();

  // A revision that changed other documents too opens on this one's diff.
  const changed = page.getByRole('listbox', { name: 'Changed documents' });
  await expect(changed.getByRole('option', { selected: true })).toHaveAccessibleName(/router\.json/);

  await page.getByRole('link', { name: 'Show every revision' }).click();
  await expect(log.getByRole('option')).toHaveCount(3);
});

test('history of a document the branch never changed says so and offers every revision', async ({ page }) => {
  const namespace = freshNamespace('history', 'document-none');
  await apply(namespace, 'main', 'one', { 'a.txt': '1\n' });
  await openSignedIn(page, screen('history', namespace, 'main', '&document=missing.txt'));
  await expect(page.getByText('No revision of main changed “missing.txt”')).toBeVisible();
  await page.getByRole('button', { name: 'Show every revision' }).click();
  await expect(page.getByRole('listbox', { name: 'Revisions' }).getByRole('option')).toHaveCount(1);
});

test("a document's latest change is not called the head when the branch moved on since", async ({ page }) => {
  const namespace = freshNamespace('history', 'document-head');
  await apply(namespace, 'main', 'router', { 'router.json': '{"model":"a"}\n' });
  await apply(namespace, 'main', 'prompt', { 'prompt.md': 'hi\n' });
  await openSignedIn(page, screen('history', namespace, 'main', '&document=router.json'));
  const log = page.getByRole('listbox', { name: 'Revisions' });
  await expect(log.getByRole('option')).toHaveCount(1);
  await expect(log.getByRole('option').nth(0)).toContainText('router');
  await expect(log.getByRole('option').nth(0)).not.toContainText('head');
  // The branch's head is #2: this one may be rolled back to, and compares with the head.
  const detail = page.getByTestId('revision-detail');
  await expect(detail.getByTestId('rollback-button')).toBeEnabled();
  await expect(detail.getByRole('link', { name: /^Compare #\d+ with head$/ })).toBeVisible();
});

test("a document changed by the branch's head shows that revision as the head", async ({ page }) => {
  const namespace = freshNamespace('history', 'document-is-head');
  await apply(namespace, 'main', 'prompt', { 'prompt.md': 'hi\n' });
  await apply(namespace, 'main', 'router', { 'router.json': '{"model":"a"}\n' });
  await openSignedIn(page, screen('history', namespace, 'main', '&document=router.json'));
  const log = page.getByRole('listbox', { name: 'Revisions' });
  await expect(log.getByRole('option')).toHaveCount(1);
  await expect(log.getByRole('option').nth(0)).toContainText('head');
  const detail = page.getByTestId('revision-detail');
  await expect(detail.getByTestId('rollback-button')).toBeDisabled();
  await expect(detail.getByTestId('rollback-button')).toHaveAttribute('title', 'This is already the head');
});
