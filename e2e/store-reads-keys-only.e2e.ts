import { expect, openSignedIn, test } from './fixtures.js';
import { apply, freshNamespace, screen } from './store-helpers.js';

/**
 * History and Documents list a revision's or a state's documents by name and size and read only the
 * document shown: a revision of large documents is not downloaded whole to show one diff, nor a state
 * to list its names.
 */
test('history and documents read keys only, and the shown document alone', async ({ page }) => {
  const namespace = freshNamespace('reads', 'keys');
  const first = await apply(namespace, 'main', 'first', { 'a.txt': 'one\n', 'b.txt': 'bee\n', 'c.txt': 'sea\n' });
  await apply(namespace, 'main', 'second', { 'a.txt': 'two\n', 'b.txt': 'buzz\n' });
  const reads: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/v1/revisions/') || url.pathname === '/v1/state') reads.push(url.search);
  });

  await openSignedIn(page, screen('history', namespace, 'main', '&key=b.txt'));
  const detail = page.getByTestId('revision-detail');
  await expect(detail.getByRole('table', { name: 'Diff of b.txt' })).toContainText('buzz');
  await expect(detail.locator('.changes-diff-title .diff-stats')).toHaveText('+1−1');
  // Each revision read is a listing or one document's change, never every content at once.
  expect(reads.length).toBeGreaterThan(0);
  for (const search of reads) expect(search).toMatch(/contents=false|key=/);

  reads.length = 0;
  await openSignedIn(page, screen('documents', namespace, 'main', `&rev=${first.revision}&key=c.txt`));
  await expect(page.getByRole('table', { name: 'Content of c.txt' })).toContainText('sea');
  await expect(page.getByTestId('state-summary')).toContainText('3 documents');
  expect(reads.length).toBeGreaterThan(0);
  for (const search of reads) expect(search).toMatch(/contents=false|key=c\.txt/);
  // The older a.txt differs from the head's: it can be restored alone, as before.
  await openSignedIn(page, screen('documents', namespace, 'main', `&rev=${first.revision}&key=a.txt`));
  await expect(page.getByRole('table', { name: 'Content of a.txt' })).toContainText('one');
  await expect(page.getByTestId('restore-document')).toBeVisible();
});

test('maintenance: the preview says what is free, and compact asks first', async ({ page }) => {
  // A keep larger than any history here prunes nothing: other tests' histories stay whole.
  await openSignedIn(page, 'store/maintenance');
  await page.getByLabel('Revisions to keep per branch').fill('1000000');
  await page.getByTestId('gc-preview').click();
  await expect(page.getByTestId('gc-free')).toBeVisible();
  await expect(page.getByTestId('gc-compact')).toHaveText('Compact…');
  await page.getByTestId('gc-compact').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(
    'Gatehouse stops answering, the gateway included, while the database is rewritten.',
  );
  const sent = page.waitForRequest((request) => request.url().endsWith('/v1/gc'));
  await dialog.getByTestId('gc-compact-confirm').click();
  expect((await sent).postDataJSON()).toEqual({ keep: 1_000_000, compact: true });
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('gc-free')).toHaveText('The database file has no free space to give back.');
});
