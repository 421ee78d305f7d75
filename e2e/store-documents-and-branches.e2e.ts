import { allowStatus, apply, freshNamespace as fresh, holdStoreChanges, screen } from './store-helpers.js';
import { expect, openSignedIn, saveScreenshot, storeCall, test } from './fixtures.js';

/** A fresh namespace for one test. */
const freshNamespace = (name: string): string => fresh('review2', name);

test('documents: a checkpoint of another branch is shown as one, with its branch', async ({ page }) => {
  const namespace = freshNamespace('cp-elsewhere');
  await apply(namespace, 'main', 'base', { 'a.txt': 'main\n' });
  await storeCall('/v1/checkpoints', { scope: { namespace, branch: 'main' }, name: 'on-main' });
  await storeCall('/v1/branches', { scope: { namespace, branch: 'main' }, name: 'canary' });
  const onCanary = await apply(namespace, 'canary', 'canary change', { 'a.txt': 'canary\n', 'c.txt': 'c\n' });
  await storeCall('/v1/checkpoints', { scope: { namespace, branch: 'canary' }, name: 'canary-cp' });

  await openSignedIn(page, screen('documents', namespace, 'main', '&checkpoint=canary-cp'));
  const picker = page.getByTestId('revision-picker');
  await expect(picker).toHaveValue('cp:canary-cp');
  await expect(picker.locator('option:checked')).toHaveText(`canary-cp (#${onCanary.revision} on canary)`);
  // This branch's own checkpoints are listed apart from those of other branches.
  await expect(picker.locator('optgroup[label="Checkpoints on main"] option')).toHaveText([/^on-main/]);
  await expect(picker.locator('optgroup[label="Checkpoints on other branches"] option')).toHaveText([/^canary-cp/]);

  const note = page.getByTestId('checkpoint-elsewhere');
  await expect(note).toContainText('Checkpoint “canary-cp” is on canary, not in the history of main');
  await expect(page.getByTestId('document-list')).toContainText('c.txt');
  await expect(page.getByRole('button', { name: /Roll back/ })).toHaveCount(0);
  await saveScreenshot(page, 'store-documents-checkpoint-elsewhere');

  await page.getByRole('button', { name: 'Restore into main' }).click();
  const restore = page.getByTestId('restore-dialog');
  await expect(restore.getByTestId('action-preview')).toContainText('2 documents would change');
  await restore.getByRole('button', { name: 'Cancel' }).click();

  await note.getByRole('link', { name: 'Show it on canary' }).click();
  await expect(page).toHaveURL(/branch=canary&checkpoint=canary-cp/);
  await expect(picker.locator('option:checked')).toHaveText(`canary-cp (#${onCanary.revision})`);
  await expect(page.getByTestId('checkpoint-elsewhere')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Roll back canary to this' })).toBeVisible();
});

test('documents: a checkpoint the namespace does not have is named, never shown as the head', async ({
  page,
  consoleErrors,
}) => {
  const namespace = freshNamespace('cp-missing');
  await apply(namespace, 'main', 'base', { 'a.txt': '1\n' });
  await openSignedIn(page, screen('documents', namespace, 'main', '&checkpoint=nope'));
  const picker = page.getByTestId('revision-picker');
  await expect(picker).toHaveValue('cp:nope');
  await expect(picker.locator('option:checked')).toHaveText('nope (not found)');
  await expect(page.getByRole('alert')).toContainText(`No checkpoint “nope” in ${namespace}`);
  await expect(page.getByTestId('document-list')).toHaveCount(0);
  await saveScreenshot(page, 'store-documents-checkpoint-missing');
  // Choosing the head from the picker leaves the problem behind.
  await picker.selectOption('head');
  await expect(page.getByTestId('document-list')).toContainText('a.txt');
  await expect(page.getByRole('alert')).toHaveCount(0);
  allowStatus(consoleErrors, 404);
});

test('documents: from the key filter, ArrowDown moves into the list and Enter opens the first match', async ({
  page,
}) => {
  const namespace = freshNamespace('filter-keys');
  await apply(namespace, 'main', 'docs', { 'alpha.txt': 'A\n', 'beta.txt': 'B\n', 'gamma.txt': 'G\n' });
  await openSignedIn(page, screen('documents', namespace));
  const list = page.getByTestId('document-list');
  const filter = page.getByRole('textbox', { name: 'Filter keys' });
  await expect(list).toBeFocused();
  await page.keyboard.press('/');
  await expect(filter).toBeFocused();

  // Typing past the last match and back keeps the caret in the filter.
  await filter.pressSequentially('zz');
  await expect(page.getByText('No key matches the filter')).toBeVisible();
  await filter.press('Backspace');
  await filter.press('Backspace');
  await expect(list).toBeVisible();
  await expect(filter).toBeFocused();

  await filter.pressSequentially('ta');
  await filter.press('Enter');
  await expect(page).toHaveURL(/key=beta\.txt/);
  await expect(list).toBeFocused();
  await expect(page.locator('.document-view')).toContainText('beta.txt');

  await page.keyboard.press('/');
  await filter.fill('a');
  await filter.press('ArrowDown');
  await expect(list).toBeFocused();
  await expect(page).toHaveURL(/key=alpha\.txt/);
  await expect(list.getByRole('option', { selected: true })).toHaveText('alpha.txt');
  await page.keyboard.press('ArrowDown');
  await expect(list.getByRole('option', { selected: true })).toHaveText('beta.txt');
});

test('documents: a key the revision does not have is named, with a way back to the list', async ({ page }) => {
  const namespace = freshNamespace('key-missing');
  const written = await apply(namespace, 'main', 'docs', { 'a.txt': '1\n', 'b.txt': '2\n' });
  await openSignedIn(page, screen('documents', namespace, 'main', '&key=missing.txt'));
  const missing = page.getByTestId('document-missing');
  await expect(missing).toContainText(`No document “missing.txt” on main at the head (#${written.revision})`);
  await saveScreenshot(page, 'store-documents-key-missing');
  await missing.getByRole('button', { name: 'Show the first document' }).click();
  await expect(page).toHaveURL(/key=a\.txt/);
  await expect(page.getByTestId('document-list')).toBeFocused();
  await expect(page.locator('.document-view')).toContainText('a.txt');

  // The same at a revision.
  await openSignedIn(page, screen('documents', namespace, 'main', `&rev=${written.revision}&key=gone.txt`));
  await expect(missing).toContainText(`No document “gone.txt” on main at #${written.revision}`);
});

test('new branch: the preview says what the branch will be created with, not what would change', async ({ page }) => {
  const namespace = freshNamespace('branch-preview');
  const head = await apply(namespace, 'main', 'docs', { 'a.txt': '1\n', 'b.txt': '2\n' });
  await openSignedIn(page, screen('branches', namespace));
  await page.getByTestId('new-branch').click();
  const dialog = page.getByTestId('branch-dialog');
  const preview = dialog.getByTestId('action-preview');
  await expect(preview).toContainText(
    `The branch will be created from the head of main (#${head.revision}) with 2 documents`,
  );
  await dialog.getByLabel('Branch name').fill('feature/x');
  await expect(preview).toContainText(
    `feature/x will be created from the head of main (#${head.revision}) with 2 documents`,
  );
  await expect(preview).not.toContainText('would change');
  await saveScreenshot(page, 'store-branch-dialog-preview');
  // A name the field refuses is not announced as one that will be created.
  await dialog.getByLabel('Branch name').fill('bad name with spaces');
  await expect(preview).toContainText(`The branch will be created from the head of main (#${head.revision})`);
  await expect(preview).not.toContainText('bad name with spaces');
});

test('new branch: a name already taken is refused as typed, and a 409 from a race is handled', async ({
  page,
  consoleErrors,
}) => {
  const namespace = freshNamespace('branch-taken');
  await apply(namespace, 'main', 'docs', { 'a.txt': '1\n' });
  await storeCall('/v1/branches', { scope: { namespace, branch: 'main' }, name: 'canary' });
  await openSignedIn(page, screen('branches', namespace));
  await page.getByTestId('new-branch').click();
  const dialog = page.getByTestId('branch-dialog');
  const name = dialog.getByLabel('Branch name');
  await expect(dialog.getByTestId('action-preview')).toContainText('a.txt');
  await name.fill('canary');
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog).toContainText(`Branch name “canary” is taken: ${namespace} already has a branch of that name.`);
  await expect(dialog.getByTestId('confirm-branch')).toBeDisabled();
  await saveScreenshot(page, 'store-branch-dialog-taken');
  await name.fill('canary2');
  await expect(name).not.toHaveAttribute('aria-invalid', 'true');

  // Someone else takes the name after the list was loaded: the store's 409 is shown, and the field says so.
  const releaseChanges = await holdStoreChanges(page);
  await storeCall('/v1/branches', { scope: { namespace, branch: 'main' }, name: 'raced' });
  await name.fill('raced');
  await expect(dialog.getByTestId('confirm-branch')).toBeEnabled();
  await dialog.getByTestId('confirm-branch').click();
  await releaseChanges();
  await expect(dialog.getByRole('alert')).toContainText('Could not create the branch');
  await expect(dialog).toContainText(`Branch name “raced” is taken: ${namespace} already has a branch of that name.`);
  await expect(dialog.getByTestId('confirm-branch')).toBeDisabled();
  // The refusal was about that name: another one clears it.
  await name.fill('raced-2');
  await expect(dialog.getByRole('alert')).toHaveCount(0);
  await expect(dialog.getByTestId('confirm-branch')).toBeEnabled();
  allowStatus(consoleErrors, 409);
});

