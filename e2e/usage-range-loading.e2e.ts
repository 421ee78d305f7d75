import { expect, openSignedIn, test } from './fixtures.js';

/**
 * A range with the same buckets as the one on screen (24 hours and 7 days are both hourly) is other
 * data: while it loads, the screen says so rather than show the old range's numbers under the new
 * range's name.
 */
test('usage: while 7 days loads, the 24 hours on screen are not shown as if they were 7 days', async ({ page }) => {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  // Each window answers with a request count of its own, to tell them apart on screen.
  await page.route('**/internal/usage?**', async (route) => {
    const since = Date.parse(new URL(route.request().url()).searchParams.get('since') ?? '');
    const week = Date.now() - since > 2 * 86_400_000;
    if (week) await held;
    const response = await route.fetch();
    const body = (await response.json()) as { totals: { requests: number } };
    body.totals.requests = week ? 7777 : 2424;
    await route.fulfill({ response, json: body });
  });
  await openSignedIn(page, 'gateway/usage?range=24h');
  const totals = page.getByTestId('usage-totals');
  await expect(totals).toContainText('2,424');

  await page.getByRole('radio', { name: '7 days' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Loading' })).toBeVisible();
  await expect(totals).toBeHidden();
  release();
  await expect(totals).toContainText('7,777');
});
