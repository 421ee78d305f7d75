import type { Page } from '@playwright/test';
import { expect, gatewayAdmin, openSignedIn, test } from './fixtures.js';
import { apply, freshNamespace, screen } from './store-helpers.js';

/** The element that has focus, as `tag#id.class "text"`: read in the page, so a failure says where focus went. */
function focused(page: Page): Promise<string> {
  return page.evaluate(
    `(() => {
      const active = document.activeElement;
      if (!active || active === document.body) return 'body';
      return active.tagName.toLowerCase() + ' "' + (active.textContent ?? '').trim().slice(0, 40) + '"';
    })()`,
  );
}

test('a screen opened from the sidebar, a g shortcut or Back takes focus on its heading; the first one does not', async ({
  page,
}) => {
  await openSignedIn(page, '');
  const overview = page.getByRole('heading', { name: 'Overview', level: 1 });
  await expect(overview).toBeVisible();
  // The first screen leaves focus where the page starts (the skip link is the first Tab stop).
  expect(await focused(page)).toBe('body');

  const sidebar = page.getByRole('navigation', { name: 'Main' });
  await sidebar.getByRole('link', { name: 'Usage' }).click();
  const usage = page.getByRole('heading', { name: 'Usage', level: 1 });
  await expect(usage).toBeFocused();
  await expect(usage).toHaveAttribute('tabindex', '-1');

  // From the keyboard, the same: `g m` opens Models on its heading.
  await page.keyboard.press('g');
  await page.keyboard.press('m');
  await expect(page).toHaveURL(/\/gateway\/models/);
  await expect(page.getByRole('heading', { name: 'Models', level: 1 })).toBeFocused();

  // Back is a change of screen too.
  await page.goBack();
  await expect(page).toHaveURL(/\/gateway\/usage/);
  await expect(usage).toBeFocused();
});

test('a screen whose heading is not shown (Compare) takes focus on it too', async ({ page }) => {
  const namespace = freshNamespace('a11y-nav', 'compare');
  await apply(namespace, 'main', 'first', { 'a.txt': 'one' });
  await openSignedIn(page, screen('documents', namespace));
  await expect(page.getByRole('heading', { name: 'Documents', level: 1 })).toBeAttached();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Compare' }).click();
  await expect(page).toHaveURL(/\/store\/compare/);
  await expect(page.getByRole('heading', { name: 'Compare', level: 1 })).toBeFocused();
});

test('a change within the screen (its grouping, its filter) leaves focus where the user is', async ({ page }) => {
  await openSignedIn(page, '');
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Usage' }).click();
  await expect(page.getByRole('heading', { name: 'Usage', level: 1 })).toBeFocused();
  const perKey = page.getByRole('radio', { name: 'Per key' });
  await perKey.click();
  await expect(page).toHaveURL(/group=key/);
  await expect(perKey).toBeFocused();
  // Arrows move the grouping (and the address) with focus on the choice.
  await page.keyboard.press('ArrowRight');
  await expect(page).toHaveURL(/group=user/);
  await expect(page.getByRole('radio', { name: 'Per user' })).toBeFocused();

  expect((await gatewayAdmin('/internal/api-keys', 'POST', { name: `a11y-nav-${Date.now()}` })).status).toBe(201);
  await page.keyboard.press('g');
  await page.keyboard.press('k');
  await expect(page).toHaveURL(/\/gateway\/keys/);
  const filter = page.getByLabel('Filter keys');
  await filter.click();
  await filter.pressSequentially('a11y-nav');
  await expect(page).toHaveURL(/q=a11y-nav/);
  await expect(filter).toBeFocused();
});

test('a screen that starts on its list (Keys) still puts focus on the list once it is read', async ({ page }) => {
  expect((await gatewayAdmin('/internal/api-keys', 'POST', { name: `a11y-nav-list-${Date.now()}` })).status).toBe(201);
  // The key list is held, so the heading has focus first and the table takes it over when it arrives.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/internal/api-keys?**', async (route) => {
    await held;
    await route.fallback();
  });
  await page.route('**/internal/api-keys', async (route) => {
    await held;
    await route.fallback();
  });
  await openSignedIn(page, 'gateway/usage');
  await expect(page.getByRole('heading', { name: 'Usage', level: 1 })).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Keys' }).click();
  await expect(page.getByRole('heading', { name: 'API keys', level: 1 })).toBeFocused();
  release();
  await expect(page.getByTestId('keys-table')).toBeFocused();
  await page.keyboard.press('j');
  await expect(page.getByTestId('keys-table').locator('tbody tr.is-selected')).toHaveCount(1);
});
