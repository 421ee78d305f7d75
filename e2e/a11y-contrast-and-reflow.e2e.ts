import type { Locator, Page } from '@playwright/test';
import { expect, gatewayAdmin, openSignedIn, test } from './fixtures.js';
import { apply, freshNamespace, screen } from './store-helpers.js';
import { expectReadable } from './contrast-helpers.js';

/** The few DOM members the in-page checks use: this file is type-checked without the DOM library. */
interface PageElement {
  className: string;
  textContent: string | null;
  readonly parentElement: PageElement | null;
  appendChild(child: PageElement): PageElement;
  remove(): void;
  querySelector(selector: string): PageElement | null;
  getBoundingClientRect(): { readonly left: number; readonly right: number; readonly width: number };
}
interface Styles {
  readonly color: string;
  readonly backgroundColor: string;
  readonly outlineStyle: string;
  readonly outlineWidth: string;
  readonly textDecorationLine: string;
  readonly boxShadow: string;
  readonly display: string;
}
interface PageGlobals {
  readonly document: { readonly body: PageElement; createElement(tag: string): PageElement };
  getComputedStyle(element: PageElement): Styles;
}

/**
 * Draws `html` in the page (inside a `.app` main area, so the app's styles apply as on a screen) and
 * checks the contrast of each `[data-check]` element against what it is drawn on.
 */
async function expectSampleReadable(page: Page, html: string): Promise<void> {
  await page.evaluate((markup: string) => {
    const { document } = globalThis as unknown as PageGlobals & { document: { body: { innerHTML: string } } };
    const holder = document.createElement('div') as PageElement & { innerHTML: string; id: string };
    holder.id = 'contrast-samples';
    holder.innerHTML = markup;
    document.body.appendChild(holder);
  }, html);
  const samples = page.locator('#contrast-samples [data-check]');
  for (const sample of await samples.all()) await expectReadable(sample, (await sample.getAttribute('data-check'))!);
}

test('dark theme: primary buttons and accent badges read at 4.5:1 or more', async ({ page }) => {
  const namespace = freshNamespace('a11y', 'dark');
  await apply(namespace, 'main', 'first', { 'a.txt': 'one' });
  await openSignedIn(page, screen('history', namespace), { theme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  const head = page.getByRole('listbox', { name: 'Revisions' }).locator('.badge-accent', { hasText: 'head' });
  await expect(head).toBeVisible();
  await expectReadable(head, 'the head badge');
  await page.goto(page.url().replace(/\/store\/history.*/, '/gateway/keys'));
  const issue = page.getByRole('button', { name: 'Issue key' });
  await expect(issue).toBeVisible();
  await expectReadable(issue, 'the Issue key button');
});

test('light theme: tinted badges, muted text on a selected row and the diff count read at 4.5:1 or more', async ({
  page,
}) => {
  expect((await gatewayAdmin('/internal/api-keys', 'POST', { name: `a11y-badge-${Date.now()}` })).status).toBe(201);
  await openSignedIn(page, 'gateway/keys', { theme: 'light' });
  const active = page.getByTestId('keys-table').locator('.badge-success').first();
  await expect(active).toBeVisible();
  await expectReadable(active, 'the Active badge');
  await expectSampleReadable(
    page,
    `<span class="badge" data-check="a neutral badge">neutral</span>
     <span class="badge badge-warning" data-check="a warning badge">Expired</span>
     <span class="badge badge-accent" data-check="an accent badge">head</span>
     <div class="segmented"><button class="segmented-item" data-check="an unselected option">Unified</button></div>
     <table class="data-table"><tbody><tr class="is-selected"><td>
       <span class="muted" data-check="muted text on a selected row">2 changes</span></td></tr></tbody></table>
     <div class="changes-diff-header"><span class="diff-stats-add" data-check="the diff's +N">+12</span></div>
     <div class="notice notice-warning" data-check="a warning notice">Held. <a href="#x">Open Checkpoints</a></div>`,
  );
  // A link in a notice is underlined, not told from its text by colour alone.
  const link = page.locator('#contrast-samples .notice a');
  expect(
    await link.evaluate(
      (a: PageElement) => (globalThis as unknown as PageGlobals).getComputedStyle(a).textDecorationLine,
    ),
  ).toBe('underline');
  await expectReadable(link, 'a link in a warning notice');
});

test('forced colours: a focused field and the current sidebar item keep an outline', async ({ page }) => {
  await page.emulateMedia({ forcedColors: 'active' });
  await openSignedIn(page, 'gateway/keys');
  const filter = page.getByLabel('Filter keys');
  await filter.focus();
  await expect(filter).toBeFocused();
  const outline = (element: Locator) =>
    element.evaluate((node: PageElement) => {
      const style = (globalThis as unknown as PageGlobals).getComputedStyle(node);
      return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) };
    });
  expect(await outline(filter)).toEqual({ style: 'solid', width: 2 });
  const current = page.getByRole('navigation', { name: 'Main' }).locator('[aria-current="page"]');
  await expect(current).toHaveText('Keys');
  expect(await outline(current)).toEqual({ style: 'solid', width: 2 });
});

