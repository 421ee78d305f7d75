import type { Page } from '@playwright/test';
import { expect, openSignedIn, storeCall, test } from './fixtures.js';
import { apply, freshNamespace as fresh, screen } from './store-helpers.js';

/** A fresh namespace for one test. */
const freshNamespace = (name: string): string => fresh('slow', name);

/**
 * Holds the page's requests to URLs matching `pattern` (of `method`, else any) until the returned
 * function is called, as a slow connection would; requests made after that go through at once.
 */
async function hold(page: Page, pattern: RegExp, method?: string): Promise<() => void> {
  let release = (): void => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(pattern, async (route) => {
    if (method !== undefined && route.request().method() !== method) return route.fallback();
    await released;
    // A request the page gave up meanwhile (a newer one replaced it) is already over.
    await route.continue().catch(() => undefined);
  });
  return release;
}

interface Listed {
  readonly checkpoints: readonly {
    readonly name: string;
    readonly revision_id: number;
    readonly description?: string;
  }[];
}

const listCheckpoints = (namespace: string): Promise<Listed> =>
  storeCall<Listed>(`/v1/checkpoints?namespace=${encodeURIComponent(namespace)}`);

test('New checkpoint: a name typed before the checkpoints are listed moves the existing one with its description', async ({
  page,
}) => {
  const namespace = freshNamespace('checkpoint-list');
  const marked = await apply(namespace, 'main', 'one', { 'a.txt': '1\n' });
  await storeCall('/v1/checkpoints', {
    scope: { namespace, branch: 'main' },
    name: 'release',
    description: 'Shipped to prod',
  });
  const head = await apply(namespace, 'main', 'two', { 'a.txt': '2\n' });
  const release = await hold(page, /\/v1\/checkpoints\?/, 'GET');

  await openSignedIn(page, screen('checkpoints', namespace));
  await page.getByTestId('new-checkpoint').click();
  const dialog = page.getByTestId('checkpoint-dialog');
  await dialog.getByLabel('Name', { exact: true }).fill('release');
  await dialog.getByLabel('Name', { exact: true }).press('Enter');
  // Not sent as a new name with an empty description: held, and said to be.
  await expect(dialog.getByTestId('submit-waiting')).toContainText('once the namespace’s checkpoints are read');
  expect((await listCheckpoints(namespace)).checkpoints).toEqual([
    expect.objectContaining({ name: 'release', revision_id: marked.revision }),
  ]);
  release();

  await expect(dialog).toBeHidden();
  await expect(page.locator('.toaster')).toContainText(
    `Checkpoint “release” moved from #${marked.revision} to #${head.revision}`,
  );
  expect((await listCheckpoints(namespace)).checkpoints).toEqual([
    expect.objectContaining({ name: 'release', revision_id: head.revision, description: 'Shipped to prod' }),
  ]);
});

test('New branch: Enter pressed before the preview is read creates the branch once it is', async ({ page }) => {
  const namespace = freshNamespace('branch-enter');
  await apply(namespace, 'main', 'one', { 'a.txt': '1\n' });
  await openSignedIn(page, screen('branches', namespace));
  await expect(page.getByTestId('branches-table')).toContainText('main');
  const release = await hold(page, /\/v1\/state\?/, 'GET');

  await page.getByTestId('new-branch').click();
  const dialog = page.getByTestId('branch-dialog');
  await dialog.getByLabel('Branch name').fill('quick');
  await dialog.getByLabel('Branch name').press('Enter');
  await expect(dialog.getByTestId('submit-waiting')).toHaveText('Creating the branch once its documents are read…');
  await expect(dialog.getByTestId('confirm-branch')).toHaveAttribute('aria-busy', 'true');
  release();

  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/[?&]branch=quick(&|$)/);
  await expect(page.locator('.toaster')).toContainText('Created branch quick');
});

