import type { Locator, Page } from '@playwright/test';
import OpenAI from 'openai';
import { expect, gatewayAdmin, openSignedIn, test, type App } from './fixtures.js';

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
  await dialog.getByLabel('Provider').fill('openai');
  await dialog.getByLabel('Base URL').fill('http://127.0.0.1:9/v1');
  await dialog.getByLabel('API key environment variable').fill(variable);
  await dialog.getByTestId('confirm-deployment').click();
  await expect(dialog).toBeHidden();
  await page.getByTestId('save-models').click();

  // The bar the user just pressed Save on says what went wrong, in view, and the draft is still there.
  const failure = saveBar(page).getByRole('alert');
  await expect(failure).toContainText('Not saved');
  await expect(failure).toContainText(`${variable} is not set in the gateway's environment`);
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
  const models = (await (await gatewayAdmin('/internal/models')).json()) as { allowed_models: string[] };
  expect(
    (await gatewayAdmin('/internal/models', 'PUT', { allowed_models: [...models.allowed_models, model] })).status,
  ).toBe(200);
  try {
    await openSignedIn(page, 'gateway/guardrails');
    const patterns = page.getByLabel('Blocked patterns');
    await patterns.fill(`${'a'.repeat(1001)}\nkeep-me`);
    await expect(saveBar(page).getByTestId('save-blocked')).toContainText('more than the 1,000 allowed');
    await expect(page.getByTestId('save-guardrails')).toBeDisabled();
    await patterns.fill('keep-me');
    await page.getByLabel('Max input tokens', { exact: true }).fill('4321');
    await page.getByRole('button', { name: 'Model override' }).click();
    await page.getByLabel('Override 1 model').selectOption(model);
    await page.getByLabel('Override 1 PII mode').selectOption('mask');

    // Another admin takes the model off the allow-list meanwhile: the gateway refuses the override.
    expect((await gatewayAdmin('/internal/models', 'PUT', { allowed_models: models.allowed_models })).status).toBe(200);
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
