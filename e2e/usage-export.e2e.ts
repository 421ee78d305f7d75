import { readFileSync } from 'node:fs';
import type { Download, Page } from '@playwright/test';
import { expect, gatewayAdmin, openSignedIn, test, type App } from './fixtures.js';

/** One chat through the gateway on a new key; `model` may be refused, which still leaves a usage row. */
async function chat(app: App, key: string, model: string): Promise<void> {
  const response = await fetch(`${app.gatewayUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'export me' }] }),
  });
  await response.arrayBuffer();
}

/** The file a click downloads, and its name. */
async function downloaded(page: Page, click: () => Promise<void>): Promise<{ name: string; text: string }> {
  const [download] = (await Promise.all([page.waitForEvent('download'), click()])) as [Download, void];
  return { name: download.suggestedFilename(), text: readFileSync((await download.path())!, 'utf8') };
}

test('usage: Download CSV saves every request of the range, fetched with the key in a header, never the address', async ({
  page,
  app,
}) => {
  const { key } = (await (
    await gatewayAdmin('/internal/api-keys', 'POST', { name: `export-${Date.now()}` })
  ).json()) as {
    key: string;
  };
  const hostile = `=HYPERLINK("http://x.example/${Date.now()}")`;
  await chat(app, key, 'demo/echo');
  await chat(app, key, hostile);

  await openSignedIn(page, 'gateway/usage?range=1h');
  const exported = page.waitForRequest((request) => request.url().includes('/internal/usage/logs'));
  const file = await downloaded(page, () => page.getByRole('button', { name: 'Download CSV' }).click());
  const request = await exported;
  expect(request.url()).not.toContain(app.masterKey);
  expect(request.url()).toContain('format=csv');
  expect(await request.headerValue('authorization')).toBe(`Bearer ${app.masterKey}`);

  expect(file.name).toMatch(/^usage-[\dT-]+Z-to-[\dT-]+Z\.csv$/);
  const [header, ...lines] = file.text.split('\r\n');
  expect(header).toMatch(/^id,request_id,created_at,key_id,/);
  // The refused model's name opens as text in a spreadsheet, not as a formula.
  expect(lines.some((line) => line.includes(`"'=HYPERLINK(""http://x.example/`))).toBe(true);
  await expect(page.getByRole('status').filter({ hasText: /^Downloaded [\d,]+ requests as CSV$/ })).toBeVisible();
});

test('usage: a cut export says on screen that older requests are not in the file', async ({ page, app }) => {
  const { key } = (await (await gatewayAdmin('/internal/api-keys', 'POST', { name: `cut-${Date.now()}` })).json()) as {
    key: string;
  };
  await chat(app, key, 'demo/echo');
  await page.route('**/internal/usage/logs?**', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(), 'x-gatehouse-export-next-cursor': '1' } });
  });
  await openSignedIn(page, 'gateway/usage?range=1h');
  await downloaded(page, () => page.getByRole('button', { name: 'Download CSV' }).click());
  await expect(page.getByRole('status').filter({ hasText: 'older ones in this range are not in it' })).toBeVisible();
});

test('usage: the totals table downloads as CSV, figures unformatted', async ({ page, app }) => {
  const { key } = (await (
    await gatewayAdmin('/internal/api-keys', 'POST', { name: `totals-${Date.now()}` })
  ).json()) as {
    key: string;
  };
  await chat(app, key, 'demo/echo');
  await openSignedIn(page, 'gateway/usage?range=1h');
  const file = await downloaded(page, () =>
    page.getByRole('button', { name: 'Download the per-model table as CSV' }).click(),
  );
  expect(file.name).toMatch(/^usage-per-model-[\dT-]+Z-to-[\dT-]+Z\.csv$/);
  const [header, ...lines] = file.text.split('\r\n');
  expect(header).toBe('Model,Requests,Tokens,Cost (USD),Errors,Cache hits,Saved by the cache (USD),Avg latency (ms)');
  expect(lines.find((line) => line.startsWith('demo/echo,'))).toMatch(
    /^demo\/echo,\d+,\d+,[\d.e-]+,\d+,\d+,[\d.e-]+,[\d.]*$/,
  );
});

test('usage: the Tokens card names the provider\'s prompt cache, not a bare "cached"', async ({ page }) => {
  await page.route('**/internal/usage?**', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { totals: Record<string, number> };
    Object.assign(body.totals, {
      prompt_tokens: 82_900,
      cache_read_prompt_tokens: 24_200,
      cache_write_prompt_tokens: 7_500,
      completion_tokens: 10_500,
      reasoning_tokens: 6_600,
    });
    await route.fulfill({ response, json: body });
  });
  await openSignedIn(page, 'gateway/usage');
  const tokens = page.getByTestId('usage-totals').locator('.stat').filter({ hasText: 'Tokens' });
  await expect(tokens.locator('.stat-detail')).toHaveText(
    "82.9K in (24.2K read from the provider's prompt cache, 7.5K written to it) · 10.5K out (6.6K reasoning)",
  );
});
