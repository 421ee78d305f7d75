import type { Page } from '@playwright/test';
import {
  allowStatus,
  apply,
  freshNamespace as fresh,
  holdStoreChanges,
  mainAndFeature,
  screen,
  stateOf,
} from './store-helpers.js';
import { expect, openSignedIn, saveScreenshot, test } from './fixtures.js';

const freshNamespace = (name: string): string => fresh('storeui', name);

const mergeButton = (page: Page, branch: string) =>
  page.getByRole('button', { name: `Merge into main from ${branch}`, exact: true });

test('revert a revision from History: the preview shows it taken back, and the head has the documents as before it', async ({
  page,
}) => {
  const namespace = freshNamespace('revert');
  await apply(namespace, 'main', 'one', { 'a.txt': '1\n', 'b.txt': 'b\n' });
  const two = await apply(namespace, 'main', 'Raise the limit\n\nFor the launch.', {
    'a.txt': '2\n',
    'new.txt': 'n\n',
  });
  await apply(namespace, 'main', 'three', { 'c.txt': 'c\n' });
  await openSignedIn(page, screen('history', namespace, 'main', `&rev=${two.revision}`));
  await page.getByTestId('revert-button').click();

  const dialog = page.getByTestId('revert-dialog');
  await expect(dialog.getByLabel('Message')).toHaveValue('Revert "Raise the limit"');
  await expect(dialog.getByLabel('Message')).toBeFocused();
  const preview = dialog.getByTestId('action-preview');
  await expect(preview).toContainText('2 documents would change');
  await expect(dialog.getByTestId('changes-list')).toContainText('a.txt');
  await expect(dialog.getByTestId('changes-list')).toContainText('new.txt');
  await saveScreenshot(page, 'storeui-revert-preview');

  await dialog.getByTestId('confirm-revert').click();
  await expect(dialog).toBeHidden();
  const after = await stateOf(namespace);
  expect(after.objects).toEqual({ 'a.txt': '1\n', 'b.txt': 'b\n', 'c.txt': 'c\n' });
  await expect(page.locator('.toaster')).toContainText(
    `Reverted #${two.revision} on main: revision #${after.revision}`,
  );
  await expect(page.getByTestId('log-row')).toHaveCount(4);
  // The store's own default message, naming the reverted revision, since the proposed one was kept.
  const detail = page.getByTestId('revision-detail');
  await expect(detail).toContainText('Revert "Raise the limit"');
  await expect(detail).toContainText(`This reverts revision ${two.revision}.`);
  await expect(page.getByTestId('log-list')).toBeFocused();
});

test('a revert whose documents changed again names them in the dialog, and nothing is written', async ({
  page,
  consoleErrors,
}) => {
  const namespace = freshNamespace('revert-conflict');
  await apply(namespace, 'main', 'one', { 'a.txt': '1\n', 'b.txt': '1\n' });
  const two = await apply(namespace, 'main', 'two', { 'a.txt': '2\n', 'b.txt': '2\n' });
  await openSignedIn(page, screen('history', namespace, 'main', `&rev=${two.revision}`));
  await page.getByTestId('revert-button').click();
  const dialog = page.getByTestId('revert-dialog');
  await expect(dialog.getByTestId('action-preview')).toContainText('2 documents would change');

  // Someone changes a.txt again before the confirmation: the store refuses, the dialog says the branch
  // moved, and the preview computed again names the document in the way.
  const releaseChanges = await holdStoreChanges(page);
  const three = await apply(namespace, 'main', 'three', { 'a.txt': '3\n' });
  await dialog.getByTestId('confirm-revert').click();
  await releaseChanges();
  await expect(dialog.getByTestId('branch-moved')).toContainText(`main moved to #${three.revision}`);
  const conflicts = dialog.getByTestId('action-conflicts');
  await expect(conflicts).toContainText('1 document #' + two.revision + ' changed has changed again since on main');
  await expect(conflicts.getByRole('listitem')).toHaveText(['a.txt']);
  await expect(dialog.getByTestId('confirm-revert')).toBeDisabled();
  await expect(dialog.getByTestId('action-preview')).toContainText(
    '1 other document would change once nothing is in the way',
  );
  await saveScreenshot(page, 'storeui-revert-conflict');

  const state = await stateOf(namespace);
  expect(state.revision).toBe(three.revision);
  expect(state.objects).toEqual({ 'a.txt': '3\n', 'b.txt': '2\n' });
  allowStatus(consoleErrors, 409);
});