test('Roll back: Enter pressed before the preview is read rolls back once it is, not never', async ({ page }) => {
  const namespace = freshNamespace('rollback-enter');
  const first = await apply(namespace, 'main', 'one', { 'a.txt': '1\n' });
  await apply(namespace, 'main', 'two', { 'a.txt': '2\n' });
  await openSignedIn(page, screen('history', namespace, 'main', `&rev=${first.revision}`));
  await expect(page.getByTestId('log-row')).toHaveCount(2);
  const release = await hold(page, /\/v1\/diff$/, 'POST');

  await page.getByTestId('rollback-button').click();
  const dialog = page.getByTestId('rollback-dialog');
  await expect(dialog.getByTestId('action-preview')).toContainText('Computing the preview');
  await dialog.getByLabel('Message').press('Enter');
  await expect(dialog.getByTestId('submit-waiting')).toHaveText('Rolling back once the preview is read…');
  release();

  await expect(dialog).toBeHidden();
  await expect(page.locator('.toaster')).toContainText(`Rolled back main to #${first.revision}: revision #`);
  const state = await storeCall<{ objects: Record<string, string> }>(
    `/v1/state?namespace=${encodeURIComponent(namespace)}&branch=main`,
  );
  expect(state.objects).toEqual({ 'a.txt': '1\n' });
});

test('a write in flight keeps its dialog open (Cancel, Close and Esc refused) and its toast always shows', async ({
  page,
}) => {
  const namespace = freshNamespace('write-in-flight');
  const first = await apply(namespace, 'main', 'one', { 'a.txt': '1\n' });
  await apply(namespace, 'main', 'two', { 'a.txt': '2\n' });
  await openSignedIn(page, screen('history', namespace, 'main', `&rev=${first.revision}`));
  await page.getByTestId('rollback-button').click();
  const dialog = page.getByTestId('rollback-dialog');
  await expect(dialog.getByTestId('action-preview')).toContainText('1 document would change');
  const release = await hold(page, /\/v1\/rollback$/, 'POST');

  await dialog.getByTestId('confirm-rollback').click();
  await expect(dialog.getByTestId('confirm-rollback')).toHaveAttribute('aria-busy', 'true');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeDisabled();
  await expect(dialog.getByRole('button', { name: 'Close' })).toBeDisabled();
  // Twice: Chrome closes a dialog on a second Esc when only its cancel event was refused.
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await page.mouse.click(5, 5);
  await expect(dialog).toBeVisible();
  release();

  await expect(dialog).toBeHidden();
  await expect(page.locator('.toaster')).toContainText(`Rolled back main to #${first.revision}: revision #`);
});

test('a dialog is done when the store answers its write, not once every read of the namespace is refreshed', async ({
  page,
}) => {
  const namespace = freshNamespace('write-then-refresh');
  await apply(namespace, 'main', 'one', { 'a.txt': '1\n' });
  await storeCall('/v1/checkpoints', { scope: { namespace, branch: 'main' }, name: 'kept' });
  await storeCall('/v1/checkpoints', { scope: { namespace, branch: 'main' }, name: 'old' });
  await openSignedIn(page, screen('checkpoints', namespace));
  const table = page.getByTestId('checkpoints-table');
  await expect(table).toContainText('old');

  // The list is read again after each write: those reads wait.
  const releaseList = await hold(page, /\/v1\/checkpoints\?/, 'GET');
  await page.getByTestId('new-checkpoint').click();
  const dialog = page.getByTestId('checkpoint-dialog');
  await dialog.getByLabel('Name', { exact: true }).fill('new');
  await dialog.getByLabel('Name', { exact: true }).press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.locator('.toaster')).toContainText('Checkpoint “new” created at #');

  // A delete held on its way: its dialog (a confirmation without a form) cannot be closed meanwhile.
  const releaseDelete = await hold(page, /\/v1\/checkpoints$/, 'DELETE');
  await page.getByRole('button', { name: 'Delete old' }).click();
  const confirm = page.getByTestId('delete-checkpoint-dialog');
  await confirm.getByTestId('confirm-delete-checkpoint').click();
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeDisabled();
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await expect(confirm).toBeVisible();
  releaseDelete();
  await expect(confirm).toBeHidden();
  await expect(page.locator('.toaster')).toContainText('Deleted checkpoint “old”');
  // Its row goes with the dialog, before the list is read again: focus is on the table it was in.
  await expect(table.getByRole('link', { name: 'old', exact: true })).toHaveCount(0);
  await expect(table).toBeFocused();

  releaseList();
  await expect(table).toContainText('new');
  expect((await listCheckpoints(namespace)).checkpoints.map((checkpoint) => checkpoint.name).sort()).toEqual([
    'kept',
    'new',
  ]);
});

