import config from '../playwright.config.js';
import { expect, gatewayAdmin, openSignedIn, test } from './fixtures.js';

// Chrome keeps the last pages of a tab in its back/forward cache, as any user's browser does;
// Playwright turns that cache off unless told otherwise.
test.use({
  launchOptions: { ...config.use?.launchOptions, ignoreDefaultArgs: ['--disable-back-forward-cache'] },
});

/**
 * Addresses pasted one after another into the same tab each load at once: a page the cache keeps
 * must not hold its live connection to the gateway, or a few of them take every connection the
 * browser allows to one host and the next page waits for one. Back to a cached page connects again.
 */
test('pasted addresses in one tab keep loading while earlier pages are cached', async ({ page, app }) => {
  await page.addInitScript(() => {
    // Runs in the page; this file is type-checked without the DOM library.
    const page = globalThis as unknown as {
      addEventListener(type: 'pageshow', listener: (event: { persisted: boolean }) => void): void;
      restoredFromCache?: boolean;
    };
    page.addEventListener('pageshow', (event) => (page.restoredFromCache = event.persisted));
  });
  await openSignedIn(page, 'gateway/traffic');
  const live = page.getByText('Live', { exact: true });
  for (let visit = 1; visit <= 8; visit++) {
    // The live connection is open before the page is left.
    await expect(live).toBeVisible();
    await page.goto(new URL(`gateway/traffic?visit=${visit}`, app.uiUrl).toString(), { timeout: 8_000 });
  }

  await page.goBack({ waitUntil: 'commit' });
  await expect
    .poll(() => page.evaluate(() => (globalThis as { restoredFromCache?: boolean }).restoredFromCache))
    .toBe(true);
  const name = `cached-page-${Date.now()}`;
  const issued = (await (await gatewayAdmin('/internal/api-keys', 'POST', { name })).json()) as { key: string };
  const response = await fetch(`${app.gatewayUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${issued.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'demo/echo', messages: [{ role: 'user', content: 'after Back' }] }),
  });
  expect(response.status).toBe(200);
  await expect(page.getByRole('listbox', { name: 'Requests' }).getByText(name)).toBeVisible();
});
