import type { Page } from '@playwright/test';
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

  await page.getByRole('link', { name: 'Show all revisions' }).click();
  await expect(log.getByRole('option')).toHaveCount(3);
});

test('history of a document the branch never changed says so and offers every revision', async ({ page }) => {
  const namespace = freshNamespace('history', 'document-none');
  await apply(namespace, 'main', 'one', { 'a.txt': '1\n' });
  await openSignedIn(page, screen('history', namespace, 'main', '&document=missing.txt'));
  await expect(page.getByText('No revision of main changed “missing.txt”')).toBeVisible();
  await page.getByRole('button', { name: 'Show all revisions' }).click();
  await expect(page.getByRole('listbox', { name: 'Revisions' }).getByRole('option')).toHaveCount(1);
});

/**
 * router.json's history on a branch of two revisions, router.json written first or last: its one
 * revision in the log, and that revision's detail.
 */
async function routerHistory(page: Page, name: string, routerLast: boolean) {
  const namespace = freshNamespace('history', name);
  const writes: Array<[string, Record<string, string>]> = [
    ['router', { 'router.json': '{"model":"a"}\n' }],
    ['prompt', { 'prompt.md': 'hi\n' }],
  ];
  for (const [message, documents] of routerLast ? writes.reverse() : writes)
    await apply(namespace, 'main', message, documents);
  await openSignedIn(page, screen('history', namespace, 'main', '&document=router.json'));
  const log = page.getByRole('listbox', { name: 'Revisions' });
  await expect(log.getByRole('option')).toHaveCount(1);
  await expect(log.getByRole('option').nth(0)).toContainText('router');
  return { entry: log.getByRole('option').nth(0), detail: page.getByTestId('revision-detail') };
}

test("a document's latest change is not called the head when the branch moved on since", async ({ page }) => {
  const { entry, detail } = await routerHistory(page, 'document-head', false);
  await expect(entry).not.toContainText('head');
  // The branch's head is #2: this one may be rolled back to, and compares with the head.
  await expect(detail.getByTestId('rollback-button')).toBeEnabled();
  await expect(detail.getByRole('link', { name: /^Compare #\d+ with head$/ })).toBeVisible();
});

test("a document changed by the branch's head shows that revision as the head", async ({ page }) => {
  const { entry, detail } = await routerHistory(page, 'document-is-head', true);
  await expect(entry).toContainText('head');
  await expect(detail.getByTestId('rollback-button')).toBeDisabled();
  await expect(detail.getByTestId('rollback-button')).toHaveAttribute('title', 'This is already the head');
});
