import type { Locator, Page } from '@playwright/test';
import OpenAI from 'openai';
import { startOpenAIUpstream } from '../test/support/upstreams/index.js';
import { allowModel, expect, gatewayAdmin, openSignedIn, test, type App } from './fixtures.js';

/** Issues a key through the admin API. */
async function issueKey(body: Record<string, unknown>): Promise<{ id: string; key: string; name: string }> {
  const response = await gatewayAdmin('/internal/api-keys', 'POST', body);
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string; key: string; name: string };
}

/** One chat completion with `key`; resolves with the request id the gateway answered. */
async function chat(app: App, key: string, content: string, extra: Record<string, unknown> = {}): Promise<string> {
  const response = await fetch(`${app.gatewayUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'demo/echo', messages: [{ role: 'user', content }], ...extra }),
  });
  await response.arrayBuffer();
  return response.headers.get('x-request-id') ?? '';
}

const saveBar = (page: Page): Locator => page.getByRole('region', { name: 'Unsaved changes' });
const trafficList = (page: Page): Locator => page.getByRole('listbox', { name: 'Requests' });

test('a save the gateway refuses says so in the save bar, on screen, and keeps the draft (Models, Cache)', async ({
  page,
  consoleErrors,
}) => {
  const variable = `GATEHOUSE_E2E_UNSET_${Date.now()}`;
  await openSignedIn(page, 'gateway/models');
  await page.getByTestId('add-deployment').click();
  const dialog = page.getByTestId('deployment-dialog');
  await dialog.getByLabel('Model', { exact: true }).fill('demo/echo');
  await dialog.getByLabel('Provider', { exact: true }).selectOption('openai');
  await dialog.getByLabel('Base URL').fill('http://127.0.0.1:9/v1');
  await dialog.getByLabel('API key environment variable').fill(variable);
  await dialog.getByTestId('confirm-deployment').click();
  await expect(dialog).toBeHidden();
  await page.getByTestId('save-models').click();

  // The bar the user just pressed Save on says what went wrong, in view, and the draft is still there.
  const failure = saveBar(page).getByRole('alert');
  await expect(failure).toContainText('Not saved');
  await expect(failure).toContainText(`${variable} is not a variable the admin API may read`);
  // The gateway names it by its place in the list; the bar adds what the table shows.
  await expect(failure).toContainText('(demo/echo, not saved yet, http://127.0.0.1:9/v1): api_key_env');
  await expect(failure).toBeInViewport();
  await expect(page.getByTestId('deployments-table')).toContainText('Not saved yet');
  await saveBar(page).getByRole('button', { name: 'Discard' }).click();
  await expect(saveBar(page)).toBeHidden();

  await page.getByRole('link', { name: 'Cache' }).click();
  await page
    .getByLabel("Per-key rules (by key id; they win over the model's)")
    .fill('{"key_e2e_missing": {"enabled": false}}');
  await page.getByTestId('save-cache').click();
  await expect(saveBar(page).getByRole('alert')).toContainText('key_e2e_missing');
  await expect(saveBar(page).getByRole('alert')).toBeInViewport();
  // A change to the draft starts over: the old refusal no longer describes it.
  await page.getByLabel('Time to live (seconds)').fill('301');
  await expect(saveBar(page).getByRole('alert')).toHaveCount(0);
  await saveBar(page).getByRole('button', { name: 'Discard' }).click();
  // The browser logs each refused request; the refusals were the point here.
  consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((line) => !/ 400 /.test(line)));
});

test('PII & policy: a refused save keeps every edit on screen, and a pattern over the bound is refused as typed', async ({
  page,
  consoleErrors,
}) => {
  const model = `pii-override-${Date.now()}`;
  const allowed = await allowModel(model);
  try {
    await openSignedIn(page, 'gateway/guardrails');
    const patterns = page.getByLabel('Blocked patterns', { exact: true });
    await patterns.fill(`${'a'.repeat(1001)}\nkeep-me`);
    await expect(saveBar(page).getByTestId('save-blocked')).toContainText('more than the 1,000 allowed');
    await expect(page.getByTestId('save-guardrails')).toBeDisabled();
    await patterns.fill('keep-me');
    await page.getByLabel('Max input tokens', { exact: true }).fill('4321');
    await page.getByRole('button', { name: 'Model override' }).click();
    await page.getByLabel('Override 1 model').selectOption(model);
    await page.getByLabel('Override 1 PII mode').selectOption('mask');

    // Another admin takes the model off the allow-list meanwhile: the gateway refuses the override.
    expect((await gatewayAdmin('/internal/models', 'PUT', { allowed_models: allowed })).status).toBe(200);
    await page.getByTestId('save-guardrails').click();
    await expect(saveBar(page).getByRole('alert')).toContainText(`models.${model}`);
    await expect(saveBar(page).getByRole('alert')).toBeInViewport();
    await expect(patterns).toHaveValue('keep-me');
    await expect(page.getByLabel('Max input tokens', { exact: true })).toHaveValue('4321');
    await expect(page.getByLabel('Override 1 PII mode')).toHaveValue('mask');
    await saveBar(page).getByRole('button', { name: 'Discard' }).click();
    await expect(saveBar(page)).toBeHidden();
    await expect(patterns).toHaveValue('');
    consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((line) => !/ 400 /.test(line)));
  } finally {
    await gatewayAdmin('/internal/models', 'PUT', { reset: true });
    await gatewayAdmin('/internal/pii', 'PUT', { reset: true });
    await gatewayAdmin('/internal/content-policy', 'PUT', { reset: true });
  }
});

test('live traffic: filters and the open request are in the address, survive a reload and Back, and link to a request', async ({
  page,
  app,
}) => {
  const tag = `urlstate${Date.now()}`;
  const issued = await issueKey({ name: tag });
  const first = await chat(app, issued.key, `${tag} one`);
  const second = await chat(app, issued.key, `${tag} two`);

  await openSignedIn(page, 'gateway/traffic');
  await expect(trafficList(page)).toBeVisible();
  await page.getByLabel('Filter requests').fill(tag);
  await page.getByLabel('Status', { exact: true }).selectOption('ok');
  await page.getByLabel('Key', { exact: true }).selectOption(issued.id);
  await expect(trafficList(page).getByRole('option')).toHaveCount(2);
  await trafficList(page).getByRole('option').filter({ hasText: 'demo/echo' }).last().click();
  const drawer = page.getByTestId('traffic-drawer');
  await expect(drawer).toContainText(first);
  await expect(page).toHaveURL(new RegExp(`[?&]q=${tag}(&|$)`));
  await expect(page).toHaveURL(/[?&]status=ok(&|$)/);
  await expect(page).toHaveURL(new RegExp(`[?&]key=${issued.id}(&|$)`));
  await expect(page).toHaveURL(new RegExp(`[?&]request=${first}(&|$)`));

  await page.reload();
  await expect(page.getByLabel('Filter requests')).toHaveValue(tag);
  await expect(page.getByLabel('Status', { exact: true })).toHaveValue('ok');
  await expect(page.getByLabel('Key', { exact: true })).toHaveValue(issued.id);
  await expect(trafficList(page).getByRole('option')).toHaveCount(2);
  await expect(page.getByTestId('traffic-drawer')).toContainText(first);

  // Another screen, then Back: the same filters and request.
  await page.getByRole('link', { name: 'Keys' }).click();
  await expect(page.getByTestId('keys-table')).toBeVisible();
  await page.goBack();
  await expect(page.getByLabel('Filter requests')).toHaveValue(tag);
  await expect(page.getByTestId('traffic-drawer')).toContainText(first);

  // Closing the drawer takes the request out of the address; a pasted link opens it again.
  await page.getByRole('button', { name: 'Close details' }).click();
  await expect(page).not.toHaveURL(/request=/);
  await page.goto(new URL(`gateway/traffic?request=${second}`, app.uiUrl).toString());
  await expect(page.getByTestId('traffic-drawer')).toContainText(second);
  await expect(page.getByLabel('Filter requests')).toHaveValue('');

  // One the gateway no longer has (or never had) is named, not shown as an empty screen.
  await page.goto(new URL('gateway/traffic?request=no-such-request', app.uiUrl).toString());
  await expect(page.getByTestId('traffic-drawer')).toContainText('no-such-request');
  await expect(page.getByTestId('traffic-drawer')).toContainText('not among the recent requests');
});

test('usage: grouping and range are in the address, survive a reload and Back', async ({ page }) => {
  await openSignedIn(page, 'gateway/usage');
  await page.getByRole('radio', { name: 'Per key' }).click();
  await page.getByRole('radio', { name: '7 days' }).click();
  await expect(page).toHaveURL(/[?&]group=key(&|$)/);
  await expect(page).toHaveURL(/[?&]range=7d(&|$)/);
  await page.reload();
  await expect(page.getByRole('radio', { name: 'Per key' })).toBeChecked();
  await expect(page.getByRole('radio', { name: '7 days' })).toBeChecked();
  await page.getByRole('link', { name: 'Models' }).click();
  await page.goBack();
  await expect(page.getByRole('radio', { name: 'Per key' })).toBeChecked();
  await expect(page.getByRole('radio', { name: '7 days' })).toBeChecked();
  // A value the screen does not know falls back to the default rather than a blank choice.
  await openSignedIn(page, 'gateway/usage?group=nope&range=1y');
  await expect(page.getByRole('radio', { name: 'Per model' })).toBeChecked();
  await expect(page.getByRole('radio', { name: '24 hours' })).toBeChecked();
});

test('usage: the last hour keeps moving while the screen stays open', async ({ page }) => {
  await page.clock.install();
  const sinces: number[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/internal/usage') sinces.push(Date.parse(url.searchParams.get('since') ?? ''));
  });
  await openSignedIn(page, 'gateway/usage?range=1h');
  await expect(page.getByRole('radio', { name: 'Last hour' })).toBeChecked();
  await expect.poll(() => sinces.length).toBeGreaterThan(0);
  const opened = sinces[0]!;
  await page.clock.runFor('30:00');
  await expect.poll(() => sinces[sinces.length - 1]! - opened).toBeGreaterThanOrEqual(29 * 60_000);
});

test('live traffic: a reload shows every request the gateway still keeps, not only the newest 500', async ({
  page,
  app,
}) => {
  const issued = await issueKey({ name: `reload-${Date.now()}` });
  const count = 620;
  for (let start = 0; start < count; start += 20)
    await Promise.all(
      Array.from({ length: Math.min(20, count - start) }, (_, i) => chat(app, issued.key, `r${start + i}`)),
    );
  await openSignedIn(page, `gateway/traffic?key=${issued.id}`);
  await expect(page.getByTestId('traffic-screen')).toContainText(`${count} of`);
});

test('the new key’s example uses an endpoint and a model the key may use', async ({ page, app }) => {
  const name = `embed-only-${Date.now()}`;
  await openSignedIn(page, 'gateway/keys');
  await page.getByTestId('issue-key').click();
  const dialog = page.getByTestId('issue-key-dialog');
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByRole('checkbox', { name: 'chat' }).uncheck();
  await dialog.getByRole('checkbox', { name: 'embeddings' }).check();
  await dialog.getByRole('checkbox', { name: 'demo/embed' }).check();
  await dialog.getByTestId('confirm-issue-key').click();
  const secretDialog = page.getByTestId('key-secret-dialog');
  const example = await secretDialog.locator('pre').innerText();
  const secret = (await page.getByTestId('issued-key-secret').innerText()).trim();
  expect(example).toContain('client.embeddings.create(');
  expect(example).toContain('model="demo/embed"');
  expect(example).not.toContain('demo/echo');
  // What the example does works with the key.
  const client = new OpenAI({ baseURL: `${app.gatewayUrl}/v1`, apiKey: secret, maxRetries: 0 });
  const vectors = await client.embeddings.create({ model: 'demo/embed', input: 'Hello' });
  expect(vectors.data[0]?.embedding.length).toBeGreaterThan(0);
  await page.getByTestId('close-secret').click();
});

test('cache: the counters move as requests are answered, and a draft typed meanwhile stays', async ({ page, app }) => {
  const issued = await issueKey({ name: `cache-live-${Date.now()}` });
  try {
    expect((await gatewayAdmin('/internal/cache', 'PUT', { enabled: true })).status).toBe(200);
    await openSignedIn(page, 'gateway/cache');
    const stats = page.getByTestId('cache-stats');
    await expect(stats).toBeVisible();
    const hits = async (): Promise<number> => {
      const text = await stats.locator('dt', { hasText: 'Hits / misses' }).locator('xpath=../dd').innerText();
      return Number(text.split('/')[0]!.replace(/\D/g, ''));
    };
    const before = await hits();
    await page.getByLabel('Time to live (seconds)').fill('777');
    const content = `cache-live ${Date.now()}`;
    await chat(app, issued.key, content, { temperature: 0 });
    await chat(app, issued.key, content, { temperature: 0 });
    await expect.poll(hits).toBeGreaterThan(before);
    await expect(page.getByLabel('Time to live (seconds)')).toHaveValue('777');
    await saveBar(page).getByRole('button', { name: 'Discard' }).click();
  } finally {
    await gatewayAdmin('/internal/cache', 'PUT', { reset: true });
  }
});

test('live traffic: closing the drawer from inside it gives focus back to the list', async ({ page, app }) => {
  const issued = await issueKey({ name: `focus-${Date.now()}` });
  await chat(app, issued.key, 'focus');
  await openSignedIn(page, `gateway/traffic?key=${issued.id}`);
  await expect(trafficList(page)).toBeFocused();
  // Nothing highlighted yet: Enter opens the newest request, as j would have reached it.
  await page.keyboard.press('Enter');
  const drawer = page.getByTestId('traffic-drawer');
  await expect(drawer).toBeVisible();
  await drawer.getByRole('button', { name: 'Copy as curl' }).focus();
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  await expect(trafficList(page)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(drawer).toBeVisible();
  await drawer.getByRole('button', { name: 'Close details' }).click();
  await expect(drawer).toBeHidden();
  await expect(trafficList(page)).toBeFocused();
});

test('live traffic: Space presses the focused button; elsewhere it pauses and resumes', async ({ page, app }) => {
  const issued = await issueKey({ name: `space-${Date.now()}` });
  await chat(app, issued.key, 'space');
  await openSignedIn(page, `gateway/traffic?key=${issued.id}`);
  await expect(trafficList(page)).toBeFocused();
  await page.keyboard.press('Enter');
  const drawer = page.getByTestId('traffic-drawer');
  await expect(drawer).toBeVisible();
  await drawer.getByRole('button', { name: 'Close details' }).focus();
  await page.keyboard.press(' ');
  await expect(drawer).toBeHidden();
  await expect(page.getByTestId('pause-traffic')).toHaveText('Pause');
  await expect(trafficList(page)).toBeFocused();
  await page.keyboard.press(' ');
  await expect(page.getByTestId('pause-traffic')).toHaveText('Resume');
  await page.keyboard.press(' ');
  await expect(page.getByTestId('pause-traffic')).toHaveText('Pause');
});

test('usage: a small cost on the value axis is shown whole, not cut off at the chart’s edge', async ({ page, app }) => {
  const issued = await issueKey({ name: `axis-${Date.now()}` });
  await chat(app, issued.key, 'priced');
  // As a gateway with pricing answers for cheap requests: fractions of a cent per bucket.
  await page.route('**/internal/usage?**', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { data: { cost_usd: number }[]; totals: { cost_usd: number } };
    // One point only: other tests' traffic in the same hour adds groups that a chart stacks per bucket.
    for (const point of body.data) point.cost_usd = 0;
    if (body.data[0]) body.data[0].cost_usd = 0.000038;
    body.totals.cost_usd = 0.000038;
    await route.fulfill({ response, json: body });
  });
  await openSignedIn(page, 'gateway/usage?range=1h');
  const axis = page.getByTestId('chart-cost_usd').locator('text.chart-axis');
  await expect(axis.filter({ hasText: '$0.000040' })).toHaveCount(1);
  for (const label of await axis.all()) {
    const cut = await label.evaluate((element) => {
      const text = element as unknown as { getBBox(): { x: number } };
      return text.getBBox().x < 0;
    });
    expect(cut, `${await label.textContent()} starts left of the chart`).toBe(false);
  }
});

test('keys: among many, the filter finds a key by name, user or prefix, and stays in the address', async ({ page }) => {
  const tag = `find${Date.now()}`;
  for (let i = 0; i < 120; i += 1) await issueKey({ name: `${tag}-bulk-${i}` });
  const wanted = await issueKey({ name: `${tag}-wanted`, user: `${tag}.owner` });
  await openSignedIn(page, 'gateway/keys');
  await expect(page.getByTestId('keys-table')).toBeVisible();
  await page.keyboard.press('/');
  await expect(page.getByLabel('Filter keys')).toBeFocused();
  await page.keyboard.type(`${tag}.owner`);
  const table = page.getByTestId('keys-table');
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table).toContainText(`${tag}-wanted`);
  await expect(page.getByTestId('keys-count')).toContainText('1 of');
  await expect(page.getByLabel('Filter keys')).toHaveValue(`${tag}.owner`);
  await expect(page).toHaveURL(new RegExp(`[?&]q=${tag}.owner(&|$)`));

  await page.reload();
  await expect(page.getByLabel('Filter keys')).toHaveValue(`${tag}.owner`);
  await expect(page.getByTestId('keys-table').getByRole('row')).toHaveCount(2);

  // By the prefix shown in the table, and a filter that finds nothing says so with a way out.
  await page.getByLabel('Filter keys').fill(wanted.key.slice(0, 10));
  await expect(page.getByTestId('keys-table')).toContainText(`${tag}-wanted`);
  await page.getByLabel('Filter keys').fill(`${tag}-nothing`);
  await expect(page.getByText(`No key matches “${tag}-nothing”`)).toBeVisible();
  await page.getByRole('button', { name: 'Clear the filter' }).click();
  await expect(page.getByLabel('Filter keys')).toHaveValue('');
  await expect(page).not.toHaveURL(/[?&]q=/);

  // Show revoked is kept in the address too.
  await page.getByRole('checkbox', { name: 'Show revoked' }).check();
  await expect(page).toHaveURL(/[?&]revoked=1(&|$)/);
  await page.reload();
  await expect(page.getByRole('checkbox', { name: 'Show revoked' })).toBeChecked();
});

test('live traffic: a stream that failed after its 200 shows as failed, under Failed and not under Success', async ({
  page,
  app,
}) => {
  const upstream = await startOpenAIUpstream({ apiKey: 'sk-e2e-failing-stream' });
  const model = `failing-stream-${Date.now()}`;
  try {
    await allowModel(model);
    const deployments = {
      deployments: [{ model, provider: 'openai', base_url: upstream.url, api_key: 'sk-e2e-failing-stream' }],
    };
    expect((await gatewayAdmin('/internal/deployments', 'PUT', deployments)).status).toBe(200);
    const issued = await issueKey({ name: `failing-${Date.now()}` });
    upstream.setNext({ streamErrorAfterFrames: 2 });
    const client = new OpenAI({ baseURL: `${app.gatewayUrl}/v1`, apiKey: issued.key, maxRetries: 0 });
    const stream = await client.chat.completions.create({
      model,
      stream: true,
      messages: [{ role: 'user', content: 'fail' }],
    });
    await expect(async () => {
      for await (const chunk of stream) void chunk;
    }).rejects.toThrow();

    await openSignedIn(page, `gateway/traffic?key=${issued.id}&status=failed`);
    const row = trafficList(page).getByRole('option');
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('failed');
    await expect(row).toHaveAttribute('aria-label', /, 200 stream failed, .*, failed after it began: /);
    await page.getByLabel('Status', { exact: true }).selectOption('ok');
    await expect(page.getByText('No request matches the filters')).toBeVisible();
  } finally {
    await gatewayAdmin('/internal/deployments', 'PUT', { reset: true });
    await gatewayAdmin('/internal/models', 'PUT', { reset: true });
    await upstream.close();
  }
});

test('collections: Delete asks first, saying what goes, and only then deletes', async ({ page }) => {
  const name = `del-${Date.now()}`;
  expect((await gatewayAdmin('/internal/rag/collections', 'POST', { name })).status).toBe(201);
  const doc = { key: 'handbook.md', content: '# Handbook\n\nHolidays are booked in the portal.' };
  expect((await gatewayAdmin(`/internal/rag/collections/${name}/documents`, 'POST', doc)).status).toBe(201);
  const exists = async (): Promise<number> => (await gatewayAdmin(`/internal/rag/collections/${name}`)).status;

  await openSignedIn(page, 'gateway/collections');
  const table = page.getByTestId('collections-table');
  await table.getByRole('button', { name: `Delete ${name}`, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Delete collection “${name}”?` });
  await expect(dialog).toContainText('Its 1 document and');
  await expect(dialog).toContainText('deleted for good');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  expect(await exists()).toBe(200);

  await table.getByRole('button', { name: `Delete ${name}`, exact: true }).click();
  await dialog.getByRole('button', { name: 'Delete collection' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`Deleted collection ${name}`)).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: name })).toHaveCount(0);
  expect(await exists()).toBe(404);
});

