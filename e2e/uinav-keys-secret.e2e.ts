import { expect, gatewayAdmin, openSignedIn, test } from './fixtures.js';

async function issue(name: string): Promise<{ key: string; key_prefix: string }> {
  const issued = await gatewayAdmin('/internal/api-keys', 'POST', { name });
  expect(issued.status).toBe(201);
  return (await issued.json()) as { key: string; key_prefix: string };
}

test('keys: a secret pasted into the filter finds its key by prefix and is never written to the address', async ({
  page,
  app,
}) => {
  const tag = `uinav${Date.now()}`;
  const leaked = await issue(`${tag}-leaked`);
  await issue(`${tag}-other`);
  const prefix = leaked.key_prefix.replace(/…$/, '');
  expect(leaked.key.startsWith(prefix)).toBe(true);

  await openSignedIn(page, 'gateway/keys');
  await expect(page.getByTestId('keys-table')).toBeVisible();
  await page.keyboard.press('/');
  await page.keyboard.insertText(leaked.key);

  const rows = page.getByTestId('keys-table').locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText(`${tag}-leaked`);
  await expect(page.getByLabel('Filter keys')).toHaveValue(prefix);
  await expect(page).toHaveURL(new RegExp(`[?&]q=${encodeURIComponent(prefix)}(&|$)`));
  expect(page.url()).not.toContain(leaked.key.slice(prefix.length));
  await expect(page.getByTestId('keys-secret-note')).toContainText('looked up by its prefix, and not kept');

  // Typing on from there is an ordinary filter again, and the note goes.
  await page.keyboard.press('Backspace');
  await expect(page.getByTestId('keys-secret-note')).toHaveCount(0);

  // A link made elsewhere with the secret in it: the key is found and the address keeps only the prefix.
  await page.goto(new URL(`gateway/keys?q=${encodeURIComponent(leaked.key)}`, app.uiUrl).toString());
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText(`${tag}-leaked`);
  await expect(page).toHaveURL(new RegExp(`[?&]q=${encodeURIComponent(prefix)}(&|$)`));
  await expect(page.getByTestId('keys-secret-note')).toBeVisible();
});
