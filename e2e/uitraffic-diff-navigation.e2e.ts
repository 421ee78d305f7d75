import { expect, openSignedIn, test } from './fixtures.js';
import { apply, freshNamespace, screen } from './store-helpers.js';

const lines = (count: number): string[] => Array.from({ length: count }, (_, index) => `line ${index + 1}`);

/**
 * A long diff: its folded stretches are named by the lines they show, `]` and `[` move to the next and
 * previous change, and Expand all unfolds every stretch.
 */
test('diff: expanders named by line range, ] and [ between changes, Expand all', async ({ page }) => {
  const namespace = freshNamespace('uitraffic', 'diff-nav');
  const before = lines(300);
  const after = [...before];
  after[49] = 'changed 50';
  after[149] = 'changed 150';
  after.splice(250, 0, 'inserted');
  await apply(namespace, 'main', 'one', { 'doc.txt': `${before.join('\n')}\n` });
  const second = await apply(namespace, 'main', 'two', { 'doc.txt': `${after.join('\n')}\n` });
  await openSignedIn(page, screen('history', namespace, 'main', `&rev=${second.revision}&key=doc.txt`));

  const diff = page.getByRole('table', { name: 'Diff of doc.txt' });
  await expect(diff).toBeVisible();
  const expanders = diff.getByRole('button', { name: /^Show lines? / });
  // The new version's line numbers: past the inserted line they are one more than the old ones.
  await expect(expanders).toHaveText([
    'Show lines 1–46',
    'Show lines 54–146',
    'Show lines 154–247',
    'Show lines 255–301',
  ]);
  await expect(diff.getByRole('button', { name: 'Show lines 255–301', exact: true })).toHaveAttribute(
    'title',
    '47 unchanged lines (lines 254–300 before)',
  );

  const nav = page.getByTestId('diff-nav');
  await expect(nav.getByRole('status')).toHaveText('3 changes in Diff of doc.txt');
  await page.keyboard.press(']');
  await expect(nav.getByRole('status')).toHaveText('Change 1 of 3 in Diff of doc.txt');
  const focused = page.locator('tr:focus');
  await expect(focused).toContainText('line 50');
  await expect(focused).toBeInViewport();
  await page.keyboard.press(']');
  await expect(focused).toContainText('line 150');
  await page.keyboard.press(']');
  await expect(focused).toContainText('inserted');
  await expect(nav.getByRole('status')).toHaveText('Change 3 of 3 in Diff of doc.txt');
  await page.keyboard.press('[');
  await expect(focused).toContainText('line 150');
  await expect(nav.getByRole('status')).toHaveText('Change 2 of 3 in Diff of doc.txt');

  await nav.getByRole('button', { name: 'Expand all' }).click();
  await expect(expanders).toHaveCount(0);
  await expect(diff.getByRole('row').filter({ hasText: 'line 300' })).toHaveCount(1);
  await expect(nav.getByRole('button', { name: 'Expand all' })).toHaveCount(0);
  await nav.getByRole('button', { name: 'Next change' }).click();
  await expect(focused).toContainText('inserted');
});

test('shortcuts dialog: lists ] and [ for a diff’s changes and Esc in a filter', async ({ page }) => {
  await openSignedIn(page, '');
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await page.keyboard.press('?');
  const dialog = page.getByTestId('shortcuts-dialog');
  await expect(dialog).toContainText('Diff: previous / next change');
  await expect(dialog).toContainText('In a filter: clear it, then back to the list');
});
