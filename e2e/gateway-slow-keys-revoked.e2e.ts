import type { Route } from '@playwright/test';
import { expect, gatewayAdmin, openSignedIn, test } from './fixtures.js';

/**
 * With every key revoked, whether any was ever issued is known only from the list with the revoked
 * ones: until it answers the screen loads, rather than saying "No keys yet" for a moment.
 */
test('keys: with every key revoked and the revoked ones still being read, the screen loads rather than say none was issued', async ({
  page,
}) => {
  const name = `slow-revoked-${Date.now()}`;
  const issued = await gatewayAdmin('/internal/api-keys', 'POST', { name });
  const { id } = (await issued.json()) as { id: string };
  expect((await gatewayAdmin(`/internal/api-keys/${id}`, 'DELETE')).status).toBe(200);

  let release = (): void => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const heldReads: Route[] = [];
  // Other tests' keys are left out: this revoked key is the gateway's only one.
  await page.route('**/internal/api-keys**', async (route) => {
    if (route.request().method() !== 'GET') return route.fallback();
    if (new URL(route.request().url()).searchParams.get('include_revoked') === 'true') {
      heldReads.push(route);
      await released;
    }
    const response = await route.fetch();
    const body = (await response.json()) as { data: { id: string }[] };
    body.data = body.data.filter((key) => key.id === id);
    return route.fulfill({ response, json: body });
  });

  await openSignedIn(page, 'gateway/keys');
  await expect.poll(() => heldReads.length).toBeGreaterThan(0);
  await expect(page.getByRole('main').getByRole('status').filter({ hasText: 'Loading' })).toBeVisible();
  await expect(page.getByText('No keys yet')).toBeHidden();
  await expect(page.getByText('No active keys')).toBeHidden();

  release();
  await expect(page.getByText('No active keys')).toBeVisible();
  await expect(page.getByText('No keys yet')).toBeHidden();
});
