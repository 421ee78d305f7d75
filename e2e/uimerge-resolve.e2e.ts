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

// A merge that conflicts can be resolved in the dialog: a side per document, previewed, then sent.

const freshNamespace = (name: string): string => fresh('uimerge', name);

/** main deletes a.txt and updates b.txt; feature updates both and creates c.txt: two conflicts. */
async function twoConflicts(namespace: string) {
  await mainAndFeature(namespace);
  const feature = await apply(namespace, 'feature', 'feature work', {
    'a.txt': 'feature\n',
    'b.txt': 'feature\n',
    'c.txt': 'new\n',
  });
  const main = await storeCall<{ revision: number }>('/v1/apply', {
    scope: { namespace, branch: 'main' },
    message: 'main work',
    documents: [
      { key: 'a.txt', delete: true },
      { key: 'b.txt', content: 'main\n' },
    ],
  });
  return { feature, main };
}

test('each conflict gets a side, from the keyboard too; the preview and the merge follow them', async ({
  page,
  consoleErrors,
}) => {
  const namespace = freshNamespace('choose');
  const { feature, main } = await twoConflicts(namespace);
  const written = mergesWritten(page);
  const dialog = await openMerge(page, namespace);

  await expect(dialog.getByTestId('merge-conflict-progress')).toContainText('0 of 2 conflicts resolved');
  const choices = dialog.getByTestId('merge-conflict-choices');
  await expect(choices.getByRole('radiogroup')).toHaveCount(2);
  const sideOf = (key: string) => choices.getByRole('radiogroup', { name: key, exact: true });
  await expect(sideOf('a.txt').getByRole('radio', { checked: true })).toHaveCount(0);
  await expect(dialog.getByTestId('confirm-merge')).toBeDisabled();

  await sideOf('b.txt').getByRole('radio', { name: 'Take theirs' }).click();
  // Still one to choose: nothing can be merged yet.
  await expect(dialog.getByTestId('confirm-merge')).toBeDisabled();
  await expect(dialog.getByTestId('action-preview')).toHaveCount(0);
  // The keyboard: Tab lands on the group, Space chooses the focused option.
  await sideOf('a.txt').getByRole('radio', { name: 'Keep ours' }).focus();
  await page.keyboard.press('Space');
  await expect(sideOf('a.txt').getByRole('radio', { name: 'Keep ours' })).toBeChecked();
  await page.keyboard.press('ArrowRight');
  await expect(sideOf('a.txt').getByRole('radio', { name: 'Take theirs' })).toBeChecked();
  await page.keyboard.press('ArrowLeft');
  await expect(sideOf('a.txt').getByRole('radio', { name: 'Keep ours' })).toBeChecked();

  // The preview is the dry run with those sides: b.txt is feature's, a.txt stays deleted, c.txt comes.
  const preview = dialog.getByTestId('action-preview');
  await expect(preview.getByTestId('changes-list').locator('.change-row-key')).toHaveText(['b.txt', 'c.txt']);
  await saveScreenshot(page, 'uimerge-choices');
  await expect(dialog.getByTestId('confirm-merge')).toBeEnabled();
  await dialog.getByTestId('confirm-merge').click();
  await expect(dialog).toBeHidden();

  expect((await stateOf(namespace)).objects).toEqual({ 'b.txt': 'feature\n', 'c.txt': 'new\n' });
  expect(written).toEqual([
    {
      scope: { namespace, branch: 'main' },
      from_branch: 'feature',
      expected_revision: main.revision,
      expected_from_revision: feature.revision,
      resolve: { 'a.txt': 'ours', 'b.txt': 'theirs' },
    },
  ]);
  allowStatus(consoleErrors, 409);
});

test('All theirs chooses every side; a document no longer in conflict after the heads move loses its choice', async ({
  page,
  consoleErrors,
}) => {
  const namespace = freshNamespace('heads-move');
  await twoConflicts(namespace);
  const written = mergesWritten(page);
  const dialog = await openMerge(page, namespace);
  const choices = dialog.getByTestId('merge-conflict-choices');

  await choices.getByRole('button', { name: 'All theirs' }).click();
  await expect(choices.getByRole('radio', { name: 'Take theirs', checked: true })).toHaveCount(2);
  await expect(dialog.getByTestId('action-preview').locator('.change-row-key')).toHaveText(['a.txt', 'b.txt', 'c.txt']);
  await choices.getByRole('button', { name: 'All ours' }).click();
  await expect(choices.getByRole('radio', { name: 'Keep ours', checked: true })).toHaveCount(2);
  await expect(dialog.getByTestId('action-preview').locator('.change-row-key')).toHaveText(['c.txt']);

  // main takes feature's b.txt from elsewhere: only a.txt conflicts now.
  const head = await apply(namespace, 'main', 'same b', { 'b.txt': 'feature\n' });
  // The one conflict left opens by itself, with its own switch of diffs: count the choices of a side.
  await expect(choices.getByRole('radiogroup', { name: 'b.txt', exact: true })).toHaveCount(0);
  await expect(choices.getByRole('radiogroup', { name: 'a.txt', exact: true })).toHaveCount(1);
  await expect(
    choices.getByRole('radiogroup', { name: 'a.txt' }).getByRole('radio', { name: 'Keep ours' }),
  ).toBeChecked();
  await expect(dialog.getByTestId('confirm-merge')).toBeEnabled();
  await dialog.getByTestId('confirm-merge').click();
  await expect(dialog).toBeHidden();

  expect((await stateOf(namespace)).objects).toEqual({ 'b.txt': 'feature\n', 'c.txt': 'new\n' });
  expect(written).toEqual([
    expect.objectContaining({ expected_revision: head.revision, resolve: { 'a.txt': 'ours' } }),
  ]);
  allowStatus(consoleErrors, 409);
});

test('keeping ours for every conflict still merges, so the same conflicts are not asked again', async ({
  page,
  consoleErrors,
}) => {
  const namespace = freshNamespace('all-ours');
  await mainAndFeature(namespace);
  await apply(namespace, 'feature', 'feature work', { 'a.txt': 'feature\n' });
  const head = await apply(namespace, 'main', 'main work', { 'a.txt': 'main\n' });
  const written = mergesWritten(page);
  const dialog = await openMerge(page, namespace);
  const choices = dialog.getByTestId('merge-conflict-choices');

  await choices.getByRole('button', { name: 'All ours' }).click();
  await expect(dialog.getByText('the merge changes no document but is recorded')).toBeVisible();
  await dialog.getByTestId('confirm-merge').click();
  await expect(dialog).toBeHidden();
  expect(written).toEqual([
    expect.objectContaining({ expected_revision: head.revision, resolve: { 'a.txt': 'ours' } }),
  ]);
  expect((await stateOf(namespace)).objects).toEqual({ 'a.txt': 'main\n', 'b.txt': '1\n' });

  // Merging again finds main up to date with feature: no conflict to resolve.
  const again = await openMerge(page, namespace);
  await expect(again.getByText('main is already up to date with feature: nothing to merge.')).toBeVisible();
  await expect(again.getByTestId('merge-conflict-choices')).toHaveCount(0);
  allowStatus(consoleErrors, 409);
});