test('Documents: another branch loading shows as loading, never with the last branch’s documents', async ({ page }) => {
  const namespace = freshNamespace('documents-scope');
  await apply(namespace, 'main', 'main docs', { 'main-only.txt': 'm\n' });
  await apply(namespace, 'feature', 'feature docs', { 'feature-only.txt': 'f\n' });
  await openSignedIn(page, screen('documents', namespace));
  await expect(page.getByTestId('documents-screen')).toContainText('main-only.txt');
  const release = await hold(page, /\/v1\/state\?.*branch=feature/, 'GET');

  await page.getByTestId('branch-picker').selectOption('feature');
  await expect(page).toHaveURL(/[?&]branch=feature(&|$)/);
  await expect(page.getByRole('status').filter({ hasText: 'Loading documents' })).toBeVisible();
  await expect(page.getByText('main-only.txt')).toHaveCount(0);
  release();

  await expect(page.getByTestId('documents-screen')).toContainText('feature-only.txt');
  await expect(page.getByText('main-only.txt')).toHaveCount(0);
});

test('Compare: a side still loading is compared once read, not called the same as the other', async ({ page }) => {
  const namespace = freshNamespace('compare-loading');
  const first = await apply(namespace, 'main', 'one', { 'a.txt': '1\n' });
  const second = await apply(namespace, 'main', 'two', { 'a.txt': '2\n' });
  const third = await apply(namespace, 'main', 'three', { 'a.txt': '1\n' });
  await openSignedIn(page, screen('compare', namespace, 'main', `&from=${first.revision}&to=${third.revision}`));
  const compare = page.getByTestId('compare-screen');
  await expect(compare).toContainText(`#${first.revision} and #${third.revision} have the same documents`);
  const release = await hold(page, new RegExp(`/v1/state\\?.*revision=${second.revision}(&|$)`), 'GET');

  await page.getByTestId('to-source').getByRole('textbox', { name: 'Revision id' }).fill(String(second.revision));
  await expect(compare).toContainText('Comparing…');
  await expect(compare).not.toContainText('have the same documents');
  release();

  await expect(compare).toContainText(`1 document differs between #${first.revision} and #${second.revision}`);
});

test('Restore: Checkpoint chosen before the checkpoints are listed says so, then picks the first once listed', async ({
  page,
}) => {
  const namespace = freshNamespace('restore-picker');
  await apply(namespace, 'main', 'one', { 'a.txt': '1\n' });
  await storeCall('/v1/checkpoints', { scope: { namespace, branch: 'main' }, name: 'only' });
  await apply(namespace, 'main', 'two', { 'a.txt': '2\n' });
  await storeCall('/v1/branches', { scope: { namespace, branch: 'main' }, name: 'side' });
  await openSignedIn(page, screen('branches', namespace));
  const release = await hold(page, /\/v1\/checkpoints\?/, 'GET');

  await page.getByRole('button', { name: 'Restore into main from side' }).click();
  const dialog = page.getByTestId('restore-dialog');
  await dialog.getByRole('radio', { name: 'Checkpoint' }).click();
  const checkpoint = dialog.getByRole('combobox', { name: 'Checkpoint' });
  await expect(checkpoint.locator('option:checked')).toHaveText('Loading checkpoints…');
  await expect(dialog).not.toContainText('No checkpoints');
  release();

  // Listed: the first checkpoint is picked, as it is when the list is there at the click.
  await expect(checkpoint).toHaveValue('only');
  await expect(dialog.getByTestId('action-preview')).toContainText('1 document would change');
  await dialog.getByTestId('confirm-restore').click();
  await expect(dialog).toBeHidden();
  await expect(page.locator('.toaster')).toContainText('Restored main from checkpoint “only”');
});

test('Compare: Branch chosen before the branches are listed picks the first once they are', async ({ page }) => {
  const namespace = freshNamespace('compare-branch-picker');
  const first = await apply(namespace, 'main', 'one', { 'a.txt': '1\n' });
  const second = await apply(namespace, 'main', 'two', { 'a.txt': '2\n' });
  const release = await hold(page, /\/v1\/branches\?/, 'GET');
  await openSignedIn(page, screen('compare', namespace, 'main', `&from=${first.revision}&to=${second.revision}`));

  await page.getByRole('radiogroup', { name: 'To: kind' }).getByRole('radio', { name: 'Branch' }).click();
  const branch = page.getByRole('combobox', { name: 'To: branch', exact: true });
  await expect(branch.locator('option:checked')).toHaveText('Loading branches…');
  release();

  await expect(branch).toHaveValue('main');
  await expect(page.getByTestId('compare-screen')).toContainText(
    `1 document differs between #${first.revision} and #${second.revision}`,
  );
});
