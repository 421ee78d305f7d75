import { expect, gatewayAdmin, openSignedIn, test } from './fixtures.js';

interface KeyRecord {
  readonly id: string;
  readonly name: string | null;
  readonly user: string | null;
  readonly scopes: string[];
  readonly models: string[] | null;
  readonly expires_at: string | null;
}

const keyRecord = async (id: string): Promise<KeyRecord> =>
  (await (await gatewayAdmin(`/internal/api-keys/${id}`)).json()) as KeyRecord;

/**
 * A key's name, owner, scopes, model allow-list and expiry change in place, as LiteLLM's key update
 * does: the app holding the secret goes on with it, under the new rules from its next request.
 */
test('keys: Edit changes a key’s name, owner, scopes, models and expiry, and the secret keeps working', async ({
  page,
  app,
}) => {
  const tag = `edit${Date.now()}`;
  const issued = await gatewayAdmin('/internal/api-keys', 'POST', { name: `${tag}-ci`, scopes: ['chat'] });
  expect(issued.status).toBe(201);
  const { id, key } = (await issued.json()) as { id: string; key: string };
  // A key is moved to an existing user: a change never creates one (a typo would leave its team's budgets).
  expect((await gatewayAdmin('/internal/users', 'POST', { id: `${tag}-bob` })).status).toBe(201);

  await openSignedIn(page, `gateway/keys?q=${tag}`);
  await page.getByRole('button', { name: `Edit ${tag}-ci`, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Edit “${tag}-ci”` });
  await dialog.getByLabel('Name').fill(`${tag}-renamed`);
  await dialog.getByLabel('User').fill(`${tag}-bob`);
  await dialog.getByRole('checkbox', { name: 'embeddings' }).check();
  await dialog.getByRole('checkbox', { name: 'demo/echo' }).check();
  await dialog.getByLabel('RAG collections').fill('bad name!');
  await dialog.getByRole('button', { name: 'Save key' }).click();
  // Checked before it is sent, on its field; nothing changed meanwhile.
  await expect(dialog.getByText('Collection names use letters')).toBeVisible();
  expect((await keyRecord(id)).name).toBe(`${tag}-ci`);

  await dialog.getByLabel('RAG collections').fill('handbook');
  await dialog.getByLabel('Expires').selectOption({ label: 'In 7 days' });
  await dialog.getByRole('button', { name: 'Save key' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Key ${tag}-renamed changed` })).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('keys-table')).toContainText(`${tag}-renamed`);

  const changed = await keyRecord(id);
  expect(changed).toMatchObject({ name: `${tag}-renamed`, user: `${tag}-bob`, models: ['demo/echo'] });
  expect([...changed.scopes].sort()).toEqual(['chat', 'embeddings', 'rag:handbook']);
  const days = (Date.parse(changed.expires_at!) - Date.now()) / 86_400_000;
  expect(days).toBeGreaterThan(6.9);
  expect(days).toBeLessThan(7.1);

  // The same secret, under the new allow-list: its model answers, another is refused.
  const chat = (model: string) =>
    fetch(`${app.gatewayUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'still me' }] }),
    });
  expect((await chat('demo/echo')).status).toBe(200);
  expect((await chat('demo/embed')).status).toBe(403);

  // Opened again, the dialog starts from what is stored; every model again, and no expiry.
  await page.getByRole('button', { name: `Edit ${tag}-renamed`, exact: true }).click();
  const again = page.getByRole('dialog', { name: `Edit “${tag}-renamed”` });
  await expect(again.getByLabel('User')).toHaveValue(`${tag}-bob`);
  await expect(again.getByLabel('RAG collections')).toHaveValue('handbook');
  await expect(again.getByRole('checkbox', { name: 'embeddings' })).toBeChecked();
  await again.getByRole('checkbox', { name: 'demo/echo' }).uncheck();
  await again.getByLabel('Expires').selectOption({ label: 'Never' });
  await again.getByRole('button', { name: 'Save key' }).click();
  await expect(again).toHaveCount(0);
  expect(await keyRecord(id)).toMatchObject({ models: null, expires_at: null, user: `${tag}-bob` });
});
