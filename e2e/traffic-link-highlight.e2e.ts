import { expect, gatewayAdmin, openSignedIn, test } from './fixtures.js';

/**
 * A request opened by a link or a reload stays the list's highlighted one when its drawer closes, so
 * Enter opens it again and j goes on to the next older request, as after opening it in the list.
 */
test('live traffic: closing a drawer a link opened leaves its request highlighted for j and k', async ({
  page,
  app,
}) => {
  const issued = (await (
    await gatewayAdmin('/internal/api-keys', 'POST', { name: `link-highlight-${Date.now()}` })
  ).json()) as { id: string; key: string };
  const ids: string[] = [];
  for (const content of ['oldest', 'middle', 'newest']) {
    const response = await fetch(`${app.gatewayUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${issued.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'demo/echo', messages: [{ role: 'user', content }] }),
    });
    await response.arrayBuffer();
    ids.push(response.headers.get('x-request-id') ?? '');
  }
  const [oldest, middle] = ids;

  await openSignedIn(page, `gateway/traffic?key=${issued.id}&request=${middle}`);
  const drawer = page.getByTestId('traffic-drawer');
  await expect(drawer).toContainText(middle!);
  const list = page.getByRole('listbox', { name: 'Requests' });
  await list.focus();
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  await expect(list.locator('[aria-selected="true"]')).toHaveCount(1);

  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`[?&]request=${middle}(&|$)`));
  await page.keyboard.press('Escape');
  await page.keyboard.press('j');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`[?&]request=${oldest}(&|$)`));
});