test('live traffic: a refused request shows its error message whole and the model it asked for, not "→ null"', async ({
  page,
  app,
}) => {
  const issued = await issueKey({ name: `refused-${Date.now()}` });
  const requestId = await chat(app, issued.key, 'refused', { model: 'no-such-model-e2e' });
  await openSignedIn(page, `gateway/traffic?key=${issued.id}&request=${requestId}`);
  const drawer = page.getByTestId('traffic-drawer');
  await expect(drawer).toBeVisible();
  await expect(drawer.getByTestId('traffic-error-message')).toContainText("'no-such-model-e2e'");
  await expect(drawer).toContainText('no-such-model-e2e (not routed)');
  // Its body was never recorded: the curl command says it goes without.
  await expect(drawer.getByRole('button', { name: 'Copy as curl (no body)' })).toBeVisible();
});

test('Models: resetting to the startup configuration asks first, naming what goes', async ({ page }) => {
  const model = `reset-me-${Date.now()}`;
  await allowModel(model);
  try {
    expect((await gatewayAdmin('/internal/models', 'PUT', { model_aliases: { 'reset-alias': model } })).status).toBe(
      200,
    );
    await openSignedIn(page, 'gateway/models');
    await page.getByRole('button', { name: 'Reset to startup configuration' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reset the model settings to the startup configuration?' });
    await expect(dialog).toContainText('1 alias');
    await expect(dialog).toContainText('cannot be undone');
    // The deployments come from the startup configuration here: no stored key is lost.
    await expect(dialog).not.toContainText('entered again');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    const kept = (await (await gatewayAdmin('/internal/models')).json()) as { allowed_models: string[] };
    expect(kept.allowed_models).toContain(model);

    await page.getByRole('button', { name: 'Reset to startup configuration' }).click();
    await dialog.getByRole('button', { name: 'Reset model settings' }).click();
    await expect(page.getByText('Model settings reset to the startup configuration')).toBeVisible();
    const reset = (await (await gatewayAdmin('/internal/models')).json()) as { allowed_models: string[] };
    expect(reset.allowed_models).not.toContain(model);
  } finally {
    await gatewayAdmin('/internal/models', 'PUT', { reset: true });
  }
});

test('keys: past 200 matching keys the table draws 200, and Show more draws the rest', async ({ page }) => {
  const prefix = `many-${Date.now()}`;
  for (let start = 0; start < 210; start += 30)
    await Promise.all(
      Array.from({ length: Math.min(30, 210 - start) }, (_, index) =>
        issueKey({ name: `${prefix}-${String(start + index).padStart(3, '0')}` }),
      ),
    );
  await openSignedIn(page, `gateway/keys?q=${prefix}`);
  const rows = page.getByTestId('keys-table').locator('tbody tr');
  await expect(rows).toHaveCount(200);
  await expect(page.getByTestId('keys-count')).toHaveText(/^210 (keys|of )/);
  await page.getByRole('button', { name: 'Show more keys' }).click();
  await expect(rows).toHaveCount(210);
  await expect(page.getByRole('button', { name: 'Show more keys' })).toHaveCount(0);
});
