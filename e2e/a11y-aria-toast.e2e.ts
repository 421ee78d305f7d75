import { expect, gatewayAdmin, openSignedIn, test } from './fixtures.js';

/** A toast outlives its 5 s while the pointer is over it (WCAG 2.2.1), and goes once the pointer leaves. */
test('a toast stays while hovered, and goes after the pointer leaves', async ({ page }) => {
  test.setTimeout(60_000);
  const name = `a11y-toast-${Date.now()}`;
  const issued = await gatewayAdmin('/internal/api-keys', 'POST', { name });
  expect(issued.status).toBe(201);
  await openSignedIn(page, `gateway/keys?q=${name}`);
  await page.getByRole('button', { name: `Revoke ${name}`, exact: true }).click();
  await page.getByTestId('confirm-revoke').click();
  const toast = page.getByRole('status').filter({ hasText: `Revoked ${name}` });
  await expect(toast).toBeVisible();
  await toast.hover();
  await page.waitForTimeout(7000);
  await expect(toast).toBeVisible();
  await page.mouse.move(0, 0);
  await expect(toast).toHaveCount(0, { timeout: 7000 });
});
