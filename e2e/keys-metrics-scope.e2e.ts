import { expect, gatewayAdmin, openSignedIn, test } from './fixtures.js';

/**
 * The key dialogs list every scope of the shared list, `metrics` among them: a key for Prometheus is
 * made in the UI without the master key ever leaving the admin's hands.
 */
test('keys: the dialog offers the metrics scope and saves a key with it alone', async ({ page }) => {
  const tag = `metrics${Date.now()}`;
  const issued = await gatewayAdmin('/internal/api-keys', 'POST', { name: `${tag}-prom`, scopes: ['chat'] });
  expect(issued.status).toBe(201);
  const { id } = (await issued.json()) as { id: string };

  await openSignedIn(page, `gateway/keys?q=${tag}`);
  await page.getByRole('button', { name: `Edit ${tag}-prom`, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Edit “${tag}-prom”` });
  for (const scope of ['chat', 'embeddings', 'responses', 'metrics', '*'])
    await expect(dialog.getByRole('checkbox', { name: scope, exact: true })).toBeVisible();
  await dialog.getByRole('checkbox', { name: 'metrics', exact: true }).check();
  await dialog.getByRole('checkbox', { name: 'chat', exact: true }).uncheck();
  await dialog.getByRole('button', { name: 'Save key' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Key ${tag}-prom changed` })).toBeVisible();

  const changed = (await (await gatewayAdmin(`/internal/api-keys/${id}`)).json()) as { scopes: string[] };
  expect(changed.scopes).toEqual(['metrics']);
});
