import { expect, openSignedIn, test } from './fixtures.js';
import { apply, freshNamespace, screen } from './store-helpers.js';

/**
 * A revision whose changes pass the store's response limit comes with keys and types only
 * (`contents_omitted`), from `GET /v1/revisions/:id` as in the log (which History reads without
 * contents anyway). History must not draw those as empty diffs: it says the contents were left
 * out and opens the document where it can be read. The store's answer is shaped here as it sends it
 * past the limit (its 64 MiB default is too large to write in a browser test; the API side is tested
 * in test/store/routes/change-list-size.routes.test.ts).
 */
test('history: a revision listed without its contents says so and opens each document at it', async ({ page }) => {
  const namespace = freshNamespace('history', 'omitted');
  await apply(namespace, 'main', 'first', { 'big.json': '{"rows":1}\n', 'gone.txt': 'bye\n' });
  await apply(namespace, 'main', 'second', { 'big.json': '{"rows":2}\n' });
  await page.route(/\/v1\/revisions\/\d+\?/, async (route) => {
    if (route.request().method() !== 'GET') return route.continue();
    const response = await route.fetch();
    const entry = (await response.json()) as { changes: Record<string, unknown>[] };
    entry.changes = entry.changes.map(({ key, type }) => ({ key, type }));
    await route.fulfill({ response, json: { ...entry, contents_omitted: true } });
  });

  await openSignedIn(page, screen('history', namespace));
  const detail = page.getByTestId('revision-detail');
  await expect(detail.getByText('Contents not loaded')).toBeVisible();
  await expect(detail.getByRole('table', { name: /^Diff of / })).toHaveCount(0);
  await detail.getByRole('link', { name: 'Open big.json at #' }).click();
  await expect(page).toHaveURL(/\/store\/documents\?.*key=big\.json/);
  await expect(page.getByRole('table', { name: 'Content of big.json' })).toContainText('"rows":2');
});