test('garbage collection: keep is trimmed, bounded as the store bounds it, and the prune says what is kept', async ({
  page,
}) => {
  // Something to prune with keep 1, whatever else the store holds.
  const namespace = freshNamespace('gc');
  for (const n of [1, 2, 3]) await apply(namespace, 'main', `r${n}`, { 'a.txt': `${n}\n` });
  await openSignedIn(page, 'store/maintenance');
  const keep = page.getByLabel('Revisions to keep per branch');
  const panel = page.getByTestId('gc-panel');
  const preview = page.getByTestId('gc-preview');
  for (const [typed, problem] of [
    ['-3', 'Revisions to keep per branch must be at least 1.'],
    [
      '99999999999999999999',
      'Revisions to keep per branch is too large: the store accepts at most 9,007,199,254,740,991.',
    ],
    ['9007199254740992', 'Revisions to keep per branch is too large: the store accepts at most 9,007,199,254,740,991.'],
  ] as const) {
    await keep.fill(typed);
    await expect(keep).toHaveAttribute('aria-invalid', 'true');
    await expect(panel).toContainText(problem);
    await expect(preview).toBeDisabled();
  }

  await keep.fill(' 1 ');
  await expect(keep).not.toHaveAttribute('aria-invalid', 'true');
  await expect(keep).toHaveValue(' 1 ');
  const sent = page.waitForRequest((request) => request.url().endsWith('/v1/gc'));
  await preview.click();
  expect((await sent).postDataJSON()).toEqual({ keep: 1, dry_run: true });
  await page.getByTestId('gc-run').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(
    'Kept in every namespace you may administer: the newest revision of each branch, every revision a checkpoint points at, and each branch’s base revision.',
  );
  await expect(dialog).toContainText('Deleted for good: every other revision with its changes');
  await saveScreenshot(page, 'store-gc-confirm');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
});
