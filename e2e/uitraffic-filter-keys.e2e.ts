import { expect, gatewayAdmin, openSignedIn, test, type App } from './fixtures.js';
import { apply, freshNamespace, screen } from './store-helpers.js';

/** Issues a key and sends one demo/echo request per content with it; the key's id. */
async function keyWithRequests(app: App, name: string, contents: readonly string[]): Promise<string> {
  const issued = (await (await gatewayAdmin('/internal/api-keys', 'POST', { name })).json()) as {
    id: string;
    key: string;
  };
  for (const content of contents) {
    const response = await fetch(`${app.gatewayUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${issued.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'demo/echo', messages: [{ role: 'user', content }] }),
    });
    await response.arrayBuffer();
  }
  return issued.id;
}

/**
 * Every filter (Live traffic, Keys, Documents) works the same from the keyboard: ↓ and Enter move into
 * the list, the first Esc clears the filter, the next goes back to the list.
 */
test('live traffic: ↓ and Enter in the filter move into the requests, opening the first with Enter', async ({
  page,
  app,
}) => {
  const name = `filterkeys-${Date.now()}`;
  const keyId = await keyWithRequests(app, name, ['older', 'newer']);
  await openSignedIn(page, `gateway/traffic?key=${keyId}`);
  const list = page.getByRole('listbox', { name: 'Requests' });
  await expect(list.getByRole('option')).toHaveCount(2);
  const filter = page.getByRole('textbox', { name: 'Filter requests' });

  await page.keyboard.press('/');
  await expect(filter).toBeFocused();
  await filter.pressSequentially('chat');
  await filter.press('ArrowDown');
  await expect(list).toBeFocused();
  await expect(list.getByRole('option').first()).toHaveAttribute('aria-selected', 'true');
  await expect(page).not.toHaveURL(/[?&]request=/);

  await page.keyboard.press('/');
  await filter.press('Enter');
  await expect(page.getByTestId('traffic-drawer')).toBeVisible();
  await expect(page).toHaveURL(/[?&]request=/);
  await expect(list).toBeFocused();
});

test('live traffic: Esc in the filter clears it, and Esc again goes back to the list, leaving the drawer open', async ({
  page,
  app,
}) => {
  const name = `filteresc-${Date.now()}`;
  const keyId = await keyWithRequests(app, name, ['one']);
  await openSignedIn(page, `gateway/traffic?key=${keyId}`);
  const list = page.getByRole('listbox', { name: 'Requests' });
  await expect(list.getByRole('option')).toHaveCount(1);
  await list.focus();
  await page.keyboard.press('Enter');
  const drawer = page.getByTestId('traffic-drawer');
  await expect(drawer).toBeVisible();

  const filter = page.getByRole('textbox', { name: 'Filter requests' });
  await page.keyboard.press('/');
  await filter.pressSequentially('no-such-request');
  await expect(page).toHaveURL(/[?&]q=no-such-request/);
  await page.keyboard.press('Escape');
  await expect(filter).toHaveValue('');
  await expect(filter).toBeFocused();
  await expect(page).not.toHaveURL(/[?&]q=/);
  await expect(drawer).toBeVisible();

  await page.keyboard.press('Escape');
  await expect(list).toBeFocused();
  await expect(list.getByRole('option').first()).toHaveAttribute('aria-selected', 'true');
  await expect(drawer).toBeVisible();
});

test('keys: Esc in the filter clears it, and Esc again goes back to the table', async ({ page }) => {
  const name = `keysesc${Date.now()}`;
  expect((await gatewayAdmin('/internal/api-keys', 'POST', { name })).status).toBe(201);
  await openSignedIn(page, `gateway/keys?q=${name}`);
  const table = page.getByTestId('keys-table');
  await expect(table).toBeFocused();
  const filter = page.getByRole('textbox', { name: 'Filter keys' });
  await page.keyboard.press('/');
  await page.keyboard.press('Escape');
  await expect(filter).toHaveValue('');
  await expect(filter).toBeFocused();
  await expect(page).not.toHaveURL(/[?&]q=/);
  await page.keyboard.press('Escape');
  await expect(table).toBeFocused();
});

test('documents: Esc in the key filter clears it, and Esc again goes back to the list at its document', async ({
  page,
}) => {
  const namespace = freshNamespace('uitraffic', 'filter-esc');
  await apply(namespace, 'main', 'docs', { 'alpha.txt': 'A\n', 'beta.txt': 'B\n' });
  await openSignedIn(page, screen('documents', namespace, 'main', '&key=beta.txt&q=bet'));
  const list = page.getByRole('listbox', { name: 'Documents' });
  const filter = page.getByRole('textbox', { name: 'Filter keys' });
  await expect(list.getByRole('option')).toHaveCount(1);
  await page.keyboard.press('/');
  await expect(filter).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(filter).toHaveValue('');
  await expect(list.getByRole('option')).toHaveCount(2);
  await expect(page).not.toHaveURL(/[?&]q=/);
  await page.keyboard.press('Escape');
  await expect(list).toBeFocused();
  await expect(page).toHaveURL(/[?&]key=beta\.txt/);
});
