import type { Locator } from '@playwright/test';
import { expect, openSignedIn, test } from './fixtures.js';
import { apply, freshNamespace, screen } from './store-helpers.js';

const LINES = 30_000;
const numbered = (prefix: string): string =>
  Array.from({ length: LINES }, (_, index) => `${prefix} ${index + 1}`).join('\n') + '\n';

/** Scrolls the table's scrolling frame to its end. */
async function scrollToEnd(table: Locator): Promise<void> {
  await table.evaluate((element) => {
    const frame = element.closest('.diff-scroll')!;
    frame.scrollTop = frame.scrollHeight;
  });
}

test('a long rewrite cut short side by side shows both sides of each row; all of it renders only the rows in view', async ({
  page,
}) => {
  const namespace = freshNamespace('storefix', 'long-diff');
  await apply(namespace, 'main', 'old', { 'big.txt': numbered('old') });
  const rewrite = await apply(namespace, 'main', 'rewrite', { 'big.txt': numbered('new') });

  await openSignedIn(page, screen('history', namespace, 'main', `&rev=${rewrite.revision}`));
  // 60,000 changed lines: drawn only once asked for.
  await page.getByRole('button', { name: 'Load diff' }).click();
  const diff = page.getByTestId('diff-view');
  await expect(diff).toHaveAttribute('data-mode', 'split');
  const firstRow = diff.locator('tbody tr').first();
  await expect(firstRow.getByRole('cell').nth(1)).toHaveText('old 1');
  await expect(firstRow.getByRole('cell').nth(3)).toHaveText('new 1');
  // The cut keeps whole rows: the last one shown holds its deleted and its added line.
  await expect(diff.locator('tbody tr').last().getByRole('cell').nth(3)).toHaveText(/^new \d+$/);

  const more = page.getByRole('button', { name: /^Show all/ });
  await expect(more).toHaveText('Show all 30,000 rows');
  await more.click();
  await expect(more).toHaveCount(0);
  // Every row is there to scroll to, but only those in view are in the page.
  await expect(diff).toHaveAttribute('aria-rowcount', String(LINES + 1));
  expect(await diff.locator('tbody tr.diff-row').count()).toBeLessThan(300);
  await expect(firstRow.getByRole('cell').nth(3)).toHaveText('new 1');
  await scrollToEnd(diff);
  const lastRow = diff.locator(`tr[aria-rowindex="${LINES + 1}"]`);
  await expect(lastRow.getByRole('cell').nth(1)).toHaveText(`old ${LINES}`);
  await expect(lastRow.getByRole('cell').nth(3)).toHaveText(`new ${LINES}`);
  await expect(lastRow).toBeInViewport();

  // Unified, each row of the rewrite is two lines, still all there to scroll to.
  await page.keyboard.press('u');
  await expect(diff).toHaveAttribute('data-mode', 'unified');
  await expect(diff).toHaveAttribute('aria-rowcount', String(2 * LINES + 1));
});

test('a long document shown whole on Documents renders only the lines in view', async ({ page }) => {
  const namespace = freshNamespace('storefix', 'long-content');
  await apply(namespace, 'main', 'big', { 'big.txt': numbered('line') });
  await openSignedIn(page, screen('documents', namespace, 'main', '&key=big.txt'));
  const content = page.getByTestId('content-view');
  await expect(content.locator('tbody tr')).toHaveCount(3000);
  await page.getByRole('button', { name: `Show all 30,000 lines` }).click();
  await expect(content).toHaveAttribute('aria-rowcount', String(LINES + 1));
  expect(await content.locator('tbody tr.diff-row').count()).toBeLessThan(300);
  await scrollToEnd(content);
  await expect(content.locator(`tr[aria-rowindex="${LINES + 1}"]`)).toContainText(`line ${LINES}`);
});
