import { expect, gatewayAdmin, storeCall, test } from './fixtures.js';
import { openCollection } from './rag-helpers.js';

test('collections: a store document over the chunk limit is named as not indexed, with why', async ({ page }) => {
  const name = `skipped-${Date.now()}`;
  const namespace = `e2e/${name}`;
  // One chunk per heading: 20,001 of them, one more than rag.max_chunks_per_document allows.
  const headings = Array.from({ length: 20_001 }, (_, index) => `# h${index}`).join('\n');
  await storeCall('/v1/apply', {
    scope: { namespace, branch: 'main' },
    documents: [
      { key: 'glossary.md', content: headings },
      { key: 'hours.md', content: '# Hours\nThe office opens at seven.\n' },
    ],
  });
  const created = await gatewayAdmin('/internal/rag/collections', 'POST', {
    name,
    source: { namespace, branch: 'main' },
  });
  expect(created.status).toBe(201);
  expect((await gatewayAdmin(`/internal/rag/collections/${name}/sync`, 'POST')).status).toBe(200);

  await openCollection(page, name);
  const skipped = page.getByRole('region', { name: `1 document of ${namespace}@main is not indexed` });
  await expect(skipped).toContainText(
    'glossary.md: document glossary.md makes more than 20000 chunks (rag.max_chunks_per_document)',
  );
  await expect(page.getByTestId('rag-documents')).toContainText('hours.md');
  await expect(page.getByTestId('rag-documents')).not.toContainText('glossary.md');
});
