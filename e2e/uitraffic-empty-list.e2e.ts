import { expect, gatewayAdmin, openSignedIn, test } from './fixtures.js';

/**
 * Live traffic before any request (as after every restart) still has its Requests list, empty and
 * saying so, so a script can wait for it and then send requests.
 */
test('live traffic: with no requests yet, the Requests list is there, empty and described, and fills', async ({
  page,
  app,
}) => {
  // The gateway as just started: it keeps no request yet.
  await page.route(/\/internal\/traffic\?/, async (route) => {
    const response = await route.fetch();
    const page_ = (await response.json()) as Record<string, unknown>;
    await route.fulfill({ response, json: { ...page_, data: [], has_more: false } });
  });
  const issued = (await (
    await gatewayAdmin('/internal/api-keys', 'POST', { name: `empty-list-${Date.now()}` })
  ).json()) as { id: string; key: string };
  await openSignedIn(page, 'gateway/traffic');
  const list = page.getByRole('listbox', { name: 'Requests' });
  await expect(list).toBeAttached();
  await expect(list).toHaveAccessibleDescription('No requests yet');
  await expect(list.getByRole('option')).toHaveCount(0);
  await expect(page.getByTestId('live-state')).toHaveText('Live');

  const response = await fetch(`${app.gatewayUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${issued.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'demo/echo', messages: [{ role: 'user', content: 'first' }] }),
  });
  await response.arrayBuffer();
  await expect(list.getByRole('option')).toHaveCount(1);

  // Filtered down to nothing, it stays too, saying why.
  await page.getByRole('textbox', { name: 'Filter requests' }).fill('no-such-request');
  await expect(list).toHaveAccessibleDescription('No request matches the filters');
});
