import type { Page } from '@playwright/test';
import { expect, openSignedIn, test } from './fixtures.js';
import { apply, applyMany, freshNamespace, screen } from './store-helpers.js';

/** Every store request the page makes (CORS preflights aside), as method and path with query. */
function recordStoreRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (request.method() !== 'OPTIONS' && url.pathname.startsWith('/v1/'))
      seen.push(`${request.method()} ${url.pathname}${url.search}`);
  });
  return seen;
}

test('the diff counts lines appended to a text without a final newline as added, not as too large', async ({
  page,
}) => {
  const namespace = freshNamespace('scale', 'append');
  const lines = Array.from({ length: 10 }, (_, i) => `line ${i}`);
  const appended = Array.from({ length: 2500 }, (_, i) => `appended ${i}`);
  const first = await apply(namespace, 'main', 'ten lines', { 'log.txt': lines.join('\n') });
  const second = await apply(namespace, 'main', 'append', { 'log.txt': [...lines, ...appended].join('\n') });

  await openSignedIn(page, screen('compare', namespace, 'main', `&from=${first.revision}&to=${second.revision}`));
  const header = page.locator('.changes-diff-title');
  // The old last line gains its newline (one line replaced), then 2,500 lines follow it, as git counts.
  await expect(header.locator('.diff-stats-add')).toHaveText('+2501');
  await expect(header.locator('.diff-stats-del')).toHaveText('−1');
  await expect(header).not.toContainText('~');
  await expect(page.getByText('too large to compare')).toHaveCount(0);
});

test('Compare lists what the store diff answers, without reading either whole revision or state', async ({ page }) => {
  const namespace = freshNamespace('scale', 'compare');
  const documents = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`doc-${i}.txt`, `first ${i}\n`]));
  const first = await apply(namespace, 'main', 'first', documents);
  await apply(namespace, 'main', 'second', { 'doc-3.txt': 'second 3\n', 'new.txt': 'new\n' });
  const third = await apply(namespace, 'main', 'third', { 'doc-7.txt': 'third 7\n' });
  const requests = recordStoreRequests(page);

  await openSignedIn(page, screen('compare', namespace, 'main', `&from=${first.revision}&to=${third.revision}`));
  const compare = page.getByTestId('compare-screen');
  await expect(compare).toContainText(`3 documents differ between #${first.revision} and #${third.revision}`);
  await page.getByRole('option', { name: /doc-7\.txt/ }).click();
  const diff = page.getByRole('table', { name: 'Diff of doc-7.txt' });
  await expect(diff).toContainText('first 7');
  await expect(diff).toContainText('third 7');

  expect(requests.filter((request) => request.startsWith('GET /v1/state'))).toEqual([]);
  const revisionReads = requests.filter((request) => request.startsWith('GET /v1/revisions/'));
  expect(revisionReads.length).toBeGreaterThan(0);
  for (const read of revisionReads) expect(read).toMatch(/[?&]limit=1(&|$)/);
  expect(requests.filter((request) => request === 'POST /v1/diff').length).toBeGreaterThan(0);
});

test('History opened at an old revision of a long history starts its log there, and reads newer ones on demand', async ({
  page,
}) => {
  const namespace = freshNamespace('scale', 'history-rev');
  const written = await applyMany(namespace, 'main', 260);
  const ids = written.map((entry) => entry.revision).sort((a, b) => a - b);
  const old = ids[9]!;
  const requests = recordStoreRequests(page);

  await openSignedIn(page, screen('history', namespace, 'main', `&rev=${old}`));
  const log = page.getByRole('listbox', { name: 'Revisions' });
  await expect(log.getByRole('option', { selected: true })).toBeVisible();
  // The head's first page, then one from the revision down: not the pages between them.
  const logReads = requests.filter((request) => request.startsWith('GET /v1/log?'));
  expect(logReads).toHaveLength(2);
  const pageFromRevision = new URL(logReads[1]!.slice(4), 'http://store').searchParams.get('after');
  expect(Number(pageFromRevision)).toBeGreaterThan(old);

  await page.getByRole('button', { name: 'Load newer revisions' }).click();
  await expect(log.getByRole('option', { selected: true })).toBeVisible();
  await expect(log.getByRole('option').first()).toHaveAttribute('aria-selected', 'false');
  // The head's page is still read once only.
  const reads = requests.filter((request) => request.startsWith('GET /v1/log?'));
  expect(reads.filter((read) => !read.includes('after='))).toHaveLength(1);
  await expect(page.getByRole('heading', { name: /^edit / })).toBeVisible();
});
