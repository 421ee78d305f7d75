import { expect, gatewayAdmin, openSignedIn, saveScreenshot, test, type App } from './fixtures.js';
import { openCollection } from './rag-helpers.js';

async function issueKey(app: App, body: object): Promise<{ id: string }> {
  const response = await fetch(`${app.gatewayUrl}/internal/api-keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${app.masterKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string };
}

test('collections: create one, add Markdown, see its chunks, and search as a key that may and one that may not read it', async ({
  page,
  app,
}) => {
  const name = `handbook-${Date.now()}`;
  const reader = await issueKey(app, { name: `${name}-reader`, team: 'people', scopes: ['chat', `rag:${name}`] });
  const outsider = await issueKey(app, { name: `${name}-outsider`, team: 'sales', scopes: ['chat', `rag:${name}`] });

  await openSignedIn(page, 'gateway/collections');
  await page.getByTestId('new-collection').click();
  const dialog = page.getByTestId('new-collection-dialog');
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByLabel('Teams', { exact: true }).fill('people');
  await dialog.getByTestId('confirm-new-collection').click();
  const row = page.getByTestId('collections-table').getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('teams people');
  await row.getByRole('button', { name: 'Open' }).click();

  const form = page.getByTestId('add-document');
  await form.getByLabel('Document key').fill('leave.md');
  await form
    .getByLabel('Content')
    .fill('# Leave\n\n## Annual\n\nEveryone gets 27 days of paid leave.\n\n## Sick\n\nCall your manager before nine.');
  await form.getByRole('button', { name: 'Add document' }).click();
  await expect(page.getByTestId('rag-documents')).toContainText('leave.md');
  await expect(page.getByTestId('rag-chunks')).toContainText('Leave > Annual');

  const search = page.getByTestId('rag-search');
  await search.getByLabel('Question').fill('how many days of paid leave');
  await search.getByLabel('As key').selectOption(reader.id);
  await search.getByRole('button', { name: 'Search' }).click();
  await expect(search.getByTestId('rag-hit').first()).toContainText('27 days');
  await saveScreenshot(page, 'rag-collections');

  await search.getByLabel('As key').selectOption(outsider.id);
  await search.getByRole('button', { name: 'Search' }).click();
  await expect(search.getByTestId('rag-denied')).toContainText(`may not read ${name}`);
  await expect(search.getByTestId('rag-hit')).toHaveCount(0);
});

test('collections: documents show 100 at a time, with how many there are and a button for more', async ({ page }) => {
  const name = `many-${Date.now()}`;
  expect((await gatewayAdmin('/internal/rag/collections', 'POST', { name })).status).toBe(201);
  const keyOf = (i: number): string => `note-${String(i).padStart(3, '0')}.txt`;
  for (let i = 0; i < 130; i += 1) {
    const added = await gatewayAdmin(`/internal/rag/collections/${name}/documents`, 'POST', {
      key: keyOf(i),
      content: `Note ${i}.`,
    });
    expect(added.status).toBe(201);
  }
  // The screen asks for a page, never the whole list, which costs the gateway a long read in a large collection.
  const documentReads: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes(`/internal/rag/collections/${name}/documents`)) documentReads.push(request.url());
  });

  await openCollection(page, name);
  const table = page.getByTestId('rag-documents');
  const rows = table.locator('tbody tr');
  const more = page.getByTestId('rag-documents-more');
  await expect(rows).toHaveCount(100);
  await expect(more).toContainText('Showing 100 of 130 documents');
  expect(documentReads.every((url) => new URL(url).searchParams.get('limit') === '100')).toBe(true);

  await more.getByRole('button', { name: 'Show 30 more' }).click();
  await expect(rows).toHaveCount(130);
  await expect(more).toHaveCount(0);
  // The button that asked is gone with the last page: the table has focus, on the first document it brought.
  await expect(table).toBeFocused();
  await expect(rows.nth(100)).toHaveAttribute('aria-selected', 'true');
  await expect(rows.nth(100)).toContainText(keyOf(100));
  await expect(rows.last()).toContainText(keyOf(129));
  expect(new URL(documentReads.at(-1)!).searchParams.get('after')).toBe(keyOf(99));

  // Enter opens the highlighted document's chunks.
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Chunks of the selected document' })).toBeVisible();
  await expect(page.getByTestId('rag-chunks')).toContainText('Note 100.');
});
