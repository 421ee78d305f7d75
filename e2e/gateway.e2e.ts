import OpenAI from 'openai';
import { startOpenAIUpstream } from '../test/support/upstreams/index.js';
import { expect, gatewayAdmin, openSignedIn, saveScreenshot, test } from './fixtures.js';

test('issue a key in the UI, use it with the openai package, and see the request in live traffic', async ({
  page,
  app,
}) => {
  const name = `e2e-client-${Date.now()}`;
  await openSignedIn(page, 'gateway/keys');
  await page.getByTestId('issue-key').click();
  const dialog = page.getByTestId('issue-key-dialog');
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  // A team of its own: a name new to the gateway is created only once its box is checked.
  const team = `platform-${Date.now()}`;
  await dialog.getByLabel('Team', { exact: true }).fill(team);
  await dialog.getByRole('checkbox', { name: `Create team “${team}” with no limits` }).check();
  await dialog.getByLabel('Requests per minute').fill('600');
  await saveScreenshot(page, 'gateway-issue-key');
  await dialog.getByTestId('confirm-issue-key').click();

  const secret = (await page.getByTestId('issued-key-secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^gk-/);
  await saveScreenshot(page, 'gateway-key-secret');
  // The secret is never shown again: a stray Esc or a click beside the dialog must not close it.
  await page.keyboard.press('Escape');
  await page.mouse.click(5, 5);
  await expect(page.getByTestId('issued-key-secret')).toHaveText(secret);
  await page.getByTestId('close-secret').click();
  await expect(page.getByTestId('key-secret-dialog')).toHaveCount(0);
  await expect(page.getByTestId('keys-table')).toContainText(name);

  // A real client against the gateway, with the key the UI showed.
  const client = new OpenAI({ baseURL: `${app.gatewayUrl}/v1`, apiKey: secret });
  const reply = await client.chat.completions.create({
    model: 'demo/echo',
    messages: [{ role: 'user', content: 'Hello from the browser test' }],
  });
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
  await expect(drawer).toContainText(reply.id.length > 0 ? "Request (as received, with the gateway's rewrites)" : '');
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
  await page
    .getByTestId('keys-table')
    .getByRole('row')
    .filter({ hasText: name })
    .getByRole('button', { name: 'Revoke' })
    .click();
  await page.getByTestId('confirm-revoke').click();
  await expect(page.getByText(name)).toHaveCount(0);
  await expect(
    client.chat.completions.create({ model: 'demo/echo', messages: [{ role: 'user', content: 'x' }] }),
  ).rejects.toMatchObject({ status: 401 });
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
  const reply = await client.chat.completions.create({
    model: alias,
    messages: [{ role: 'user', content: 'via alias' }],
  });
  expect(reply.choices[0]?.message.content).toContain('via alias');
});

test('deployments: one added in the Models screen routes a public model to its upstream', async ({ page, app }) => {
  // The app runs in another process (global setup); the mock runs here, on loopback.
  const upstreamKey = 'sk-e2e-upstream-0123456789';
  const upstream = await startOpenAIUpstream({ apiKey: upstreamKey });
  const model = `team-gpt-${Date.now()}`;
  const admin = { authorization: `Bearer ${app.masterKey}`, 'content-type': 'application/json' };
  try {
    await openSignedIn(page, 'gateway/models');
    await page.getByLabel('Model to allow').fill(model);
    await page.getByRole('button', { name: 'Allow' }).click();

    await page.getByTestId('add-deployment').click();
    const dialog = page.getByTestId('deployment-dialog');
    // The shared schema's messages show before anything is sent.
    await dialog.getByLabel('Base URL').fill('not a url');
    await dialog.getByTestId('confirm-deployment').click();
    await expect(dialog.locator('.field-error')).not.toHaveCount(0);
    await dialog.getByLabel('Model', { exact: true }).fill(model);
    await dialog.getByLabel('Provider', { exact: true }).selectOption('openai');
    await dialog.getByLabel('Upstream model').fill('mock-gpt');
    await dialog.getByLabel('Base URL').fill(upstream.url);
    await dialog.getByLabel('API key', { exact: true }).fill(upstreamKey);
    await dialog.getByLabel('Weight').fill('2');
    await dialog.getByLabel('Timeout (ms)').fill('15000');
    // An empty retry count says what it stands for, and stays empty: the deployment follows the default.
    await expect(dialog.getByLabel('Retries')).toHaveAttribute('placeholder', '2');
    await expect(dialog).toContainText('Empty: the gateway default, 2 (gateway.max_retries)');
    await saveScreenshot(page, 'gateway-deployment-dialog');
    await dialog.getByTestId('confirm-deployment').click();
    await expect(dialog).toBeHidden();

    const table = page.getByTestId('deployments-table');
    await expect(table).toContainText('Not saved yet');
    await page.getByTestId('save-models').click();
    await expect(page.getByTestId('save-models')).toBeHidden();
    const row = table.getByRole('row').filter({ hasText: model });
    await expect(row).toContainText(`${model}#1`);
    await expect(row).toContainText('stored');
    await expect(row).toContainText('default (2)');

    const issued = await fetch(`${app.gatewayUrl}/internal/api-keys`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ name: 'deployment-check' }),
    }).then((response) => response.json() as Promise<{ key: string }>);
    const client = new OpenAI({ baseURL: `${app.gatewayUrl}/v1`, apiKey: issued.key });
    const reply = await client.chat.completions.create({
      model,
      messages: [{ role: 'user', content: 'via the new deployment' }],
    });
    expect(reply.choices[0]?.message.content).toContain('via the new deployment');
    const received = upstream.lastRequest();
    expect(received?.path).toBe('/v1/chat/completions');
    expect((received?.body as { model?: string }).model).toBe('mock-gpt');
    expect(received?.headers.authorization).toBe(`Bearer ${upstreamKey}`);

    // Health shows next to it, and the stored key is never rendered back.
    await page.reload();
    await expect(table.getByRole('row').filter({ hasText: model })).toContainText('Healthy');
    await table.scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'gateway-models-deployments');
    expect(await page.content()).not.toContain(upstreamKey);
    await table.getByRole('button', { name: `Edit ${model}#1` }).click();
    await expect(dialog.getByLabel('API key', { exact: true })).toHaveValue('');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  } finally {
    await fetch(`${app.gatewayUrl}/internal/deployments`, {
      method: 'PUT',
      headers: admin,
      body: JSON.stringify({ reset: true }),
    });
    await upstream.close();
  }
});

