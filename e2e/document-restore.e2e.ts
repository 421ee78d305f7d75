import { expect, openSignedIn, storeCall, test } from './fixtures.js';
import { apply, freshNamespace, screen, stateOf } from './store-helpers.js';

// One document brought back from an older revision, as `git checkout <rev> -- <path>`: from Documents
// at that revision, after a preview of the change from the branch head, leaving the others alone.

/** The message of the branch's newest revision. */
async function lastMessage(namespace: string): Promise<string> {
  const log = await storeCall<{ entries: { message: string }[] }>(
    `/v1/log?namespace=${encodeURIComponent(namespace)}&branch=main&limit=1`,
  );
  return log.entries[0]!.message;
}

test('restores one changed document from an older revision, previewing the change from the head', async ({ page }) => {
  const namespace = freshNamespace('document-restore', 'changed');
  const old = await apply(namespace, 'main', 'first', { 'prompts/a.md': 'hello v1\n', 'b.md': 'b1\n' });
  await apply(namespace, 'main', 'second', { 'prompts/a.md': 'hello v2\n', 'b.md': 'b2\n' });

  await openSignedIn(page, screen('documents', namespace, 'main', `&rev=${old.revision}&key=prompts/a.md`));
  await page.getByRole('button', { name: 'Restore this document to main' }).click();
  const dialog = page.getByTestId('document-restore-dialog');
  const preview = dialog.getByTestId('action-preview');
  await expect(preview).toContainText('1 document would change');
  await expect(preview).toContainText(`From the head of main (#${old.revision + 1}) to #${old.revision}`);
  await expect(preview.locator('.change-row-key')).toHaveText(['prompts/a.md']);
  await expect(preview).toContainText('hello v1');
  await dialog.getByTestId('confirm-document-restore').click();
  await expect(dialog).toBeHidden();

  expect((await stateOf(namespace)).objects).toEqual({ 'prompts/a.md': 'hello v1\n', 'b.md': 'b2\n' });
  expect(await lastMessage(namespace)).toBe(`restore prompts/a.md from main@${old.revision}`);
  await expect(page).toHaveURL(/\/store\/history\?/);
});

test('brings back a document deleted at the head', async ({ page }) => {
  const namespace = freshNamespace('document-restore', 'deleted');
  const old = await apply(namespace, 'main', 'first', { 'gone.md': 'was here\n', 'keep.md': 'k\n' });
  await storeCall('/v1/apply', {
    scope: { namespace, branch: 'main' },
    message: 'delete it',
    documents: [{ key: 'gone.md', delete: true }],
  });

  await openSignedIn(page, screen('documents', namespace, 'main', `&rev=${old.revision}&key=gone.md`));
  await page.getByRole('button', { name: 'Restore this document to main' }).click();
  const dialog = page.getByTestId('document-restore-dialog');
  await expect(dialog.getByTestId('action-preview').locator('.change-row-key')).toHaveText(['gone.md']);
  await expect(dialog.getByTestId('action-preview')).toContainText('was here');
  await dialog.getByTestId('confirm-document-restore').click();
  await expect(dialog).toBeHidden();
  expect((await stateOf(namespace)).objects).toEqual({ 'gone.md': 'was here\n', 'keep.md': 'k\n' });
});

test('a document deleted at the head links to its last version, where it is restored', async ({ page }) => {
  const namespace = freshNamespace('document-restore', 'find-deleted');
  const old = await apply(namespace, 'main', 'first', { 'old-greeting.md': 'hi\n', 'keep.md': 'k\n' });
  const deleted = await storeCall<{ revision: number }>('/v1/apply', {
    scope: { namespace, branch: 'main' },
    documents: [{ key: 'old-greeting.md', delete: true }],
  });

  await openSignedIn(page, screen('documents', namespace, 'main', '&key=old-greeting.md'));
  await expect(page.getByTestId('document-missing')).toContainText(`before #${deleted.revision} deleted it`);
  await page.getByTestId('deleted-document-last-version').click();
  await expect(page).toHaveURL(new RegExp(`rev=${old.revision}`));
  await expect(page.getByTestId('document-key')).toHaveText('old-greeting.md');
  await page.getByRole('button', { name: 'Restore this document to main' }).click();
  await page.getByTestId('confirm-document-restore').click();
  await expect(page.getByTestId('document-restore-dialog')).toBeHidden();
  expect((await stateOf(namespace)).objects).toEqual({ 'old-greeting.md': 'hi\n', 'keep.md': 'k\n' });
});

test('offers no restore for a document the head still has unchanged', async ({ page }) => {
  const namespace = freshNamespace('document-restore', 'same');
  const old = await apply(namespace, 'main', 'first', { 'same.md': 's\n', 'other.md': 'o1\n' });
  await apply(namespace, 'main', 'second', { 'other.md': 'o2\n' });
  await openSignedIn(page, screen('documents', namespace, 'main', `&rev=${old.revision}&key=same.md`));
  await expect(page.getByTestId('document-key')).toHaveText('same.md');
  await expect(page.getByRole('button', { name: /^Roll back main/ })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Restore this document to main' })).toHaveCount(0);
});
