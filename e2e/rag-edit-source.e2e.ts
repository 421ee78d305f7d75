import { expect, gatewayAdmin, test } from './fixtures.js';
import { openCollection, storedCollection as stored } from './rag-helpers.js';
import { apply, freshNamespace } from './store-helpers.js';

/** A collection following a namespace of its own holding `documents`, synced. */
async function followingCollection(name: string, documents: Record<string, string>): Promise<string> {
  const namespace = freshNamespace('rag-edit', name);
  await apply(namespace, 'main', 'seed', documents);
  const created = await gatewayAdmin('/internal/rag/collections', 'POST', { name, source: { namespace } });
  expect(created.status).toBe(201);
  expect((await gatewayAdmin(`/internal/rag/collections/${name}/sync`, 'POST')).status).toBe(200);
  return namespace;
}

test('collections: Edit stops following the store, keeping the documents, which can then be added here', async ({
  page,
}) => {
  const name = `unfollow-${Date.now()}`;
  const namespace = await followingCollection(name, { 'a.md': '# A\nalpha', 'b.md': '# B\nbravo' });

  await openCollection(page, name);
  await expect(page.getByTestId('add-document')).toHaveCount(0);
  await page.getByRole('button', { name: 'Edit collection' }).click();
  const dialog = page.getByRole('dialog', { name: `Edit collection “${name}”` });
  await expect(dialog.getByLabel('Store namespace')).toHaveValue(namespace);
  await expect(dialog.getByRole('note')).toHaveCount(0);
  await dialog.getByLabel('Store namespace').fill('');
  await expect(dialog.getByRole('note', { name: 'What changing the source does' })).toHaveText(
    `Stops following ${namespace}@main. The collection keeps its 2 documents and 2 chunks as indexed at revision 1; ` +
      'writes to the store no longer change them, and documents can be added here instead.',
  );
  await dialog.getByRole('button', { name: 'Save collection' }).click();
  await expect(dialog).toHaveCount(0);

  await expect(page.getByTestId('collection-summary')).toContainText('Documents are added here.');
  await expect(page.getByTestId('add-document')).toBeVisible();
  await expect(page.getByTestId('rag-documents')).toContainText('b.md');
  expect(await stored(name)).toMatchObject({ source: null, documents: 2 });
});

test('collections: Edit points a collection at another namespace, says what goes, and its documents follow', async ({
  page,
}) => {
  const name = `repoint-${Date.now()}`;
  const before = await followingCollection(name, { 'kept.md': '# Kept\nsame', 'gone.md': '# Gone\nold only' });
  const after = freshNamespace('rag-edit-new', name);
  await apply(after, 'main', 'seed', { 'kept.md': '# Kept\nsame', 'new.md': '# New\nfresh' });

  await openCollection(page, name);
  await expect(page.getByTestId('rag-documents')).toContainText('gone.md');
  await page.getByRole('button', { name: 'Edit collection' }).click();
  const dialog = page.getByRole('dialog', { name: `Edit collection “${name}”` });
  await dialog.getByLabel('Store namespace').fill(after);
  await expect(dialog.getByRole('note')).toContainText(
    `Stops following ${before}@main and follows ${after}@main instead. Once saved, a sync makes the collection ` +
      `equal to ${after}@main: of its 2 documents from ${before}@main, those it does not hold under the same key are removed`,
  );
  await dialog.getByRole('button', { name: 'Save collection' }).click();
  await expect(dialog).toHaveCount(0);

  const documents = page.getByTestId('rag-documents');
  await expect(documents).toContainText('new.md');
  await expect(documents).not.toContainText('gone.md');
  await expect(page.getByTestId('collection-summary')).toContainText(`Follows ${after}@main, indexed at revision 1.`);
  expect(await stored(name)).toMatchObject({ source: { namespace: after, branch: 'main' }, documents: 2 });
});
