import {
  allowStatus,
  apply,
  freshNamespace as fresh,
  mainAndFeature,
  mergesWritten,
  openMerge,
  stateOf,
} from './store-helpers.js';
import { expect, saveScreenshot, storeCall, test } from './fixtures.js';

// The Merge dialog previews with the store's dry run of the merge: exactly what it would write.

const freshNamespace = (name: string): string => fresh('mergepreview', name);

test('the preview lists only what the merge takes, not a document only main changed', async ({ page }) => {
  const namespace = freshNamespace('diverged');
  await mainAndFeature(namespace);
  const feature = await apply(namespace, 'feature', 'feature work', { 'b.txt': 'feature\n', 'c.txt': 'new\n' });
  const main = await apply(namespace, 'main', 'main work', { 'a.txt': 'main\n' });
  const written = mergesWritten(page);
  const dialog = await openMerge(page, namespace);

  const preview = dialog.getByTestId('action-preview');
  await expect(preview).toContainText('2 documents would change on main: what feature changed since their merge base');
  // a.txt differs between the heads, but only main changed it: the merge keeps main's, so it is not listed.
  await expect(preview.getByTestId('changes-list').locator('.change-row-key')).toHaveText(['b.txt', 'c.txt']);
  await saveScreenshot(page, 'mergepreview-diverged');
  await expect(dialog.getByTestId('confirm-merge')).toBeEnabled();
  await dialog.getByTestId('confirm-merge').click();
  await expect(dialog).toBeHidden();

  expect((await stateOf(namespace)).objects).toEqual({ 'a.txt': 'main\n', 'b.txt': 'feature\n', 'c.txt': 'new\n' });
  // The write is guarded by the heads the preview was computed against.
  expect(written).toEqual([
    expect.objectContaining({ expected_revision: main.revision, expected_from_revision: feature.revision }),
  ]);
});

test('a conflict shows in the dialog before Merge is pressed, and Merge is disabled', async ({
  page,
  consoleErrors,
}) => {
  const namespace = freshNamespace('conflict');
  await mainAndFeature(namespace);
  await apply(namespace, 'feature', 'feature work', { 'b.txt': 'feature\n', 'c.txt': 'new\n' });
  const head = await apply(namespace, 'main', 'main work', { 'b.txt': 'main\n' });
  const written = mergesWritten(page);
  const dialog = await openMerge(page, namespace);

  await expect(dialog.getByTestId('merge-conflict-progress')).toContainText('0 of 1 conflict resolved');
  await expect(dialog.getByTestId('merge-conflict-choices')).toContainText('both changed it, differently');
  await expect(dialog.getByTestId('confirm-merge')).toBeDisabled();
  await expect(dialog.getByTestId('branch-moved')).toHaveCount(0);
  await saveScreenshot(page, 'mergepreview-conflict');
  // Enter in the message field does not send it either.
  await dialog.getByLabel('Message').press('Enter');
  await expect(dialog).toBeVisible();
  expect(written).toEqual([]);
  expect((await stateOf(namespace)).revision).toBe(head.revision);
  allowStatus(consoleErrors, 409);
});

test('a branch with nothing to take is already up to date, with Merge disabled', async ({ page }) => {
  const namespace = freshNamespace('up-to-date');
  await mainAndFeature(namespace);
  await apply(namespace, 'feature', 'feature work', { 'b.txt': 'feature\n' });
  await storeCall('/v1/merge', { scope: { namespace, branch: 'main' }, from_branch: 'feature' });
  // main moved on since: the heads differ, yet feature has nothing main lacks.
  await apply(namespace, 'main', 'main work', { 'a.txt': 'main\n' });
  const dialog = await openMerge(page, namespace);

  await expect(dialog.getByTestId('action-preview')).toContainText(
    'main is already up to date with feature: nothing to merge.',
  );
  await expect(dialog.getByTestId('confirm-merge')).toBeDisabled();
});
