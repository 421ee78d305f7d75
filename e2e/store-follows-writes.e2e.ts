import { expect, openSignedIn, test } from './fixtures.js';
import { apply, freshNamespace, screen } from './store-helpers.js';

/**
 * Documents are written through the store's API (the UI has no editor), usually from a terminal
 * beside the page, which stays visible: the store screens show such writes without a reload.
 */
test('history shows revisions written through the API while it is open', async ({ page }) => {
  const namespace = freshNamespace('follow', 'history');
  await openSignedIn(page, screen('history', namespace));
  // The screen's own advice: apply through the API.
  await expect(page.getByText(`"namespace":"${namespace}"`)).toBeVisible();

  await apply(namespace, 'main', 'First from a terminal', { 'prompt.txt': 'hello' });
  const rows = page.getByTestId('log-row');
  await expect(rows).toHaveCount(1, { timeout: 15_000 });
  await expect(rows.first()).toContainText('First from a terminal');

  const second = await apply(namespace, 'main', 'Second from a terminal', { 'prompt.txt': 'hello again' });
  await expect(rows).toHaveCount(2, { timeout: 15_000 });
  await expect(rows.first()).toContainText('Second from a terminal');
  await expect(rows.first()).toContainText('head');
  await expect(page.getByTestId('namespace-picker')).toHaveValue(namespace);
  await expect(page.getByTestId('revision-detail')).toContainText(`#${second.revision}`);
});

test('documents at head show a write made through the API while they are open', async ({ page }) => {
  const namespace = freshNamespace('follow', 'documents');
  await apply(namespace, 'main', 'First', { 'config.json': '{"replicas": 2}' });
  await openSignedIn(page, screen('documents', namespace));
  await expect(page.getByTestId('documents-screen')).toContainText('"replicas": 2');

  await apply(namespace, 'main', 'Scale', { 'config.json': '{"replicas": 3}' });
  await expect(page.getByTestId('documents-screen')).toContainText('"replicas": 3', { timeout: 15_000 });
});
