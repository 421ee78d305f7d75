import { expect, gatewayAdmin, test } from './fixtures.js';
import { openCollection } from './rag-helpers.js';

test('collections: one following a store namespace that does not exist says so, naming it', async ({ page }) => {
  const name = `unsourced-${Date.now()}`;
  const namespace = `e2e/${name}`;
  const created = await gatewayAdmin('/internal/rag/collections', 'POST', {
    name,
    source: { namespace, branch: 'main' },
  });
  expect(created.status).toBe(201);

  await openCollection(page, name);
  const warning = page.getByRole('region', { name: `${namespace}@main gives this collection no documents` });
  await expect(warning).toContainText(`store namespace ${namespace} does not exist`);
});
