import type { Page } from '@playwright/test';
import { expect, gatewayAdmin, openSignedIn, test } from './fixtures.js';
import { openCollection, storedCollection as stored } from './rag-helpers.js';
import { allowStatus } from './store-helpers.js';

/**
 * The keys list as the gateway answers it, plus a made-up key no record has: the readers' picker offers
 * only keys, so only a key the gateway does not know lets a test see the gateway's own refusal.
 */
async function offerMadeUpKey(page: Page): Promise<void> {
  await page.route(/\/internal\/api-keys(\?|$)/, async (route) => {
    if (route.request().method() !== 'GET') return route.continue();
    const response = await route.fetch();
    const body = (await response.json()) as { data: Array<Record<string, unknown>> };
    const model = body.data[0]!;
    body.data.push({ ...model, id: 'key_nobody', name: 'nobody', key_prefix: 'gk-nobody' });
    await route.fulfill({ response, json: body });
  });
}

async function createCollection(name: string, body: object = {}): Promise<void> {
  const created = await gatewayAdmin('/internal/rag/collections', 'POST', { name, ...body });
  expect(created.status).toBe(201);
}

test('collections: Edit changes the description and readers, kept after a reload and in the admin API', async ({
  page,
}) => {
  const name = `edit-${Date.now()}`;
  await createCollection(name, { access: { teams: ['people'] } });
  const issued = await gatewayAdmin('/internal/api-keys', 'POST', { name: `${name}-reader`, scopes: [`rag:${name}`] });
  const { id: keyId } = (await issued.json()) as { id: string };

  await openCollection(page, name);
  await page.getByRole('button', { name: 'Edit collection' }).click();
  const dialog = page.getByRole('dialog', { name: `Edit collection “${name}”` });
  await expect(dialog.getByLabel('Teams')).toHaveValue('people');
  await dialog.getByLabel('Description').fill('Leave and travel rules');
  await dialog.getByLabel('Teams').fill('people, ops');
  await dialog.getByLabel('Users').fill('alice@example.com');
  await dialog.getByLabel('Key ids').selectOption(keyId);
  await dialog.getByRole('button', { name: 'Save collection' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Collection ${name} changed` })).toBeVisible();
  await expect(dialog).toHaveCount(0);

  const summary = `Read by rag:${name} and teams people, ops or users alice@example.com or 1 key.`;
  await expect(page.getByTestId('collection-summary')).toContainText(summary);
  await expect(page.getByTestId('collection-description')).toHaveText('Leave and travel rules');
  await page.reload();
  await expect(page.getByTestId('collection-summary')).toContainText(summary);
  await expect(page.getByTestId('collection-description')).toHaveText('Leave and travel rules');
  expect(await stored(name)).toMatchObject({
    description: 'Leave and travel rules',
    access: { teams: ['people', 'ops'], users: ['alice@example.com'], keys: [keyId] },
    source: null,
  });

  // Opened again, it starts from what is stored.
  await page.getByRole('button', { name: 'Edit collection' }).click();
  await expect(dialog.getByLabel('Users')).toHaveValue('alice@example.com');
  await expect(dialog.getByTestId('collection-reader-keys')).toContainText(`${name}-reader`);
});

test('collections: the gateway refusing a key id shows at Key ids, and a user id the schema refuses at Users', async ({
  page,
  consoleErrors,
}) => {
  const name = `edit-refused-${Date.now()}`;
  await createCollection(name);
  await gatewayAdmin('/internal/api-keys', 'POST', { name: `${name}-any` });
  await offerMadeUpKey(page);

  await openCollection(page, name);
  await page.getByRole('button', { name: 'Edit collection' }).click();
  const dialog = page.getByRole('dialog', { name: `Edit collection “${name}”` });
  // Well-formed, so only the gateway can tell that no key has this id.
  await dialog.getByLabel('Key ids').selectOption('key_nobody');
  await dialog.getByLabel('Teams').fill('people');
  await dialog.getByRole('button', { name: 'Save collection' }).click();
  const keyIds = dialog.getByLabel('Key ids');
  await expect(keyIds).toHaveAttribute('aria-invalid', 'true');
  await expect(keyIds).toHaveAccessibleDescription(/No API key with id 'key_nobody'/);
  await expect(keyIds).toBeFocused();
  await expect(dialog.getByLabel('Teams')).not.toHaveAttribute('aria-invalid', 'true');
  // Said at the field, not again under the form.
  await expect(dialog.getByText('Could not change the collection')).toHaveCount(0);
  expect((await stored(name)).access.teams).toEqual([]);
  allowStatus(consoleErrors, 400);

  // Changing a field forgets the refusal; a user id that cannot match a caller is refused before it is sent.
  await dialog.getByRole('button', { name: 'Remove reader nobody (gk-nobody)' }).click();
  await expect(keyIds).not.toHaveAttribute('aria-invalid', 'true');
  await dialog.getByLabel('Users').fill('alice, bob smith');
  await dialog.getByRole('button', { name: 'Save collection' }).click();
  await expect(dialog.getByLabel('Users')).toHaveAccessibleDescription(/“bob smith” must be letters and digits/);
  await expect(dialog.getByLabel('Users')).toBeFocused();

  await dialog.getByLabel('Users').fill('alice');
  await dialog.getByRole('button', { name: 'Save collection' }).click();
  await expect(dialog).toHaveCount(0);
  expect((await stored(name)).access).toEqual({ keys: [], users: ['alice'], teams: ['people'] });
});

test('collections: New collection shows the gateway refusing a key id at Key ids too', async ({
  page,
  consoleErrors,
}) => {
  await gatewayAdmin('/internal/api-keys', 'POST', { name: `new-refused-any-${Date.now()}` });
  await offerMadeUpKey(page);
  await openSignedIn(page, 'gateway/collections');
  await page.getByTestId('new-collection').click();
  const dialog = page.getByTestId('new-collection-dialog');
  await dialog.getByLabel('Name', { exact: true }).fill(`new-refused-${Date.now()}`);
  await dialog.getByLabel('Key ids').selectOption('key_nobody');
  await dialog.getByTestId('confirm-new-collection').click();
  await expect(dialog.getByLabel('Key ids')).toHaveAccessibleDescription(/No API key with id 'key_nobody'/);
  await expect(dialog.getByLabel('Key ids')).toBeFocused();
  allowStatus(consoleErrors, 400);
});

test('collections: keyboard only, Esc cancels the edit and Enter saves it, focus back on Edit collection', async ({
  page,
}) => {
  const name = `edit-keys-${Date.now()}`;
  await createCollection(name, { description: 'before' });

  await openCollection(page, name);
  const edit = page.getByRole('button', { name: 'Edit collection' });
  await edit.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: `Edit collection “${name}”` });
  const description = dialog.getByLabel('Description');
  await expect(description).toBeFocused();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('typed, then cancelled');
  await page.keyboard.press('Tab');
  await expect(dialog.getByLabel('Teams')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(edit).toBeFocused();
  expect((await stored(name)).description).toBe('before');

  await page.keyboard.press('Enter');
  await expect(description).toHaveValue('before');
  await page.keyboard.press('Tab');
  await page.keyboard.type('people');
  // Enter in a text field submits the form.
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: `Collection ${name} changed` })).toBeVisible();
  await expect(edit).toBeFocused();
  expect((await stored(name)).access.teams).toEqual(['people']);
});
