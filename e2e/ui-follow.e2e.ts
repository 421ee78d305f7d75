import type { Locator, Page } from '@playwright/test';
import { apply, freshNamespace as fresh, screen } from './store-helpers.js';
import { expect, gatewayAdmin, openSignedIn, saveScreenshot, storeCall, test } from './fixtures.js';

/** A fresh namespace for one test. */
const freshNamespace = (name: string): string => fresh('follow', name);

/** The dialog's confirm button is its only submit button: Enter goes through it, and not while it is disabled. */
async function expectSubmitsThrough(dialog: Locator, confirm: Locator): Promise<void> {
  await expect(dialog.locator('button[type="submit"]')).toHaveCount(1);
  await expect(confirm).toHaveAttribute('type', 'submit');
}

test('Enter in a store dialog does nothing while its confirm is disabled, and submits through that button', async ({
  page,
}) => {
  const namespace = freshNamespace('enter-disabled');
  await apply(namespace, 'main', 'one', { 'a.txt': '1\n' });
  await apply(namespace, 'other', 'elsewhere', { 'b.txt': 'b\n' });
  await storeCall('/v1/checkpoints', { scope: { namespace, branch: 'main' }, name: 'at-head' });

  await openSignedIn(page, screen('branches', namespace));
  await page.getByTestId('new-branch').click();
  const branchDialog = page.getByTestId('branch-dialog');
  const createBranch = branchDialog.getByTestId('confirm-branch');
  await expectSubmitsThrough(branchDialog, createBranch);
  await expect(branchDialog.getByTestId('action-preview')).toContainText('a.txt');
  await branchDialog.getByLabel('Branch name').fill('no spaces allowed');
  await expect(createBranch).toBeDisabled();
  await branchDialog.getByLabel('Branch name').press('Enter');
  await expect(branchDialog).toBeVisible();
  await expect(page).not.toHaveURL(/branch=no/);
  await page.keyboard.press('Escape');

  await openSignedIn(page, screen('checkpoints', namespace));
  await page.getByTestId('new-checkpoint').click();
  const checkpointDialog = page.getByTestId('checkpoint-dialog');
  const createCheckpoint = checkpointDialog.getByTestId('confirm-checkpoint');
  await expectSubmitsThrough(checkpointDialog, createCheckpoint);
  await expect(createCheckpoint).toBeDisabled();
  await checkpointDialog.getByLabel('Name', { exact: true }).press('Enter');
  await expect(checkpointDialog).toBeVisible();
  await page.keyboard.press('Escape');

  // A checkpoint at the head: nothing to roll back, so confirm stays disabled.
  await page.getByRole('button', { name: 'Roll back to at-head', exact: true }).click();
  const rollback = page.getByTestId('rollback-dialog');
  const confirmRollback = rollback.getByTestId('confirm-rollback');
  await expectSubmitsThrough(rollback, confirmRollback);
  await expect(rollback.getByTestId('action-preview')).toContainText('nothing to roll back');
  await expect(confirmRollback).toBeDisabled();
  await rollback.getByLabel('Message').press('Enter');
  await expect(rollback).toBeVisible();
  await page.keyboard.press('Escape');

  await openSignedIn(page, screen('branches', namespace));
  await page.getByRole('button', { name: 'Restore into main' }).click();
  const restore = page.getByTestId('restore-dialog');
  const confirmRestore = restore.getByTestId('confirm-restore');
  await expectSubmitsThrough(restore, confirmRestore);
  await restore.getByRole('radio', { name: 'Revision' }).click();
  await restore.getByRole('textbox', { name: 'Revision id' }).fill('abc');
  await expect(restore.getByRole('alert')).toContainText('“abc” is not a revision id');
  await expect(confirmRestore).toBeDisabled();
  await restore.getByLabel('Message').press('Enter');
  await expect(restore).toBeVisible();

  const log = await storeCall<{ entries: unknown[] }>(`/v1/log?namespace=${encodeURIComponent(namespace)}&branch=main`);
  expect(log.entries).toHaveLength(1);
});

