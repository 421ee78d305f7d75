import { expect, openSignedIn, test } from './fixtures.js';

// A filter typed on Live traffic is still there after a visit to another screen, by `g t` or the
// sidebar, as pausing is; clearing it is remembered too.
test('live traffic: the filter survives g k, g t and the sidebar link, and so does clearing it', async ({ page }) => {
  await openSignedIn(page, 'gateway/traffic');
  // Out of the fields, where g and t would be typed: shortcuts are read from the page.
  const blur = () =>
    page.evaluate(() =>
      (globalThis as unknown as { document: { activeElement: { blur(): void } } }).document.activeElement.blur(),
    );
  const filter = page.getByRole('textbox', { name: 'Filter requests', exact: true });
  await filter.fill('demo/echo');
  await page.getByRole('combobox', { name: 'Status', exact: true }).selectOption('failed');
  await expect(page).toHaveURL(/q=demo%2Fecho/);

  await blur();
  await page.keyboard.press('g');
  await page.keyboard.press('k');
  await expect(page).toHaveURL(/\/gateway\/keys/);
  await page.keyboard.press('g');
  await page.keyboard.press('t');
  await expect(page).toHaveURL(/\/gateway\/traffic\?.*q=demo%2Fecho/);
  await expect(page).toHaveURL(/status=failed/);
  await expect(filter).toHaveValue('demo/echo');

  await page.keyboard.press('g');
  await page.keyboard.press('k');
  const sidebarLink = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Live traffic' });
  await expect(sidebarLink).toHaveAttribute('href', /q=demo%2Fecho/);
  await sidebarLink.click();
  await expect(filter).toHaveValue('demo/echo');

  await filter.fill('');
  await page.getByRole('combobox', { name: 'Status', exact: true }).selectOption('all');
  await blur();
  await page.keyboard.press('g');
  await page.keyboard.press('k');
  await page.keyboard.press('g');
  await page.keyboard.press('t');
  await expect(page).toHaveURL(/\/gateway\/traffic$/);
  await expect(filter).toHaveValue('');
});
