import { expect, gatewayAdmin, openSignedIn, test, type App } from './fixtures.js';

async function send(app: App, apiKey: string): Promise<number> {
  const response = await fetch(`${app.gatewayUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'demo/echo', messages: [{ role: 'user', content: 'hi' }] }),
  });
  await response.arrayBuffer();
  return response.status;
}

/**
 * Users & teams shows two request counts: today's, which the limits admitted, and the chart's, from the
 * usage log, refused requests included. Each says which it is, so 1 and 2 never read as one number.
 */
test('users & teams: today counts admitted requests and the chart counts refused ones too, each labelled', async ({
  page,
  app,
}) => {
  const user = `counts-${Date.now()}`;
  expect((await gatewayAdmin('/internal/users', 'POST', { id: user, rpm_limit: 1 })).status).toBe(201);
  const issued = (await (await gatewayAdmin('/internal/api-keys', 'POST', { name: user, user })).json()) as {
    key: string;
  };
  expect(await send(app, issued.key)).toBe(200);
  expect(await send(app, issued.key)).toBe(429);

  await openSignedIn(page, 'gateway/people?measure=requests');
  const userRow = page
    .getByRole('row')
    .filter({ hasText: user })
    .filter({ has: page.getByTestId('today') });
  await expect(userRow.getByTestId('today')).toContainText('1 req admitted');

  const panel = page.getByTestId('spend-panel');
  await expect(panel.getByRole('heading')).toContainText('Requests per day (refused included)');
  const table = page.getByTestId('spend-table');
  await expect(table.getByRole('columnheader', { name: 'Requests (refused included)' })).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: user }).getByRole('cell').nth(1)).toHaveText('2');
});