test('a revert refusal the preview did not foresee is shown in the dialog as the store words it', async ({
  page,
  consoleErrors,
}) => {
  const namespace = freshNamespace('revert-refused');
  await apply(namespace, 'main', 'one', { 'a.txt': '1\n' });
  const two = await apply(namespace, 'main', 'two', { 'a.txt': '2\n' });
  const message =
    `revision ${two.revision} cannot be reverted on branch "main" of namespace "${namespace}": 1 document it changed ` +
    `has changed again since: "a.txt" (changed again in revision 99); nothing was written.`;
  await page.route(/\/v1\/revert$/, (route) =>
    route.fulfill({
      status: 409,
      contentType: 'application/json',
      body: JSON.stringify({ error: { type: 'conflict_error', message, code: 409 } }),
    }),
  );
  await openSignedIn(page, screen('history', namespace, 'main', `&rev=${two.revision}`));
  await page.getByTestId('revert-button').click();
  const dialog = page.getByTestId('revert-dialog');
  await expect(dialog.getByTestId('action-preview')).toContainText('1 document would change');
  await dialog.getByTestId('confirm-revert').click();
  const refusal = dialog.locator('.error-message');
  await expect(refusal).toContainText('Nothing was reverted');
  await expect(refusal).toContainText('"a.txt" (changed again in revision 99)');
  // The head did not move: this is no "branch moved" notice.
  await expect(dialog.getByTestId('branch-moved')).toHaveCount(0);
  await expect(dialog).toBeVisible();
  allowStatus(consoleErrors, 409);
});

test('merge a feature branch into main from Branches: main gets its changes and keeps its own', async ({ page }) => {
  const namespace = freshNamespace('merge');
  await mainAndFeature(namespace);
  const feature = await apply(namespace, 'feature', 'feature work', { 'b.txt': 'feature\n', 'c.txt': 'new\n' });
  await apply(namespace, 'main', 'main work', { 'a.txt': 'main\n' });
  await openSignedIn(page, screen('branches', namespace));
  await mergeButton(page, 'feature').click();

  const dialog = page.getByTestId('merge-dialog');
  await expect(dialog.getByLabel('Message')).toBeFocused();
  const preview = dialog.getByTestId('action-preview');
  // Only what feature changed since the merge base: main's own a.txt is not the merge's to write.
  await expect(preview).toContainText('Documents the merge writes');
  await expect(preview).toContainText('2 documents would change on main: what feature changed since their merge base');
  await saveScreenshot(page, 'storeui-merge-preview');
  await dialog.getByTestId('confirm-merge').click();
  await expect(dialog).toBeHidden();

  const after = await stateOf(namespace);
  expect(after.objects).toEqual({ 'a.txt': 'main\n', 'b.txt': 'feature\n', 'c.txt': 'new\n' });
  await expect(page.locator('.toaster')).toContainText(
    `Merged feature@${feature.revision} into main: revision #${after.revision}`,
  );
  await expect(page).toHaveURL(new RegExp(`store/history\\?.*rev=${after.revision}`));
  await expect(page.getByTestId('revision-detail')).toContainText(`merge feature@${feature.revision} into main`);
  await expect(page.getByTestId('log-row')).toHaveCount(3);
});

test('a merge conflict lists the documents in the dialog, and nothing is written', async ({ page, consoleErrors }) => {
  const namespace = freshNamespace('merge-conflict');
  await mainAndFeature(namespace);
  await apply(namespace, 'feature', 'feature work', { 'b.txt': 'feature\n' });
  const head = await apply(namespace, 'main', 'main work', { 'b.txt': 'main\n' });
  await openSignedIn(page, screen('branches', namespace));
  await mergeButton(page, 'feature').click();
  const dialog = page.getByTestId('merge-dialog');
  // The conflict is shown before anything is sent, and Merge cannot be pressed.
  await expect(dialog.getByTestId('confirm-merge')).toBeDisabled();

  await expect(dialog.getByTestId('merge-conflict-progress')).toContainText('0 of 1 conflict resolved');
  await expect(dialog.getByTestId('merge-conflict-choices')).toContainText('both changed it, differently');
  await expect(dialog.getByTestId('branch-moved')).toHaveCount(0);
  await saveScreenshot(page, 'storeui-merge-conflict');
  const state = await stateOf(namespace);
  expect(state.revision).toBe(head.revision);
  expect(state.objects).toEqual({ 'a.txt': '1\n', 'b.txt': 'main\n' });
  allowStatus(consoleErrors, 409);
});

test('revert from the keyboard alone: reached by Tab, confirmed with Enter, Esc gives focus back', async ({ page }) => {
  const namespace = freshNamespace('revert-keys');
  await apply(namespace, 'main', 'one', { 'a.txt': '1\n' });
  const two = await apply(namespace, 'main', 'two', { 'a.txt': '2\n' });
  await apply(namespace, 'main', 'three', { 'b.txt': 'b\n' });
  await openSignedIn(page, screen('history', namespace, 'main', `&rev=${two.revision}`));
  await expect(page.getByTestId('log-list')).toBeFocused();
  const opener = page.getByTestId('revert-button');
  await expect(opener).toBeEnabled();
  for (let step = 0; step < 20 && !(await opener.evaluate((node) => node.matches(':focus'))); step += 1)
    await page.keyboard.press('Tab');
  await expect(opener).toBeFocused();

  const dialog = page.getByTestId('revert-dialog');
  await page.keyboard.press('Enter');
  await expect(dialog.getByLabel('Message')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();

  await page.keyboard.press('Enter');
  await expect(dialog.getByTestId('action-preview')).toContainText('1 document would change');
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('log-row')).toHaveCount(4);
  await expect(page.getByTestId('log-list')).toBeFocused();
  expect((await stateOf(namespace)).objects).toEqual({ 'a.txt': '1\n', 'b.txt': 'b\n' });
});
