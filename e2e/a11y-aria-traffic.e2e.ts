import { expect, gatewayAdmin, openSignedIn, test } from './fixtures.js';

async function chat(gatewayUrl: string, key: string, content: string): Promise<void> {
  const response = await fetch(`${gatewayUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'demo/echo', messages: [{ role: 'user', content }] }),
  });
  await response.arrayBuffer();
  expect(response.status).toBe(200);
}

test('live traffic: its state is a status, so a pause count or a dropped stream is announced', async ({
  page,
  app,
}) => {
  const issued = await gatewayAdmin('/internal/api-keys', 'POST', { name: `a11y-live-${Date.now()}` });
  const { key } = (await issued.json()) as { key: string };
  await openSignedIn(page, 'gateway/traffic');
  const state = page.getByRole('status').filter({ hasText: /^(Live|Paused|Reconnecting)/ });
  await expect(state).toHaveText('Live');
  await expect(state).toHaveAttribute('data-testid', 'live-state');
  await page.getByRole('button', { name: 'Pause', exact: true }).click();
  await expect(state).toHaveText('Paused');
  await chat(app.gatewayUrl, key, 'while paused');
  await expect(state).toHaveText('Paused · 1 new');
  // The state, and the count (a status, as Keys' count), which is heard only while paused, when only a
  // filter changes it: the requests themselves are not announced one by one.
  await expect(page.getByTestId('traffic-screen').getByRole('status')).toHaveCount(2);
  const count = page.getByTestId('traffic-count');
  await expect(count).toHaveAttribute('role', 'status');
  await expect(count).toHaveAttribute('aria-live', 'polite');
  await page.getByRole('button', { name: 'Resume', exact: true }).click();
  await expect(state).toHaveText('Live');
  await expect(count).toHaveAttribute('aria-live', 'off');
});

test('live traffic: the drawer’s bodies take focus and are named, so a keyboard scrolls them', async ({
  page,
  app,
}) => {
  const name = `a11y-body-${Date.now()}`;
  const issued = await gatewayAdmin('/internal/api-keys', 'POST', { name });
  const { key } = (await issued.json()) as { key: string };
  await chat(app.gatewayUrl, key, 'a body to scroll');
  await openSignedIn(page, 'gateway/traffic');
  await page.getByTestId('traffic-row').filter({ hasText: name }).click();
  const drawer = page.getByTestId('traffic-drawer');
  for (const label of ['Request body', 'Response body']) {
    const body = drawer.getByRole('region', { name: label, exact: true });
    await expect(body).toHaveJSProperty('tagName', 'PRE');
    await expect(body).toHaveAttribute('tabindex', '0');
    await body.focus();
    await expect(body).toBeFocused();
  }
  await expect(drawer.locator('pre.code-block-scroll:not([tabindex="0"])')).toHaveCount(0);
});
