import type { Page, Route } from '@playwright/test';
import { expect, openSignedIn, test } from './fixtures.js';

const isKeyList = (url: URL): boolean => url.pathname.endsWith('/internal/api-keys');

/** Drops the browser's own log lines for the failed answers a test sent on purpose. */
function forgetExpectedErrors(consoleErrors: string[], pattern: RegExp): void {
  const unexpected = consoleErrors.filter((error) => !pattern.test(error));
  consoleErrors.splice(0, consoleErrors.length, ...unexpected);
}

const keysFailure = (page: Page) => page.getByRole('alert').filter({ hasText: 'Could not load the keys' });

test('a read the server refused offers Retry, which shows the screen once the server has recovered', async ({
  page,
  consoleErrors,
}) => {
  let failing = true;
  await page.route(isKeyList, async (route) => {
    if (!failing || route.request().method() !== 'GET') return route.fallback();
    await route.fulfill({ status: 500, json: { error: { type: 'api_error', message: 'db locked' } } });
  });
  await openSignedIn(page, 'gateway/keys?q=slow-reads');
  await expect(keysFailure(page)).toContainText('db locked');

  failing = false;
  await keysFailure(page).getByRole('button', { name: 'Retry' }).click();
  await expect(keysFailure(page)).toBeHidden();
  // The filter typed before is still the one applied.
  await expect(page.getByLabel('Filter keys')).toHaveValue('slow-reads');
  forgetExpectedErrors(consoleErrors, /status of 500/);
});

test('a read that never answers ends after 30 s with an error saying so, and Retry asks again', async ({ page }) => {
  await page.clock.install();
  let holding = true;
  const held: Route[] = [];
  await page.route(isKeyList, async (route) => {
    if (!holding || route.request().method() !== 'GET') return route.fallback();
    held.push(route);
  });
  await openSignedIn(page, 'gateway/keys');
  await expect.poll(() => held.length).toBeGreaterThan(0);
  await expect(page.getByRole('main').getByRole('status').filter({ hasText: 'Loading' })).toBeVisible();

  // One attempt, given up after 30 s, and not asked again on its own: the error shows then.
  await page.clock.fastForward(31_000);
  await expect(keysFailure(page)).toContainText('The gateway did not answer GET /internal/api-keys within 30 s.');
  expect(held).toHaveLength(1);

  holding = false;
  await keysFailure(page).getByRole('button', { name: 'Retry' }).click();
  await expect(keysFailure(page)).toBeHidden();
  await expect(page.getByLabel('Filter keys')).toBeVisible();
});

test('a write is never given up on: a key issued after more than 30 s still shows its secret', async ({ page }) => {
  await page.clock.install();
  const name = `slow-write-${Date.now()}`;
  const held: Route[] = [];
  await page.route(isKeyList, async (route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    held.push(route);
  });
  await openSignedIn(page, `gateway/keys?q=${name}`);
  await page.getByTestId('issue-key').click();
  await page.getByTestId('issue-key-dialog').getByLabel('Name', { exact: true }).fill(name);
  await page.getByTestId('confirm-issue-key').click();
  await expect.poll(() => held.length).toBe(1);
  await page.clock.fastForward(120_000);
  for (const route of held.splice(0)) await route.fallback();
  await expect(page.getByRole('dialog', { name: `Key “${name}” issued` })).toBeVisible();
});
