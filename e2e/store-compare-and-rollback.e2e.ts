import type { Page } from '@playwright/test';
import { allowStatus, apply, freshNamespace as fresh, holdStoreChanges, screen } from './store-helpers.js';
import { expect, openSignedIn, saveScreenshot, storeCall, test } from './fixtures.js';

interface Checkpoints {
  readonly checkpoints: readonly { name: string; revision_id: number; description: string }[];
}

/** A fresh namespace for one test. */
const freshNamespace = (name: string): string => fresh('review', name);

async function titleBox(page: Page) {
  const title = page.getByTestId('revision-detail').locator('.revision-title');
  await expect(title).toHaveCount(1);
  return (await title.boundingBox())!;
}

test('the revision title stays readable in windows 1024 to 1280 px wide', async ({ page }) => {
  const namespace = freshNamespace('layout');
  await apply(namespace, 'main', 'Initial configuration', { 'services/billing.json': 'a\nb\n' });
  await apply(namespace, 'main', 'Scale billing to 4 replicas', { 'services/billing.json': 'a\nc\n' });
  for (const width of [1024, 1100, 1280]) {
    await page.setViewportSize({ width, height: 760 });
    await openSignedIn(page, screen('history', namespace));
    const box = await titleBox(page);
    // One line of a short message (a line of the title is about 25 px), and at least half of the
    // detail pane's width to grow into.
    expect(box.height, `title height at ${width} px`).toBeLessThan(40);
    const detail = (await page.locator('.split-detail').boundingBox())!;
    expect(box.width, `title width at ${width} px`).toBeGreaterThan(detail.width / 2);
    await expect(page.getByTestId('rollback-button')).toBeVisible();
    await expect(page.getByTestId('revision-detail').getByRole('link', { name: 'Compare' })).toBeVisible();
    await page.screenshot({ path: `e2e/artifacts/store-history-${width}.png` });
  }
});

test('compare: Revision can be chosen on either side and its id typed', async ({ page }) => {
  const namespace = freshNamespace('compare-kind');
  const first = await apply(namespace, 'main', 'one', { 'a.txt': '1\n', 'b.txt': 'b\n' });
  await apply(namespace, 'main', 'two', { 'a.txt': '2\n' });
  await openSignedIn(page, screen('compare', namespace));

  const from = page.getByTestId('from-source');
  await from.getByRole('radio', { name: 'Revision' }).click();
  await expect(from.getByRole('radio', { name: 'Revision' })).toHaveAttribute('aria-checked', 'true');
  const id = from.getByRole('textbox', { name: 'Revision id' });
  await expect(id).toBeVisible();
  await expect(page.getByTestId('compare-screen')).toContainText('Type a revision id for From');
  await id.fill(String(first.revision));
  await expect(page).toHaveURL(new RegExp(`from=${first.revision}(&|$)`));
  await expect(page.getByTestId('compare-screen')).toContainText(`1 document differs between #${first.revision}`);

  // What is typed stays as typed, and a value that is no revision id is named.
  await id.fill(`${first.revision}x`);
  await expect(id).toHaveValue(`${first.revision}x`);
  await expect(id).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('alert')).toContainText(`“${first.revision}x” is not a revision id`);

  const to = page.getByTestId('to-source');
  await to.getByRole('radio', { name: 'Revision' }).click();
  await expect(to.getByRole('radio', { name: 'Revision' })).toHaveAttribute('aria-checked', 'true');
  await expect(to.getByRole('textbox', { name: 'Revision id' })).toBeVisible();
});

test('compare names the source in the URL that does not exist or cannot be read', async ({ page, consoleErrors }) => {
  const namespace = freshNamespace('compare-bad');
  await apply(namespace, 'main', 'one', { 'a.txt': '1\n' });
  const cases: readonly (readonly [string, string])[] = [
    ['abc', 'From: “abc” is not a revision id'],
    ['999999', 'From: revision #999999 could not be loaded'],
    ['cp:nope', 'From: there is no checkpoint “nope”'],
    ['branch:nope', 'From: there is no branch “nope”'],
  ];
  for (const [value, message] of cases) {
    await openSignedIn(page, screen('compare', namespace, 'main', `&from=${encodeURIComponent(value)}&to=branch:main`));
    await expect(page.getByTestId('compare-screen').getByRole('alert')).toContainText(message);
    await saveScreenshot(page, `store-compare-bad-${value.replace(/\W/g, '-')}`);
  }
  // A kind with no name yet asks for one.
  await openSignedIn(page, screen('compare', namespace, 'main', '&from=cp:&to=branch:main'));
  await expect(page.getByTestId('compare-screen')).toContainText('Pick a checkpoint for From.');
  await openSignedIn(page, screen('compare', namespace, 'main', '&from=branch:main&to=cp:gone'));
  await expect(page.getByTestId('compare-screen').getByRole('alert')).toContainText(
    'To: there is no checkpoint “gone”',
  );
  allowStatus(consoleErrors, 404);
});

