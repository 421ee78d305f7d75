import { expect, openSignedIn, test } from './fixtures.js';
import { apply, freshNamespace, screen } from './store-helpers.js';

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'prompt', 'model', 'token', 'answer', 'store', 'gate'];

/** About 0.9 MB of 32,120 numbered lines (under the store's 1 MiB a document). */
const corpus = Array.from({ length: 32_120 }, (_, i) => `${i + 1}. ${WORDS[i % 10]} and ${WORDS[(i * 7) % 10]} here`);
/** Nothing unique to anchor on: a list of identical items between blank lines. */
const items = Array.from({ length: 32_120 }, (_, i) => (i % 2 ? '' : '- item'));
const everyTenth = (lines: readonly string[]) => lines.map((line, i) => (i % 10 === 0 ? `${line} CHANGED` : line));
const text = (lines: readonly string[]) => `${lines.join('\n')}\n`;

/**
 * A large document with every 10th line changed diffs exactly (the lines between the changes are
 * unchanged, the counts are the real ones); one too different to compare line by line says so.
 */
test('diff of a large document: exact counts, unchanged lines between changes, honest note when too large', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const namespace = freshNamespace('diff', 'large');
  await apply(namespace, 'main', 'corpus', { 'data/corpus.md': text(corpus), 'data/items.md': text(items) });
  const second = await apply(namespace, 'main', 'change every 10th line', {
    'data/corpus.md': text(everyTenth(corpus)),
    'data/items.md': text(everyTenth(items)),
  });
  await openSignedIn(page, screen('history', namespace, 'main', `&rev=${second.revision}&key=data/corpus.md`));

  const diff = page.getByRole('table', { name: 'Diff of data/corpus.md' });
  await expect(page.locator('.diff-stats-add')).toHaveText('+3212', { timeout: 60_000 });
  await expect(page.locator('.diff-stats-del')).toHaveText('−3212');
  // 6,424 changed lines: past the bound, the diff waits to be asked for.
  await expect(page.getByTestId('large-diff')).toContainText(
    'Large diff (6,424 changed lines) is not shown by default.',
  );
  await page.getByRole('button', { name: 'Load diff' }).click();
  await expect(diff).toBeVisible({ timeout: 60_000 });
  // Line 2 sits between the changed lines 1 and 11, unchanged on both sides.
  await expect(diff.locator('td.diff-code.diff-context', { hasText: /^2\. beta and answer here$/ })).toHaveCount(2);
  const eleventh = diff.locator('td.diff-code.diff-add', { hasText: /^11\. alpha and alpha here CHANGED$/ });
  await expect(eleventh.locator('mark')).toHaveText(/^\s*CHANGED$/);
  await expect(page.getByText('too large to compare line by line')).toHaveCount(0);

  await page.getByRole('option', { name: 'data/items.md, modified' }).click();
  await page.getByRole('button', { name: 'Load diff' }).click({ timeout: 60_000 });
  await expect(page.getByRole('table', { name: 'Diff of data/items.md' })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('note').filter({ hasText: 'too large' })).toContainText(
    'Part of this diff is too large to compare line by line: shown as replaced',
  );
  // The replaced lines are not claimed as added or deleted: the header marks them as not compared.
  await expect(page.locator('.diff-stats-add')).toHaveCount(0);
  await expect(page.locator('.diff-stats-del')).toHaveCount(0);
  await expect(page.locator('.diff-stats [title="Too large to compare line by line: shown as replaced"]')).toHaveText(
    /^~\d+$/,
  );
});
