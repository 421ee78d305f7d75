import type { Locator, Page, Route } from '@playwright/test';
import { expect, gatewayAdmin, openSignedIn, test } from './fixtures.js';

const isDeploymentList = (url: URL): boolean => url.pathname.endsWith('/internal/deployments');

/** Puts the model settings back as they were before a test (other tests share the app). */
async function modelSettingsRestorer(): Promise<() => Promise<void>> {
  const view = (await (await gatewayAdmin('/internal/models')).json()) as Record<string, unknown>;
  const { source, allowed_models, model_aliases, per_model_max_tokens, default_embedding_model } = view;
  const body =
    source === 'database'
      ? { allowed_models, model_aliases, per_model_max_tokens, default_embedding_model }
      : { reset: true };
  return async () => {
    expect((await gatewayAdmin('/internal/models', 'PUT', body)).status).toBe(200);
  };
}

/** Sets the default embedding model to another choice than the one shown; resolves with the value chosen. */
async function changeDefaultEmbedding(page: Page): Promise<string> {
  const select = page.getByLabel('Default embedding model');
  const current = await select.inputValue();
  const values = await select
    .locator('option')
    .evaluateAll((options) => options.map((option) => (option as unknown as { value: string }).value));
  const other = values.find((value) => value !== current)!;
  await select.selectOption(other);
  return other;
}

const deploymentsPanel = (page: Page): Locator =>
  page.locator('section.panel').filter({ has: page.getByRole('heading', { name: 'Deployments', exact: true }) });

test('models: Save while the deployments are still being read saves the settings, and no source is claimed meanwhile', async ({
  page,
}) => {
  const restore = await modelSettingsRestorer();
  const held: Route[] = [];
  await page.route(isDeploymentList, async (route) => {
    if (route.request().method() !== 'GET') return route.fallback();
    held.push(route);
  });
  try {
    await openSignedIn(page, 'gateway/models');
    await expect(page.getByRole('heading', { name: 'Allowed models' })).toBeVisible();
    await expect.poll(() => held.length).toBeGreaterThan(0);
    const panel = deploymentsPanel(page);
    await expect(panel.getByRole('status')).toContainText('Loading');
    await expect(panel).not.toContainText('Source:');

    const chosen = await changeDefaultEmbedding(page);
    await page.getByTestId('save-models').click();
    await expect(page.getByText('Model settings saved')).toBeVisible();
    const saved = (await (await gatewayAdmin('/internal/models')).json()) as { default_embedding_model: string | null };
    expect(saved.default_embedding_model ?? '').toBe(chosen);
    await expect(page.getByTestId('save-models')).toBeHidden();
    // The settings are now the ones edited here, but a reset would also replace deployments not read yet.
    const resetButton = page.getByRole('button', { name: 'Reset to startup configuration' });
    await expect(resetButton).toBeDisabled();
    await expect(resetButton).toHaveAttribute('title', 'Available once the deployments are loaded');

    for (const route of held.splice(0)) await route.fallback().catch(() => undefined);
    await page.unroute(isDeploymentList);
    await expect(panel).toContainText('Source:');
    await expect(resetButton).toBeEnabled();
  } finally {
    await restore();
  }
});

test('models: deployments that could not be read offer Retry, which keeps the draft; the settings save meanwhile', async ({
  page,
  consoleErrors,
}) => {
  const restore = await modelSettingsRestorer();
  let failing = true;
  await page.route(isDeploymentList, async (route) => {
    if (!failing || route.request().method() !== 'GET') return route.fallback();
    await route.fulfill({ status: 500, json: { error: { type: 'api_error', message: 'db locked' } } });
  });
  try {
    await openSignedIn(page, 'gateway/models');
    const panel = deploymentsPanel(page);
    await expect(panel.getByRole('alert')).toContainText('Could not load the deployments');
    await expect(panel.getByRole('alert')).toContainText('db locked');
    await expect(panel).not.toContainText('Source:');

    const chosen = await changeDefaultEmbedding(page);
    failing = false;
    await panel.getByRole('button', { name: 'Retry' }).click();
    await expect(panel.getByRole('alert')).toBeHidden();
    await expect(panel).toContainText('Source:');
    // What was edited elsewhere on the screen is still there, unsaved.
    await expect(page.getByLabel('Default embedding model')).toHaveValue(chosen);
    await expect(page.getByTestId('save-models')).toBeEnabled();

    // Failing again, the settings still save on their own.
    failing = true;
    await page.reload();
    await expect(panel.getByRole('alert')).toContainText('db locked');
    const next = await changeDefaultEmbedding(page);
    await page.getByTestId('save-models').click();
    await expect(page.getByText('Model settings saved')).toBeVisible();
    const saved = (await (await gatewayAdmin('/internal/models')).json()) as { default_embedding_model: string | null };
    expect(saved.default_embedding_model ?? '').toBe(next);
  } finally {
    await restore();
  }
  // The 500s held back on purpose, as the browser logs them.
  const expected = consoleErrors.filter((error) => !/status of 500/.test(error));
  consoleErrors.splice(0, consoleErrors.length, ...expected);
});
