import { expect, gatewayAdmin, openSignedIn, test } from './fixtures.js';
import { openCollection, storedCollection } from './rag-helpers.js';

/**
 * Collections, cache rules and purges name keys by id: the Keys screen shows each key's id, and those
 * screens pick a key by its name and prefix and store its id, rather than asking for an id typed in.
 */

async function issueKey(name: string): Promise<{ id: string; key_prefix: string }> {
  const issued = await gatewayAdmin('/internal/api-keys', 'POST', { name, scopes: ['chat'] });
  expect(issued.status).toBe(201);
  return (await issued.json()) as { id: string; key_prefix: string };
}

test('keys: each row shows the key id with a button copying it', async ({ page }) => {
  const name = `ids-${Date.now()}`;
  const key = await issueKey(name);
  await openSignedIn(page, `gateway/keys?q=${name}`);
  const row = page.getByTestId('keys-table').getByRole('row').filter({ hasText: name });
  await expect(row.getByTestId('key-id')).toHaveText(key.id);
  await expect(row.getByRole('button', { name: `Copy the id of ${name}`, exact: true })).toBeVisible();
});

test('collections: reader keys are picked by name and prefix, and their ids are stored', async ({ page }) => {
  const name = `pick-${Date.now()}`;
  expect((await gatewayAdmin('/internal/rag/collections', 'POST', { name })).status).toBe(201);
  const key = await issueKey(`${name}-reader`);
  await openCollection(page, name);
  await page.getByRole('button', { name: 'Edit collection' }).click();
  const dialog = page.getByRole('dialog', { name: `Edit collection “${name}”` });
  const picker = dialog.getByLabel('Key ids', { exact: true });
  await picker.selectOption({ label: `${name}-reader (${key.key_prefix})` });
  // The chosen key is named, not shown as a bare id, and can be taken off again.
  await expect(dialog.getByTestId('collection-reader-keys')).toHaveText(`${name}-reader (${key.key_prefix})`);
  await expect(
    dialog.getByRole('button', { name: `Remove reader ${name}-reader (${key.key_prefix})`, exact: true }),
  ).toBeVisible();
  await dialog.getByRole('button', { name: 'Save collection', exact: true }).click();
  await expect(dialog).toHaveCount(0);
  expect((await storedCollection(name)).access.keys).toEqual([key.id]);
});

test('cache: a per-key rule and a purge pick the key by name and use its id', async ({ page }) => {
  const name = `cachepick-${Date.now()}`;
  const key = await issueKey(name);
  const label = `${name} (${key.key_prefix})`;
  await openSignedIn(page, 'gateway/cache');
  await page.getByLabel('Add a per-key rule', { exact: true }).selectOption({ label });
  const rules = page.getByLabel("Per-key rules (by key id; they win over the model's)", { exact: true });
  expect(JSON.parse(await rules.inputValue())).toMatchObject({ [key.id]: { enabled: false } });
  // The rules can only hold ids: the field says which key each is.
  await expect(rules).toHaveAccessibleDescription(new RegExp(`${key.id} is ${name} \\(`));
  await page.getByRole('region', { name: 'Unsaved changes' }).getByRole('button', { name: 'Discard' }).click();

  await page.getByLabel('Key', { exact: true }).selectOption({ label });
  await page.getByTestId('purge-cache').click();
  const purge = page.waitForRequest((request) => request.url().endsWith('/internal/cache/purge'));
  await page.getByTestId('purge-cache-dialog').getByRole('button', { name: 'Purge matching answers' }).click();
  expect((await purge).postDataJSON()).toEqual({ key_id: key.id });
});