test('the gateway form dialogs submit through their confirm button too', async ({ page }) => {
  await openSignedIn(page, 'gateway/keys');
  await page.getByTestId('issue-key').click();
  const dialog = page.getByTestId('issue-key-dialog');
  await expectSubmitsThrough(dialog, dialog.getByTestId('confirm-issue-key'));
  // A stray Enter on the empty form issues nothing: the name is required.
  const name = dialog.getByLabel('Name', { exact: true });
  await expect(name).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog).toContainText('Name is required');
  await expect(page.getByTestId('issued-key-secret')).toHaveCount(0);
});

/** Opens a dialog with `opener`, checks where focus starts, closes it with Esc and checks focus is back. */
async function checkFocus(page: Page, opener: Locator, dialog: Locator, first: Locator): Promise<void> {
  await opener.click();
  await expect(dialog).toBeVisible();
  await expect(first).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
}

test('every store dialog starts on its first field (or its action) and gives focus back to its opener', async ({
  page,
}) => {
  const namespace = freshNamespace('focus');
  const first = await apply(namespace, 'main', 'one', { 'a.txt': '1\n' });
  await storeCall('/v1/checkpoints', { scope: { namespace, branch: 'main' }, name: 'mine' });
  await apply(namespace, 'main', 'two', { 'a.txt': '2\n' });
  const elsewhere = await apply(namespace, 'other', 'elsewhere', { 'b.txt': 'b\n' });
  await storeCall('/v1/checkpoints', { scope: { namespace, branch: 'other' }, name: 'theirs' });

  await openSignedIn(page, screen('branches', namespace));
  const branchDialog = page.getByTestId('branch-dialog');
  await checkFocus(page, page.getByTestId('new-branch'), branchDialog, branchDialog.getByLabel('Branch name'));
  const restore = page.getByTestId('restore-dialog');
  await checkFocus(
    page,
    page.getByRole('button', { name: 'Restore into main' }),
    restore,
    restore.getByRole('combobox', { name: 'Branch' }),
  );

  await openSignedIn(page, screen('checkpoints', namespace));
  const checkpointDialog = page.getByTestId('checkpoint-dialog');
  await checkFocus(
    page,
    page.getByTestId('new-checkpoint'),
    checkpointDialog,
    checkpointDialog.getByLabel('Name', { exact: true }),
  );
  const rollback = page.getByTestId('rollback-dialog');
  await checkFocus(
    page,
    page.getByRole('button', { name: 'Roll back to mine', exact: true }),
    rollback,
    rollback.getByLabel('Message'),
  );
  await checkFocus(
    page,
    page.getByRole('button', { name: 'Restore into main' }),
    restore,
    restore.getByRole('combobox', { name: 'Checkpoint' }),
  );
  // Deleting cannot be undone: focus starts on Cancel.
  const remove = page.getByTestId('delete-checkpoint-dialog');
  await checkFocus(
    page,
    page.getByRole('button', { name: 'Delete mine' }),
    remove,
    remove.getByRole('button', { name: 'Cancel' }),
  );

  await openSignedIn(page, screen('history', namespace, 'main', `&rev=${first.revision}`));
  const detail = page.getByTestId('revision-detail');
  await checkFocus(page, page.getByTestId('rollback-button'), rollback, rollback.getByLabel('Message'));
  await checkFocus(
    page,
    detail.getByRole('button', { name: 'Branch' }),
    branchDialog,
    branchDialog.getByLabel('Branch name'),
  );
  await openSignedIn(page, screen('history', namespace, 'main', `&rev=${elsewhere.revision}`));
  await checkFocus(
    page,
    detail.getByRole('button', { name: 'Restore into main' }),
    restore,
    restore.getByRole('textbox', { name: 'Revision id' }),
  );

  await openSignedIn(page, screen('documents', namespace, 'main', `&rev=${first.revision}`));
  await checkFocus(
    page,
    page.getByRole('button', { name: 'Roll back main to this' }),
    rollback,
    rollback.getByLabel('Message'),
  );
});

