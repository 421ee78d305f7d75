import { expect, gatewayAdmin, openSignedIn, test, type App } from './fixtures.js';

/** Sends one demo/echo request with a new key named `name`. */
async function sendWithKey(app: App, name: string): Promise<void> {
  const issued = (await (await gatewayAdmin('/internal/api-keys', 'POST', { name })).json()) as { key: string };
  const response = await fetch(`${app.gatewayUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${issued.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'demo/echo', messages: [{ role: 'user', content: name }] }),
  });
  await response.arrayBuffer();
}

/** A paused Live traffic stays paused, on the same rows, through a visit to another screen. */
test('live traffic: pausing survives g k, g t, holding the same rows until Resume', async ({ page, app }) => {
  const tag = `pause-kept-${Date.now()}`;
  await sendWithKey(app, `${tag}-before`);
  await openSignedIn(page, 'gateway/traffic');
  const list = page.getByRole('listbox', { name: 'Requests' });
  const row = (phase: string) => list.getByRole('option', { name: new RegExp(`${tag}-${phase}`) });
  await expect(row('before')).toHaveCount(1);
  const state = page.getByTestId('live-state');
  await expect(state).toHaveText('Live');

  await page.getByTestId('pause-traffic').click();
  await expect(state).toHaveText('Paused');
  await sendWithKey(app, `${tag}-paused`);
  await expect(state).toHaveText('Paused · 1 new');

  await list.focus();
  await page.keyboard.press('g');
  await page.keyboard.press('k');
  await expect(page).toHaveURL(/\/gateway\/keys/);
  await sendWithKey(app, `${tag}-away`);
  await page.keyboard.press('g');
  await page.keyboard.press('t');
  await expect(page).toHaveURL(/\/gateway\/traffic/);

  await expect(state).toHaveText('Paused · 2 new');
  await expect(page.getByTestId('pause-traffic')).toHaveText('Resume');
  await expect(row('before')).toHaveCount(1);
  await expect(row('paused')).toHaveCount(0);
  await expect(row('away')).toHaveCount(0);

  await page.getByTestId('pause-traffic').click();
  await expect(state).toHaveText('Live');
  await expect(row('paused')).toHaveCount(1);
  await expect(row('away')).toHaveCount(1);
});
