import { expect, openSignedIn, saveScreenshot, test, type App } from './fixtures.js';

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
