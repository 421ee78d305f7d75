import OpenAI from 'openai';
import { expect, gatewayAdmin, openSignedIn, saveScreenshot, test } from './fixtures.js';

test('cache: turned on in the UI, a repeated request is a hit in the traffic drawer, then purged', async ({
  page,
  app,
}) => {
  const admin = (method: string, path: string, body?: unknown) => gatewayAdmin(path, method, body);
  try {
    await openSignedIn(page, 'gateway/cache');
    await expect(page.getByTestId('cache-stats')).toBeVisible();
    await page.getByTestId('cache-enabled').check();
    await page.getByLabel('Time to live (seconds)').fill('120');
    await page.getByTestId('save-cache').click();
    await expect(page.getByTestId('save-cache')).toBeHidden();
    const settings = (await (await admin('GET', '/internal/cache')).json()) as { settings: Record<string, unknown> };
    expect(settings.settings).toMatchObject({ enabled: true, ttl_seconds: 120 });

    const issued = (await (await admin('POST', '/internal/api-keys', { name: `cache-e2e-${Date.now()}` })).json()) as {
      key: string;
    };
    const client = new OpenAI({ baseURL: `${app.gatewayUrl}/v1`, apiKey: issued.key });
    const ask = () =>
      client.chat.completions.create({
        model: 'demo/echo',
        temperature: 0,
        messages: [{ role: 'user', content: 'cache from the browser test' }],
      });
    await ask();
    await ask();

    await page.getByRole('link', { name: 'Live traffic' }).click();
    await page.getByTestId('traffic-row').filter({ hasText: 'demo/echo' }).first().click();
    const drawer = page.getByTestId('traffic-drawer');
    await expect(drawer).toContainText('hit: answered from the cache');
    await saveScreenshot(page, 'gateway-cache-hit-drawer');
    await page.keyboard.press('Escape');

    await page.getByRole('link', { name: 'Cache' }).click();
    await expect(page.getByTestId('cache-stats')).toContainText('Answers kept');
    await saveScreenshot(page, 'gateway-cache');
    await page.getByTestId('purge-cache').click();
    // It asks first: Cancel leaves every answer kept.
    const confirm = page.getByRole('dialog', { name: 'Purge every kept answer?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    const kept = (await (await admin('GET', '/internal/cache')).json()) as { stats: { entries: number } };
    expect(kept.stats.entries).toBeGreaterThan(0);
    await page.getByTestId('purge-cache').click();
    await confirm.getByRole('button', { name: 'Purge everything' }).click();
    await expect(page.getByText(/Purged [1-9]\d* answers?/)).toBeVisible();
    const after = (await (await admin('GET', '/internal/cache')).json()) as { stats: { entries: number } };
    expect(after.stats.entries).toBe(0);
  } finally {
    await admin('PUT', '/internal/cache', { reset: true });
  }
});