test('garbage collection: the prune dialog starts on Cancel and gives focus back to Prune', async ({ page }) => {
  const namespace = freshNamespace('gc-focus');
  for (let index = 0; index < 3; index += 1) await apply(namespace, 'main', `r${index}`, { 'a.txt': `${index}\n` });
  await openSignedIn(page, 'store/maintenance');
  const keep = page.getByLabel('Revisions to keep per branch');
  await keep.fill('x');
  await expect(keep).toHaveAccessibleDescription('Revisions to keep per branch must be a whole number, like 10.');
  // Keeping one revision of this namespace's three leaves something to prune; nothing is pruned here.
  await keep.fill('1');
  await page.getByTestId('gc-preview').click();
  const run = page.getByTestId('gc-run');
  await expect(run).toBeEnabled();
  const dialog = page.getByRole('dialog');
  await checkFocus(page, run, dialog, dialog.getByRole('button', { name: 'Cancel' }));
});

test('documents: a revision id is kept as typed, and one that is not an id is named', async ({ page }) => {
  const namespace = freshNamespace('documents-rev');
  const first = await apply(namespace, 'main', 'one', { 'a.txt': '1\n' });
  await apply(namespace, 'main', 'two', { 'a.txt': '2\n', 'b.txt': 'b\n' });

  await openSignedIn(page, screen('documents', namespace, 'main', '&rev=abc'));
  const id = page.getByRole('textbox', { name: 'Revision id' });
  await expect(id).toHaveValue('abc');
  await expect(id).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('alert')).toContainText('“abc” is not a revision id');
  await expect(page.getByTestId('state-summary')).toBeHidden();
  await saveScreenshot(page, 'store-documents-bad-revision');

  await id.fill(`${first.revision}x`);
  await expect(id).toHaveValue(`${first.revision}x`);
  await expect(page.getByRole('alert')).toContainText(`“${first.revision}x” is not a revision id`);

  // Emptied to type another id: still a revision, asked for.
  await id.fill('');
  await expect(id).toBeVisible();
  await expect(page.getByTestId('revision-picker')).toHaveValue('revision');

  await id.fill(String(first.revision));
  await expect(page).toHaveURL(new RegExp(`rev=${first.revision}(&|$)`));
  await expect(page.getByTestId('state-summary')).toContainText(`1 document at #${first.revision}`);
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('history: a rev= that is not a revision id is named instead of showing the head', async ({ page }) => {
  const namespace = freshNamespace('history-rev');
  await apply(namespace, 'main', 'only one', { 'a.txt': '1\n' });
  await openSignedIn(page, screen('history', namespace, 'main', '&rev=abc'));
  await expect(page.getByTestId('log-row')).toHaveCount(1);
  await expect(page.getByRole('alert')).toContainText('“abc” is not a revision id');
  await expect(page.getByTestId('revision-detail')).toHaveCount(0);
  // Picking a revision in the log replaces it.
  await page.getByTestId('log-row').click();
  await expect(page.getByTestId('revision-detail')).toContainText('only one');
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('g then n goes to Maintenance, and the shortcuts list says so', async ({ page }) => {
  await openSignedIn(page, 'gateway/usage');
  await expect(page.getByRole('heading', { name: 'Usage', level: 1 })).toBeVisible();
  await page.keyboard.press('g');
  await page.keyboard.press('n');
  await expect(page).toHaveURL(/\/ui\/store\/maintenance(\?|$)/);
  await expect(page.getByTestId('gc-panel')).toBeVisible();
  await page.keyboard.press('?');
  const shortcuts = page.getByTestId('shortcuts-dialog');
  await expect(shortcuts.locator('.shortcut-row').filter({ hasText: 'Maintenance' })).toContainText('gn');
});

test('cache settings: a problem shows on its field as it is typed, and next to the disabled Save', async ({ page }) => {
  try {
    await openSignedIn(page, 'gateway/cache');
    await expect(page.getByTestId('cache-stats')).toBeVisible();
    const ttl = page.getByLabel('Time to live (seconds)');
    await ttl.fill('1.5');
    await expect(ttl).toHaveAttribute('aria-invalid', 'true');
    await expect(ttl).toHaveAccessibleDescription(/Time to live must be a whole number/);
    const save = page.getByTestId('save-cache');
    await expect(save).toBeDisabled();
    await expect(page.getByTestId('save-blocked')).toHaveText('Save is disabled: Time to live must be a whole number');

    // The shared schema's ranges are checked as typed too.
    await ttl.fill('0');
    await expect(page.getByTestId('save-blocked')).toHaveText('Save is disabled: Time to live must be 1 or more');
    await ttl.fill('120');
    await expect(ttl).not.toHaveAttribute('aria-invalid', 'true');
    await expect(save).toBeEnabled();

    const rules = page.getByLabel('Per-model rules');
    await rules.fill('{"gpt-4o": {"enabled": "no"}}');
    await expect(rules).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByTestId('save-blocked')).toContainText('Save is disabled: Per-model rules: gpt-4o.enabled');
    await rules.fill('{gpt');
    await expect(page.getByTestId('save-blocked')).toContainText('Save is disabled: Per-model rules must be JSON');
    await page.getByLabel('Memory bound (bytes)').fill('');
    await expect(page.getByTestId('save-blocked')).toContainText('(and 1 more problem)');
    await saveScreenshot(page, 'gateway-cache-problems');
    await page.getByTestId('show-problem').click();
    await expect(page.getByLabel('Memory bound (bytes)')).toBeFocused();
  } finally {
    await gatewayAdmin('/internal/cache', 'PUT', { reset: true });
  }
});

test('after a store dialog has done its work, focus is on what opened it, or where it was', async ({ page }) => {
  const namespace = freshNamespace('focus-after');
  const first = await apply(namespace, 'main', 'one', { 'a.txt': '1\n' });
  await apply(namespace, 'main', 'two', { 'a.txt': '2\n' });
  await storeCall('/v1/checkpoints', { scope: { namespace, branch: 'main' }, name: 'there' });

  await openSignedIn(page, screen('checkpoints', namespace));
  const create = page.getByTestId('new-checkpoint');
  await create.click();
  await page.getByTestId('checkpoint-dialog').getByLabel('Name', { exact: true }).fill('made');
  // The dialog marks the branch's head, which it reads first: Enter submits only once it knows it.
  await expect(page.getByTestId('confirm-checkpoint')).toBeEnabled();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('checkpoints-table')).toContainText('made');
  await expect(create).toBeFocused();

  // The deleted checkpoint's row (and its Delete button) is gone: focus goes to the table.
  await page.getByRole('button', { name: 'Delete made' }).click();
  await page.getByTestId('confirm-delete-checkpoint').click();
  await expect(page.getByTestId('delete-checkpoint-dialog')).toBeHidden();
  await expect(page.getByTestId('checkpoints-table')).toBeFocused();

  // A rollback shows the new revision: focus goes to the log it was added to.
  await openSignedIn(page, screen('history', namespace, 'main', `&rev=${first.revision}`));
  await page.getByTestId('rollback-button').click();
  await page.getByTestId('rollback-dialog').getByTestId('confirm-rollback').click();
  await expect(page.getByTestId('log-row')).toHaveCount(3);
  await expect(page.getByTestId('log-list')).toBeFocused();
});

// Last: it prunes every namespace's history (as the UI's garbage collection does).
test('garbage collection: after pruning, focus is on the keep field', async ({ page }) => {
  const namespace = freshNamespace('gc-after');
  for (let index = 0; index < 5; index += 1) await apply(namespace, 'main', `r${index}`, { 'a.txt': `${index}\n` });
  await openSignedIn(page, 'store/maintenance');
  const keep = page.getByLabel('Revisions to keep per branch');
  await keep.fill('3');
  await page.getByTestId('gc-preview').click();
  await page.getByTestId('gc-run').click();
  await page.getByTestId('gc-confirm').click();
  await expect(page.getByText(/Pruned [1-9]\d* revisions?/)).toBeVisible();
  await expect(keep).toBeFocused();
});
