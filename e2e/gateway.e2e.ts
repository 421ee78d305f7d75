import OpenAI from 'openai';
import { expect, openSignedIn, saveScreenshot, test } from './fixtures.js';

test('issue a key in the UI, use it with the openai package, and see the request in live traffic', async ({ page, app }) => {
  const name = `e2e-client-${Date.now()}`;
  await openSignedIn(page, 'gateway/keys');
  await page.getByTestId('issue-key').click();
  const dialog = page.getByTestId('issue-key-dialog');
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByLabel('Team', { exact: true }).fill('platform');
  await dialog.getByLabel('Requests per minute').fill('600');
  await saveScreenshot(page, 'gateway-issue-key');
  await dialog.getByTestId('confirm-issue-key').click();

  const secret = (await page.getByTestId('issued-key-secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^gk-/);
  await saveScreenshot(page, 'gateway-key-secret');
  await page.getByTestId('close-secret').click();
  await expect(page.getByTestId('keys-table')).toContainText(name);

  // A real client against the gateway, with the key the UI showed.
  const client = new OpenAI({ baseURL: `${app.gatewayUrl}/v1`, apiKey: secret });
  const reply = await client.chat.completions.create({ model: 'demo/echo', messages: [{ role: 'user', content: 'Hello from the browser test' }] });
  expect(reply.choices[0]?.message.content).toContain('Hello from the browser test');

  // It appears in live traffic (the stream was already open), with its bodies in the drawer.
  await page.getByRole('link', { name: 'Live traffic' }).click();
  const row = page.getByTestId('traffic-row').filter({ hasText: name });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('demo/echo');
  await expect(row).toContainText('200');
  await row.click();
  const drawer = page.getByTestId('traffic-drawer');
  await expect(drawer).toContainText('Hello from the browser test');
  await expect(drawer).toContainText(reply.id.length > 0 ? 'Request (as forwarded)' : '');
  await saveScreenshot(page, 'gateway-traffic-drawer');
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();

  // A second request arrives while the view is live.
  await client.chat.completions.create({ model: 'demo/echo', messages: [{ role: 'user', content: 'second' }] });
  await expect(page.getByTestId('traffic-row').filter({ hasText: name })).toHaveCount(2);

  // Paused: new requests are buffered, counted, and shown on resume.
  await page.getByTestId('pause-traffic').click();
  await client.chat.completions.create({ model: 'demo/echo', messages: [{ role: 'user', content: 'third' }] });
  await expect(page.getByTestId('live-state')).toContainText('1 new');
  await expect(page.getByTestId('traffic-row').filter({ hasText: name })).toHaveCount(2);
  await page.getByTestId('pause-traffic').click();
  await expect(page.getByTestId('traffic-row').filter({ hasText: name })).toHaveCount(3);

  // Revoke: the key stops working.
  await page.getByRole('link', { name: 'Keys' }).click();
  await page.getByTestId('keys-table').getByRole('row').filter({ hasText: name }).getByRole('button', { name: 'Revoke' }).click();
  await page.getByTestId('confirm-revoke').click();
  await expect(page.getByText(name)).toHaveCount(0);
  await expect(client.chat.completions.create({ model: 'demo/echo', messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({ status: 401 });
});

test('model settings: an alias added and saved in the UI routes requests at once', async ({ page, app }) => {
  const alias = `fast-${Date.now()}`;
  await openSignedIn(page, 'gateway/models');
  const aliases = page.getByTestId('aliases');
  await aliases.getByLabel('Alias', { exact: true }).fill(alias);
  await aliases.getByLabel('Alias target').selectOption('demo/echo');
  await aliases.getByRole('button', { name: 'Add' }).click();
  await page.getByTestId('save-models').click();
  await expect(page.getByTestId('save-models')).toBeHidden();
  await expect(aliases).toContainText(alias);

  const issued = await fetch(`${app.gatewayUrl}/internal/api-keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${app.masterKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'alias-check' }),
  }).then((response) => response.json() as Promise<{ key: string }>);
  const client = new OpenAI({ baseURL: `${app.gatewayUrl}/v1`, apiKey: issued.key });
  const reply = await client.chat.completions.create({ model: alias, messages: [{ role: 'user', content: 'via alias' }] });
  expect(reply.choices[0]?.message.content).toContain('via alias');
});
