import type { Page } from '@playwright/test';
import { expect, openSignedIn, storeCall, test } from './fixtures.js';
import { apply, freshNamespace, screen } from './store-helpers.js';

/** About 400 KB of JSON whose `version` line is the only one that changes between revisions. */
const bigState = (version: number): string =>
  `{\n  "version": ${version},\n${Array.from({ length: 4000 }, (_, row) => `  "row-${row}": "${'x'.repeat(80)}",`).join('\n')}\n  "end": true\n}\n`;

/** Every read of the log the page makes (its CORS preflights aside), with the size of the answer. */
function recordLogReads(page: Page): () => Promise<readonly { readonly url: string; readonly bytes: number }[]> {
  const reads: Promise<{ url: string; bytes: number }>[] = [];
  page.on('response', (response) => {
    if (response.request().method() !== 'GET' || !/\/v1\/log\?/.test(response.url())) return;
    reads.push(response.body().then((body) => ({ url: response.url(), bytes: body.length })));
  });
  return () => Promise.all(reads);
}

/** The log reads asked for keys and types only, and came small although every revision holds 400 KB. */
async function expectSmallLogReads(
  reads: () => Promise<readonly { readonly url: string; readonly bytes: number }[]>,
): Promise<void> {
  const done = await reads();
  expect(done.length).toBeGreaterThan(0);
  for (const read of done) {
    expect(new URL(read.url).searchParams.get('contents'), read.url).toBe('false');
    expect(read.bytes, read.url).toBeLessThan(16_000);
  }
}

test('History lists a history of large documents without their contents, and still shows each diff', async ({
  page,
}) => {
  const namespace = freshNamespace('log-size', 'history');
  for (let version = 1; version <= 6; version++)
    await apply(namespace, 'main', `version ${version}`, { 'state.json': bigState(version) });
  const reads = recordLogReads(page);

  await openSignedIn(page, screen('history', namespace));
  const log = page.getByRole('listbox', { name: 'Revisions' });
  await expect(log.getByRole('option')).toHaveCount(6);
  // The head's diff: its contents come with the revision itself.
  const diff = page.getByRole('table', { name: 'Diff of state.json' });
  await expect(diff).toContainText('"version": 5,');
  await expect(diff).toContainText('"version": 6,');

  await log.getByRole('option', { name: /^version 3/ }).click();
  await expect(page).toHaveURL(/[?&]rev=3(&|$)/);
  await expect(page.getByRole('heading', { name: 'version 3', exact: true })).toBeVisible();
  await expect(diff).toContainText('"version": 2,');
  await expect(diff).toContainText('"version": 3,');
  await expect(diff).not.toContainText('"version": 6,');

  // A write from elsewhere reads the log again, still without contents.
  await apply(namespace, 'main', 'version 7', { 'state.json': bigState(7) });
  await expect(log.getByRole('option')).toHaveCount(7);
  await expect(log.getByRole('option').first()).toContainText('version 7');
  await expectSmallLogReads(reads);
});

test('the Delete branch dialog counts a branch of large documents without reading their contents', async ({ page }) => {
  const namespace = freshNamespace('log-size', 'delete');
  await apply(namespace, 'main', 'version 1', { 'state.json': bigState(1) });
  await storeCall('/v1/branches', { scope: { namespace, branch: 'main' }, name: 'feature' });
  await apply(namespace, 'feature', 'version 2', { 'state.json': bigState(2) });
  const head = await apply(namespace, 'feature', 'version 3', { 'state.json': bigState(3) });
  const reads = recordLogReads(page);

  await openSignedIn(page, screen('branches', namespace));
  await page.getByTestId('branches-table').getByRole('button', { name: 'Delete branch feature', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete branch “feature”?' });
  await expect(dialog).toContainText(
    `Deletes feature and all its history: 3 revisions from its head #${head.revision} back to its first`,
  );
  await expectSmallLogReads(reads);
});
