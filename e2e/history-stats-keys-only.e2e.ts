import { expect, openSignedIn, test } from './fixtures.js';
import { apply, freshNamespace, screen } from './store-helpers.js';

/**
 * History lists a revision's changes keys-only and reads the shown document's contents alone; once
 * read, its header counts the lines as for any diff and offers the layout switch (sizes are what it
 * shows only while they load). Compare's document read alone, past the list's size limit, likewise.
 */
test('history and compare: a document read alone shows its line stats and the layout switch', async ({ page }) => {
  const namespace = freshNamespace('history', 'stats');
  const first = await apply(namespace, 'main', 'first', { 'a.txt': 'one\ntwo\nthree\n', 'b.txt': 'bee\n' });
  const second = await apply(namespace, 'main', 'second', { 'a.txt': 'one\nTWO\nthree\n', 'b.txt': 'bee\n' });

  await openSignedIn(page, screen('history', namespace, 'main', `&rev=${second.revision}&key=a.txt`));
  const detail = page.getByTestId('revision-detail');
  await expect(detail.getByRole('table', { name: 'Diff of a.txt' })).toContainText('TWO');
  await expect(detail.locator('.changes-diff-title .diff-stats')).toHaveText('+1−1');
  await expect(detail.getByTestId('change-sizes')).toHaveCount(0);
  const layout = detail.getByRole('radiogroup', { name: 'Diff layout' });
  await layout.getByRole('radio', { name: 'Unified' }).click();
  await expect(layout.getByRole('radio', { name: 'Unified' })).toHaveAttribute('aria-checked', 'true');
  await layout.getByRole('radio', { name: 'Side by side' }).click();

  // The store's list left the contents out (as past response_bytes): the document is read alone.
  await page.route('**/v1/diff', async (route) => {
    const body = route.request().postDataJSON() as { keys?: string[] };
    if (body.keys !== undefined) return route.continue();
    const response = await route.fetch();
    const diff = (await response.json()) as { changes: Record<string, unknown>[] };
    diff.changes = diff.changes.map(({ key, type }) => ({ key, type }));
    await route.fulfill({ response, json: { ...diff, contents_omitted: true } });
  });
  await openSignedIn(page, screen('compare', namespace, 'main', `&from=${first.revision}&to=${second.revision}`));
  await expect(page.getByRole('table', { name: 'Diff of a.txt' })).toContainText('TWO');
  await expect(page.locator('.changes-diff-title .diff-stats')).toHaveText('+1−1');
  await expect(page.getByRole('radiogroup', { name: 'Diff layout' })).toBeVisible();
});
