import { allowStatus, apply, freshNamespace as fresh, mainAndFeature, openMerge } from './store-helpers.js';
import { expect, saveScreenshot, storeCall, test } from './fixtures.js';

// A conflicting merge shows both sides of each conflict and what merges cleanly before any choice.

const freshNamespace = (name: string): string => fresh('merge-conflict-view', name);

/** main deletes a.txt and updates b.txt; feature updates both and creates c.txt: two conflicts, one clean change. */
async function twoConflicts(namespace: string): Promise<void> {
  await mainAndFeature(namespace);
  await apply(namespace, 'feature', 'feature work', {
    'a.txt': 'feature a\n',
    'b.txt': 'feature b\n',
    'c.txt': 'new\n',
  });
  await storeCall('/v1/apply', {
    scope: { namespace, branch: 'main' },
    message: 'main work',
    documents: [
      { key: 'a.txt', delete: true },
      { key: 'b.txt', content: 'main b\n' },
    ],
  });
}

test('each conflict shows ours against theirs, the clean changes are listed at once, and progress replaces the refusal', async ({
  page,
  consoleErrors,
}) => {
  const namespace = freshNamespace('sides');
  await twoConflicts(namespace);
  const dialog = await openMerge(page, namespace);
  const choices = dialog.getByTestId('merge-conflict-choices');
  await expect(choices.getByRole('radiogroup')).toHaveCount(2);

  // The store's refusal, worded for API users, gives way to the choices and a count of what is left.
  await expect(dialog.locator('.error-message')).toHaveCount(0);
  const progress = dialog.getByTestId('merge-conflict-progress');
  await expect(progress).toContainText('0 of 2 conflicts resolved');

  // What each side did, and both contents on demand.
  const rowOf = (key: string) => choices.getByRole('row').filter({ has: page.getByRole('radiogroup', { name: key }) });
  await expect(rowOf('a.txt')).toContainText('main deleted it, feature changed it');
  await expect(rowOf('b.txt')).toContainText('both changed it, differently');
  const compareB = choices.getByRole('button', { name: 'Compare ours and theirs of b.txt' });
  await expect(compareB).toHaveAttribute('aria-expanded', 'false');
  await compareB.click();
  const sides = choices.getByTestId('conflict-sides');
  await expect(sides).toHaveCount(1);
  await expect(sides.getByRole('table', { name: 'Ours (main) against theirs (feature) of b.txt' })).toBeVisible();
  await expect(sides).toContainText('main b');
  await expect(sides).toContainText('feature b');
  await choices.getByRole('button', { name: 'Compare ours and theirs of a.txt' }).click();
  // main deleted a.txt: all of it is theirs.
  await expect(sides.filter({ hasText: 'feature a' })).toContainText("main's content (deleted)");

  // The clean change is listed before any side is chosen.
  const clean = dialog.getByTestId('merge-clean-changes');
  await expect(clean.getByTestId('changes-list').locator('.change-row-key')).toHaveText(['c.txt']);
  await expect(dialog.getByTestId('action-preview')).toHaveCount(0);
  await saveScreenshot(page, 'merge-conflict-view');

  await rowOf('b.txt').getByRole('radio', { name: 'Take theirs' }).click();
  await expect(progress).toContainText('1 of 2 conflicts resolved');
  await expect(dialog.getByTestId('confirm-merge')).toBeDisabled();
  await rowOf('a.txt').getByRole('radio', { name: 'Keep ours' }).click();
  // All chosen: the progress line says so, no refusal, the whole preview, and Merge.
  await expect(progress).toContainText('All conflicts resolved');
  await expect(dialog.locator('.error-message')).toHaveCount(0);
  await expect(dialog.getByTestId('merge-clean-changes')).toHaveCount(0);
  await expect(dialog.getByTestId('action-preview').locator('.change-row-key')).toHaveText(['b.txt', 'c.txt']);
  await expect(dialog.getByTestId('confirm-merge')).toBeEnabled();
  allowStatus(consoleErrors, 409);
});

test('a single conflict opens with both sides shown, and says when the branch brings nothing else', async ({
  page,
  consoleErrors,
}) => {
  const namespace = freshNamespace('one');
  await mainAndFeature(namespace);
  await apply(namespace, 'feature', 'feature work', { 'b.txt': 'feature\n' });
  await apply(namespace, 'main', 'main work', { 'b.txt': 'main\n' });
  const dialog = await openMerge(page, namespace);
  const choices = dialog.getByTestId('merge-conflict-choices');
  await expect(choices.getByRole('button', { name: 'Hide ours and theirs of b.txt' })).toHaveAttribute(
    'aria-expanded',
    'true',
  );
  await expect(choices.getByTestId('conflict-sides')).toContainText('feature');
  await expect(dialog.getByTestId('merge-conflict-progress')).toContainText('0 of 1 conflict resolved');
  await expect(dialog.getByTestId('merge-clean-changes')).toContainText('feature brings nothing else');
  allowStatus(consoleErrors, 409);
});
