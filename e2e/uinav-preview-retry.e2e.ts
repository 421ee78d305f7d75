import type { Page } from '@playwright/test';
import { expect, openSignedIn, test } from './fixtures.js';
import { allowStatus, apply, freshNamespace, mainAndFeature, screen } from './store-helpers.js';

/** Answers the store's `POST <path>` with 503 until the returned function is called, then lets it through. */
async function storeDownFor(page: Page, storeUrl: string, path: string): Promise<() => void> {
  let down = true;
  await page.route(new URL(path, storeUrl).toString(), async (route) => {
    if (!down || route.request().method() !== 'POST') return route.fallback();
    // The store's own headers (CORS among them), with the answer of a store that is down.
    const response = await route.fetch();
    await route.fulfill({
      response,
      status: 503,
      json: { error: { type: 'service_unavailable', message: 'the store is restarting' } },
    });
  });
  return () => {
    down = false;
  };
}

test('a rollback preview that failed offers Retry, which shows it once the store is back', async ({
  page,
  app,
  consoleErrors,
}) => {
  const namespace = freshNamespace('uinav', 'rollback-retry');
  const first = await apply(namespace, 'main', 'one', { 'a.txt': '1\n' });
  await apply(namespace, 'main', 'two', { 'a.txt': '2\n' });
  await openSignedIn(page, screen('history', namespace, 'main', `&rev=${first.revision}`));
  const storeBack = await storeDownFor(page, app.storeUrl, '/v1/diff');
  await page.getByTestId('rollback-button').click();

  const dialog = page.getByTestId('rollback-dialog');
  const preview = dialog.getByTestId('action-preview');
  await expect(preview.getByRole('alert')).toContainText('the store is restarting');
  await expect(dialog.getByTestId('confirm-rollback')).toBeDisabled();
  // What was typed stays through the retry.
  await dialog.getByLabel('Message').fill('back to one, after the outage');
  storeBack();
  await preview.getByRole('button', { name: 'Retry' }).click();
  await expect(preview).toContainText('1 document would change');
  await expect(preview.getByRole('alert')).toHaveCount(0);
  await expect(dialog.getByLabel('Message')).toHaveValue('back to one, after the outage');
  await dialog.getByTestId('confirm-rollback').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('log-row').first()).toContainText('back to one, after the outage');
  allowStatus(consoleErrors, 503);
});

test("a merge's dry run that failed offers Retry, which shows what the merge writes once the store is back", async ({
  page,
  app,
  consoleErrors,
}) => {
  const namespace = freshNamespace('uinav', 'merge-retry');
  await mainAndFeature(namespace);
  await apply(namespace, 'feature', 'feature work', { 'b.txt': 'feature\n' });
  await openSignedIn(page, screen('branches', namespace));
  const storeBack = await storeDownFor(page, app.storeUrl, '/v1/merge');
  await page.getByRole('button', { name: 'Merge into main from feature', exact: true }).click();

  const dialog = page.getByTestId('merge-dialog');
  const preview = dialog.getByTestId('action-preview');
  await expect(preview.getByRole('alert')).toContainText('the store is restarting');
  await expect(dialog.getByTestId('confirm-merge')).toBeDisabled();
  storeBack();
  await preview.getByRole('button', { name: 'Retry' }).click();
  await expect(preview).toContainText('1 document would change on main');
  await expect(dialog.getByTestId('confirm-merge')).toBeEnabled();
  allowStatus(consoleErrors, 503);
});