test('focus shows on the Requests list and the highlighted table row carries the accent bar', async ({ page, app }) => {
  const issued = await gatewayAdmin('/internal/api-keys', 'POST', { name: `a11y-row-${Date.now()}` });
  expect(issued.status).toBe(201);
  const { key } = (await issued.json()) as { key: string };
  const response = await fetch(`${app.gatewayUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'demo/echo', messages: [{ role: 'user', content: 'focus ring check' }] }),
  });
  expect(response.status).toBe(200);
  await openSignedIn(page, 'gateway/keys');
  const table = page.getByTestId('keys-table');
  await expect(table).toBeFocused();
  await page.keyboard.press('j');
  const first = table.locator('tbody tr.is-selected td').first();
  await expect(first).toBeVisible();
  expect(
    await first.evaluate(
      (cell: PageElement) => (globalThis as unknown as PageGlobals).getComputedStyle(cell).boxShadow,
    ),
  ).toMatch(/inset/);
  await page.goto(page.url().replace(/\/gateway\/keys.*/, '/gateway/traffic'));
  const list = page.getByRole('listbox', { name: 'Requests' });
  await expect(list.getByRole('option').first()).toBeVisible();
  // Reached by the keyboard, with no request highlighted yet.
  await list.focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  await expect(list).toBeFocused();
  await expect(list.locator('[aria-selected="true"]')).toHaveCount(0);
  const ring = await list.evaluate((node: PageElement) => {
    const style = (globalThis as unknown as PageGlobals).getComputedStyle(node);
    return `${style.outlineStyle} ${style.outlineWidth}`;
  });
  expect(ring).toBe('solid 2px');
});

test('at 360 px the sidebar is a menu: closed at first, opened by Menu, closed by Esc', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await openSignedIn(page, '');
  const sidebar = page.getByRole('navigation', { name: 'Main' });
  const menu = page.getByRole('button', { name: 'Menu' });
  await expect(menu).toBeVisible();
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(menu).toHaveAttribute('aria-controls', 'sidebar');
  await expect(sidebar).toBeHidden();
  // The screen has the whole width.
  const main = await page.locator('main').evaluate((node: PageElement) => node.getBoundingClientRect().width);
  expect(main).toBeGreaterThanOrEqual(350);
  await menu.click();
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  await expect(sidebar).toBeVisible();
  await expect(sidebar.getByRole('link', { name: 'Overview' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(sidebar).toBeHidden();
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(menu).toBeFocused();
  // A link followed from the menu closes it on the screen it opened.
  await menu.click();
  await sidebar.getByRole('link', { name: 'Keys' }).click();
  await expect(page).toHaveURL(/\/gateway\/keys/);
  await expect(sidebar).toBeHidden();
});

test('a wide window keeps the sidebar and shows no Menu button', async ({ page }) => {
  await openSignedIn(page, '');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Menu' })).toBeHidden();
});

test('"Skip to content" is the first Tab stop, shown on focus, and moves focus to the screen', async ({ page }) => {
  await openSignedIn(page, '');
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.locator('main')).toBeFocused();
});
