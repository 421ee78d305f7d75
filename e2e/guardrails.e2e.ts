import type { Page } from '@playwright/test';
import OpenAI from 'openai';
import { expect, gatewayAdmin, openSignedIn, saveScreenshot, test } from './fixtures.js';

const EMAIL = 'jane.roe@example.com';

/**
 * Issues a key and, on the PII & policy screen, gives it an override: PII masked and the blocked
 * patterns replaced by `pattern` (not saved yet).
 */
async function overrideForNewKey(page: Page, prefix: string, pattern: string) {
  const name = `${prefix}-${Date.now()}`;
  const issued = (await (await gatewayAdmin('/internal/api-keys', 'POST', { name })).json()) as {
    id: string;
    key: string;
  };
  await openSignedIn(page, 'gateway/guardrails');
  await expect(page.getByTestId('pii-panel')).toBeVisible();
  await page.getByRole('button', { name: 'Key override' }).click();
  const overrides = page.getByTestId('guardrails-overrides');
  await overrides.getByLabel('Override 1 key').selectOption(issued.id);
  await overrides.getByLabel('Override 1 PII mode').selectOption('mask');
  await overrides.getByRole('button', { name: /blocked patterns: inherit/ }).click();
  await overrides.getByLabel('Override 1 blocked patterns').fill(pattern);
  return { name, issued, overrides };
}

/** The key overrides back to none, for the tests that follow. */
async function clearOverrides(): Promise<void> {
  await gatewayAdmin('/internal/pii', 'PUT', { keys: {} });
  await gatewayAdmin('/internal/content-policy', 'PUT', { keys: {} });
}

const clientFor = (gatewayUrl: string, key: string) =>
  new OpenAI({ baseURL: `${gatewayUrl}/v1`, apiKey: key, maxRetries: 0 });

test('PII & policy: a key override set in the UI masks PII and refuses a pattern; the drawer shows counts, not values', async ({
  page,
  app,
}) => {
  const { name, issued } = await overrideForNewKey(page, 'e2e-pii', 'forbidden-e2e');
  await saveScreenshot(page, 'gateway-guardrails-override');
  await page.getByTestId('save-guardrails').click();
  await expect(page.getByTestId('save-guardrails')).toBeHidden();

  try {
    const client = clientFor(app.gatewayUrl, issued.key);
    const reply = await client.chat.completions.create({
      model: 'demo/echo',
      messages: [{ role: 'user', content: `write to ${EMAIL}` }],
    });
    expect(reply.choices[0]?.message.content).toContain(EMAIL);
    await expect(
      client.chat.completions.create({ model: 'demo/echo', messages: [{ role: 'user', content: 'FORBIDDEN-E2E' }] }),
    ).rejects.toMatchObject({ status: 400 });

    await page.getByRole('link', { name: 'Live traffic' }).click();
    const rows = page.getByTestId('traffic-row').filter({ hasText: name });
    await expect(rows).toHaveCount(2);
    await rows.filter({ has: page.locator('.status-2xx') }).click();
    const drawer = page.getByTestId('traffic-drawer');
    await expect(drawer.getByTestId('pii-note')).toContainText('email ×1');
    await expect(drawer.getByTestId('policy-note')).toHaveText('passed');
    await expect(drawer).toContainText('[EMAIL_1]');
    await expect(drawer).not.toContainText(EMAIL);
    await saveScreenshot(page, 'gateway-traffic-drawer-pii');
    await page.keyboard.press('Escape');
    await rows.filter({ has: page.locator('.status-4xx') }).click();
    await expect(page.getByTestId('guardrails-blocked')).toContainText('blocked pattern "forbidden-e2e"');
  } finally {
    await clearOverrides();
  }
});

test('PII & policy: the save bar stays until both settings are saved, and the policy edits survive a slow save', async ({
  page,
  app,
}) => {
  // The PII settings are saved first and come back at once; the content policy's save is held.
  let releasePolicy: () => void = () => undefined;
  const policyHeld = new Promise<void>((resolve) => (releasePolicy = resolve));
  await page.route('**/internal/content-policy', async (route) => {
    if (route.request().method() === 'PUT') await policyHeld;
    await route.continue().catch(() => undefined);
  });
  const { issued, overrides } = await overrideForNewKey(page, 'e2e-slow-save', 'held-e2e');
  await page.getByTestId('save-guardrails').click();
  try {
    // With the PII settings saved and the policy still on its way, nothing says "saved" yet.
    await expect
      .poll(async () => ((await (await gatewayAdmin('/internal/pii')).json()) as any).keys?.[issued.id])
      .toBeTruthy();
    await expect(page.getByTestId('save-guardrails')).toBeVisible();
    await expect(overrides.getByLabel('Override 1 blocked patterns')).toHaveValue('held-e2e');
    releasePolicy();
    await expect(page.getByTestId('save-guardrails')).toBeHidden();
    // Once the bar is gone, the policy is in force.
    await expect(
      clientFor(app.gatewayUrl, issued.key).chat.completions.create({
        model: 'demo/echo',
        messages: [{ role: 'user', content: 'HELD-E2E' }],
      }),
    ).rejects.toMatchObject({ status: 400 });
  } finally {
    releasePolicy();
    await page.unroute('**/internal/content-policy');
    await clearOverrides();
  }
});