test('count phrases agree with their number', async ({ page }) => {
  const namespace = freshNamespace('wording');
  const first = await apply(namespace, 'main', 'one', { 'a.txt': '1\n', 'b.txt': '1\n' });
  const second = await apply(namespace, 'main', 'two', { 'a.txt': '2\n' });
  const third = await apply(namespace, 'main', 'three', { 'b.txt': '3\n' });
  const summary = page.getByTestId('compare-screen').locator('.compare-summary');
  await openSignedIn(page, screen('compare', namespace, 'main', `&from=${first.revision}&to=${second.revision}`));
  await expect(summary).toHaveText(`1 document differs between #${first.revision} and #${second.revision}`);
  await openSignedIn(page, screen('compare', namespace, 'main', `&from=${first.revision}&to=${third.revision}`));
  await expect(summary).toHaveText(`2 documents differ between #${first.revision} and #${third.revision}`);
  // No count to give: the empty view says it once, without "0 documents differ" above it.
  await openSignedIn(page, screen('compare', namespace, 'main', `&from=${second.revision}&to=${second.revision}`));
  await expect(page.getByTestId('compare-screen')).toContainText(
    `#${second.revision} and #${second.revision} have the same documents.`,
  );
  await expect(summary).toHaveCount(0);
});

test('roll back after the branch moved: says so, refreshes the history and previews against the new head', async ({
  page,
  consoleErrors,
}) => {
  const namespace = freshNamespace('rollback-409');
  const first = await apply(namespace, 'main', 'first', { 'a.txt': '1\n' });
  await apply(namespace, 'main', 'second', { 'a.txt': '2\n' });
  await openSignedIn(page, screen('history', namespace, 'main', `&rev=${first.revision}`));
  await expect(page.getByTestId('log-row')).toHaveCount(2);
  await page.getByTestId('rollback-button').click();
  const dialog = page.getByTestId('rollback-dialog');
  await expect(dialog.getByTestId('action-preview')).toContainText('1 document would change');

  // Someone else writes meanwhile.
  const releaseChanges = await holdStoreChanges(page);
  const moved = await apply(namespace, 'main', 'third', { 'b.txt': 'new\n' });
  await dialog.getByTestId('confirm-rollback').click();
  await releaseChanges();
  await expect(dialog.getByRole('alert')).toContainText(`main moved to #${moved.revision}`);
  await expect(dialog.getByTestId('action-preview')).toContainText('2 documents would change');
  await expect(dialog.getByTestId('changes-list')).toContainText('b.txt');
  await expect(page.getByTestId('log-row')).toHaveCount(3);
  await saveScreenshot(page, 'store-rollback-branch-moved');

  await dialog.getByTestId('confirm-rollback').click();
  await expect(dialog).toBeHidden();
  const state = await storeCall<{ objects: Record<string, string> }>(
    `/v1/state?namespace=${encodeURIComponent(namespace)}&branch=main`,
  );
  expect(state.objects).toEqual({ 'a.txt': '1\n' });
  allowStatus(consoleErrors, 409);
});

