import { expect, openSignedIn, test } from './fixtures.js';

/**
 * A refusal makes the save bar several lines high; the page keeps room for it, so the deployment the
 * refusal names (the last row, when it was just added) can be scrolled out from under it and edited.
 */
test('models: with a refusal in the save bar, the last deployment scrolls clear of the bar', async ({
  page,
  consoleErrors,
}) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await openSignedIn(page, 'gateway/models');
  await page.getByTestId('add-deployment').click();
  const dialog = page.getByTestId('deployment-dialog');
  await dialog.getByLabel('Model', { exact: true }).fill('demo/echo');
  await dialog.getByLabel('Provider', { exact: true }).selectOption('openai');
  await dialog.getByLabel('Base URL').fill('http://127.0.0.1:9/v1');
  await dialog.getByLabel('API key environment variable').fill(`GATEHOUSE_E2E_UNSET_${Date.now()}`);
  await dialog.getByTestId('confirm-deployment').click();
  await expect(dialog).toBeHidden();
  await page.getByTestId('save-models').click();
  const bar = page.getByRole('region', { name: 'Unsaved changes' });
  await expect(bar.getByRole('alert')).toContainText('Not saved');

  await page.locator('.page-body').evaluate((body) => body.scrollTo(0, body.scrollHeight));
  const lastRow = page.getByTestId('deployments-table').getByRole('row').last();
  await expect(lastRow).toContainText('Not saved yet');
  await expect
    .poll(async () => {
      const [row, above] = await Promise.all([lastRow.boundingBox(), bar.boundingBox()]);
      return row && above ? above.y - (row.y + row.height) : -1;
    })
    .toBeGreaterThanOrEqual(0);
  await lastRow.getByRole('button', { name: /^Edit/ }).click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await bar.getByRole('button', { name: 'Discard' }).click();
  // The refusal was the point here.
  consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((line) => !/ 400 /.test(line)));
});
