import { expect, gatewayAdmin, openSignedIn, test } from './fixtures.js';

/**
 * When every key issued has been revoked, the Keys screen says so and offers Show revoked, rather than
 * "No keys yet" (which reads as if none had ever been issued, and hides where the revoked ones are).
 */
test('keys: with every key revoked, the screen says none is active and Show revoked lists them', async ({ page }) => {
  const name = `only-revoked-${Date.now()}`;
  const issued = await gatewayAdmin('/internal/api-keys', 'POST', { name });
  expect(issued.status).toBe(201);
  const { id } = (await issued.json()) as { id: string };
  expect((await gatewayAdmin(`/internal/api-keys/${id}`, 'DELETE')).status).toBeLessThan(300);
  // Other tests' keys are left out: this revoked key is the gateway's only one.
  await page.route('**/internal/api-keys**', async (route) => {
    if (route.request().method() !== 'GET') return route.fallback();
    const response = await route.fetch();
    const body = (await response.json()) as { data: { id: string }[] };
    body.data = body.data.filter((key) => key.id === id);
    return route.fulfill({ response, json: body });
  });
  await openSignedIn(page, 'gateway/keys');
  await expect(page.getByText('No active keys')).toBeVisible();
  await expect(page.getByText('No keys yet')).toBeHidden();
  await page.getByRole('button', { name: 'Show revoked' }).click();
  await expect(page).toHaveURL(/revoked=1/);
  await expect(page.getByTestId('keys-table')).toContainText(name);
});