test('moving a checkpoint keeps its description unless it is changed', async ({ page }) => {
  const namespace = freshNamespace('checkpoint-move');
  const scope = { namespace, branch: 'main' };
  const first = await apply(namespace, 'main', 'one', { 'a.txt': '1\n' });
  await storeCall('/v1/checkpoints', { scope, name: 'release', description: 'the first release' });
  const second = await apply(namespace, 'main', 'two', { 'a.txt': '2\n' });

  await openSignedIn(page, screen('checkpoints', namespace));
  await page.getByTestId('new-checkpoint').click();
  const dialog = page.getByTestId('checkpoint-dialog');
  await dialog.getByLabel('Name', { exact: true }).fill('release');
  await expect(dialog.getByLabel('Description')).toHaveValue('the first release');
  await dialog.getByTestId('confirm-checkpoint').click();
  await expect(dialog).toBeHidden();
  await expect(page.locator('.toaster')).toContainText(
    `Checkpoint “release” moved from #${first.revision} to #${second.revision}`,
  );
  const listed = await storeCall<Checkpoints>(`/v1/checkpoints?namespace=${encodeURIComponent(namespace)}`);
  expect(listed.checkpoints).toEqual([
    expect.objectContaining({ name: 'release', revision_id: second.revision, description: 'the first release' }),
  ]);

  // A description the user changes is the one sent.
  const third = await apply(namespace, 'main', 'three', { 'a.txt': '3\n' });
  await page.getByTestId('new-checkpoint').click();
  await dialog.getByLabel('Name', { exact: true }).fill('release');
  await dialog.getByLabel('Description').fill('the second release');
  await dialog.getByTestId('confirm-checkpoint').click();
  await expect(dialog).toBeHidden();
  const relisted = await storeCall<Checkpoints>(`/v1/checkpoints?namespace=${encodeURIComponent(namespace)}`);
  expect(relisted.checkpoints).toEqual([
    expect.objectContaining({ name: 'release', revision_id: third.revision, description: 'the second release' }),
  ]);

  // A new name is created, and the toast says so rather than that it moved.
  await page.getByTestId('new-checkpoint').click();
  await dialog.getByLabel('Name', { exact: true }).fill('nightly');
  await dialog.getByTestId('confirm-checkpoint').click();
  await expect(dialog).toBeHidden();
  await expect(page.locator('.toaster')).toContainText(`Checkpoint “nightly” created at #${third.revision}`);

  // A name the store would refuse is marked on its field as typed, and cannot be sent.
  await page.getByTestId('new-checkpoint').click();
  await dialog.getByLabel('Name', { exact: true }).fill('n'.repeat(300));
  await expect(dialog.getByLabel('Name', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog).toContainText('Name must be at most 256 characters.');
  await expect(dialog.getByTestId('confirm-checkpoint')).toBeDisabled();
  // An invisible format character would let one name pass for another ("nightly" and "nightly\u200b").
  await dialog.getByLabel('Name', { exact: true }).fill('nightly\u200b');
  await expect(dialog).toContainText('Name must not contain invisible format characters');
  await expect(dialog.getByTestId('confirm-checkpoint')).toBeDisabled();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // One already at the head is not moved: only an edited description updates it.
  await page.getByTestId('new-checkpoint').click();
  await dialog.getByLabel('Name', { exact: true }).fill('nightly');
  await expect(dialog).toContainText(`“nightly” is already at #${third.revision}: edit its description to update it.`);
  await expect(dialog.getByTestId('confirm-checkpoint')).toBeDisabled();
  await dialog.getByLabel('Description').fill('kept for the demo');
  await expect(dialog.getByTestId('confirm-checkpoint')).toHaveText('Update checkpoint');
  await dialog.getByTestId('confirm-checkpoint').click();
  await expect(dialog).toBeHidden();
  await expect(page.locator('.toaster')).toContainText(`Checkpoint “nightly” at #${third.revision} updated`);
});

test('a revision of another branch offers restore, not a rollback that cannot work', async ({ page }) => {
  const namespace = freshNamespace('other-branch');
  const base = await apply(namespace, 'main', 'base', { 'a.txt': '1\n' });
  await storeCall('/v1/branches', { scope: { namespace, branch: 'main' }, name: 'canary' });
  const onCanary = await apply(namespace, 'canary', 'canary change', { 'a.txt': 'canary\n' });
  await apply(namespace, 'main', 'main change', { 'a.txt': 'main\n' });

  for (const [branch, revision, owner] of [
    ['main', onCanary.revision, 'canary'],
    ['canary', base.revision, 'main'],
  ] as const) {
    await openSignedIn(page, screen('history', namespace, branch, `&rev=${revision}`));
    const detail = page.getByTestId('revision-detail');
    await expect(detail).toContainText(`#${revision} is on ${owner}, not in the history of ${branch}`);
    await expect(page.getByTestId('rollback-button')).toHaveCount(0);
    await saveScreenshot(page, `store-history-elsewhere-${branch}`);
    await detail.getByRole('button', { name: `Restore into ${branch}` }).click();
    const restore = page.getByTestId('restore-dialog');
    await expect(restore.getByTestId('action-preview')).toContainText('1 document would change');
    await restore.getByRole('button', { name: 'Cancel' }).click();
  }

  // Restoring a revision of another branch works, where a rollback to it would be refused.
  await page.getByTestId('revision-detail').getByRole('button', { name: 'Restore into canary' }).click();
  await page.getByTestId('confirm-restore').click();
  await expect(page.getByTestId('restore-dialog')).toBeHidden();
  const state = await storeCall<{ objects: Record<string, string> }>(
    `/v1/state?namespace=${encodeURIComponent(namespace)}&branch=canary`,
  );
  expect(state.objects).toEqual({ 'a.txt': '1\n' });
});

test('garbage collection keeps what is typed in keep and says what is wrong with it', async ({ page }) => {
  await openSignedIn(page, 'store/maintenance');
  const keep = page.getByLabel('Revisions to keep per branch');
  const preview = page.getByTestId('gc-preview');
  const panel = page.getByTestId('gc-panel');
  for (const [typed, problem] of [
    ['5x', 'Revisions to keep per branch must be a whole number, like 10.'],
    ['0', 'Revisions to keep per branch must be at least 1.'],
    ['', 'Revisions to keep per branch is empty: enter how many to keep, like 10.'],
    ['-3', 'Revisions to keep per branch must be at least 1.'],
  ] as const) {
    await keep.fill(typed);
    await expect(keep).toHaveValue(typed);
    await expect(keep).toHaveAttribute('aria-invalid', 'true');
    await expect(panel).toContainText(problem);
    await expect(preview).toBeDisabled();
  }
  await saveScreenshot(page, 'store-gc-keep-invalid');
  await keep.fill('100000');
  await expect(keep).not.toHaveAttribute('aria-invalid', 'true');
  // Enter in the field runs the preview (a dry run: nothing is deleted).
  await keep.press('Enter');
  await expect(page.getByTestId('gc-result')).toBeVisible();
});

test('Enter submits the store dialogs', async ({ page }) => {
  const namespace = freshNamespace('enter');
  const first = await apply(namespace, 'main', 'one', { 'a.txt': '1\n' });
  const second = await apply(namespace, 'main', 'two', { 'a.txt': '2\n' });

  await openSignedIn(page, screen('branches', namespace));
  await page.getByTestId('new-branch').click();
  const branchDialog = page.getByTestId('branch-dialog');
  await expect(branchDialog.getByTestId('action-preview')).toContainText('a.txt');
  await branchDialog.getByLabel('Branch name').fill('feature/enter');
  await branchDialog.getByLabel('Branch name').press('Enter');
  await expect(page).toHaveURL(/branch=feature%2Fenter/);

  await openSignedIn(page, screen('checkpoints', namespace));
  await page.getByTestId('new-checkpoint').click();
  const checkpointDialog = page.getByTestId('checkpoint-dialog');
  await checkpointDialog.getByLabel('Name', { exact: true }).fill('by-enter');
  await checkpointDialog.getByLabel('Name', { exact: true }).press('Enter');
  await expect(checkpointDialog).toBeHidden();
  await expect(page.getByTestId('checkpoints-table')).toContainText('by-enter');

  await openSignedIn(page, screen('history', namespace, 'main', `&rev=${first.revision}`));
  await page.getByTestId('rollback-button').click();
  const rollback = page.getByTestId('rollback-dialog');
  await expect(rollback.getByTestId('action-preview')).toContainText('1 document would change');
  await rollback.getByLabel('Message').press('Enter');
  await expect(rollback).toBeHidden();
  await expect(page.getByTestId('log-row')).toHaveCount(3);

  // Two text fields (a revision id and the message): Enter still submits.
  await openSignedIn(page, screen('branches', namespace));
  await page.getByRole('button', { name: 'Restore into main' }).click();
  const restore = page.getByTestId('restore-dialog');
  await restore.getByRole('radio', { name: 'Revision' }).click();
  await restore.getByRole('textbox', { name: 'Revision id' }).fill(String(second.revision));
  await expect(restore.getByTestId('action-preview')).toContainText('1 document would change');
  await restore.getByLabel('Message').press('Enter');
  await expect(restore).toBeHidden();
  const state = await storeCall<{ objects: Record<string, string> }>(
    `/v1/state?namespace=${encodeURIComponent(namespace)}&branch=main`,
  );
  expect(state.objects).toEqual({ 'a.txt': '2\n' });
});

test('restore never confirms against the last source while the chosen one loads', async ({ page }) => {
  const namespace = freshNamespace('restore-switch');
  await apply(namespace, 'main', 'base', { 'a.txt': '1\n' });
  for (const [branch, content] of [
    ['first', 'first\n'],
    ['second', 'second\n'],
  ] as const) {
    await storeCall('/v1/branches', { scope: { namespace, branch: 'main' }, name: branch });
    await apply(namespace, branch, `${branch} change`, { 'a.txt': content, [`${branch}.txt`]: 'x\n' });
  }
  // The second branch's documents arrive only when the test lets them.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/v1\/state\?.*branch=second/, async (route) => {
    await held;
    await route.continue();
  });
  await openSignedIn(page, screen('branches', namespace));
  await page.getByRole('button', { name: 'Restore into main' }).first().click();
  const dialog = page.getByTestId('restore-dialog');
  await dialog.getByLabel('Branch').selectOption('first');
  await expect(dialog.getByTestId('action-preview')).toContainText('first.txt');
  await expect(page.getByTestId('confirm-restore')).toBeEnabled();

  await dialog.getByLabel('Branch').selectOption('second');
  await expect(dialog).toContainText('Computing the preview');
  await expect(dialog.getByTestId('action-preview')).not.toContainText('first.txt');
  await expect(page.getByTestId('confirm-restore')).toBeDisabled();
  release();
  await expect(dialog.getByTestId('action-preview')).toContainText('second.txt');
  await expect(page.getByTestId('confirm-restore')).toBeEnabled();
});