test('a streamed Responses request reads as its events in the traffic drawer', async ({ page, app }) => {
  const name = `e2e-responses-${Date.now()}`;
  const created = await fetch(`${app.gatewayUrl}/internal/api-keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${app.masterKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, scopes: ['responses'] }),
  });
  const client = new OpenAI({
    baseURL: `${app.gatewayUrl}/v1`,
    apiKey: ((await created.json()) as { key: string }).key,
  });
  await openSignedIn(page, 'gateway/traffic');
  const final = await client.responses
    .stream({ model: 'demo/echo', input: 'streamed responses words' })
    .finalResponse();
  expect(final.output_text).toBe('streamed responses words');

  const row = page.getByTestId('traffic-row').filter({ hasText: name });
  await expect(row).toHaveCount(1);
  await row.click();
  const events = page.getByTestId('traffic-drawer').getByTestId('stream-events');
  await expect(events).toContainText('response.created');
  await expect(events).toContainText('response.output_text.delta "streamed"');
  await expect(events).toContainText('response.completed status completed');
  await saveScreenshot(page, 'gateway-traffic-responses-stream');
});

test('model settings: edits in progress survive a change made elsewhere, which the save bar reports', async ({
  page,
}) => {
  const alias = `kept-${Date.now()}`;
  await openSignedIn(page, 'gateway/models');
  const aliases = page.getByTestId('aliases');
  await aliases.getByLabel('Alias', { exact: true }).fill(alias);
  await aliases.getByLabel('Alias target').selectOption('demo/echo');
  await aliases.getByRole('button', { name: 'Add' }).click();
  await expect(page.getByTestId('save-models')).toBeVisible();

  // Another client changes the settings; the live feed makes the screen refetch them.
  const current = (await (await gatewayAdmin('/internal/models')).json()) as {
    per_model_max_tokens: Record<string, number>;
  };
  const cap = 100 + (Date.now() % 800);
  const put = await gatewayAdmin('/internal/models', 'PUT', {
    per_model_max_tokens: { ...current.per_model_max_tokens, 'demo/echo': cap },
  });
  expect(put.status).toBe(200);
  await expect(page.getByTestId('changed-elsewhere')).toBeVisible();
  await expect(aliases).toContainText(alias);
  await expect(page.getByTestId('save-models')).toBeVisible();

  await page.getByRole('button', { name: 'Discard' }).click();
  await expect(page.getByTestId('save-models')).toBeHidden();
  await expect(aliases).not.toContainText(alias);
});
