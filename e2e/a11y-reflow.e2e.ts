import type { Page } from '@playwright/test';
import { expect, openSignedIn, test } from './fixtures.js';
import { apply, freshNamespace, screen } from './store-helpers.js';

/** The few DOM members the in-page check uses: this file is type-checked without the DOM library. */
interface Box {
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
  readonly width: number;
}
interface PageElement {
  readonly parentElement: PageElement | null;
  readonly tagName: string;
  readonly textContent: string | null;
  getAttribute(name: string): string | null;
  getBoundingClientRect(): Box;
}
interface PageGlobals {
  readonly document: { readonly body: PageElement; querySelectorAll(selector: string): Iterable<PageElement> };
  getComputedStyle(element: PageElement): { readonly overflowX: string; readonly overflowY: string };
}

/**
 * The controls of `main` that cannot be seen by any scrolling: cut off by an ancestor that hides its
 * overflow. A control inside a scrolling box counts as reachable where that box itself is.
 */
function unreachableControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const { document, getComputedStyle } = globalThis as unknown as PageGlobals;
    const hides = (overflow: string): boolean => overflow === 'hidden' || overflow === 'clip';
    const scrolls = (overflow: string): boolean => overflow === 'auto' || overflow === 'scroll';
    const cut: string[] = [];
    for (const control of document.querySelectorAll('main button, main input, main select, main a[href]')) {
      let box = control.getBoundingClientRect();
      if (!box.width) continue;
      for (let parent = control.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
        const style = getComputedStyle(parent);
        const outer = parent.getBoundingClientRect();
        const outX = box.right > outer.right + 1 || box.left < outer.left - 1;
        const outY = box.bottom > outer.bottom + 1 || box.top < outer.top - 1;
        if ((outX && hides(style.overflowX)) || (outY && hides(style.overflowY))) {
          const name = control.getAttribute('aria-label') ?? control.textContent ?? control.tagName;
          cut.push(`${name.trim().slice(0, 40)} (right ${Math.round(box.right)}, cut by ${parent.tagName})`);
          break;
        }
        // Scrolled into view, the control is wherever this scrolling box is.
        if ((outX && scrolls(style.overflowX)) || (outY && scrolls(style.overflowY))) box = outer;
      }
    }
    return cut;
  });
}

// An 800-px window at 200 % zoom: 400 CSS px across (WCAG 1.4.10 Reflow).
test.use({ viewport: { width: 400, height: 400 }, deviceScaleFactor: 2 });

test('at 400 CSS px every control of History, Documents, Compare and Usage can be reached', async ({ page }) => {
  const namespace = freshNamespace('reflow', 'zoom');
  await apply(namespace, 'main', 'first', { 'flags.yaml': 'x: 1\n', 'notes.md': 'one\n' });
  await apply(namespace, 'main', 'second', { 'flags.yaml': 'x: 2\n' });
  const screens = [
    { path: screen('history', namespace), ready: page.getByRole('button', { name: /Checkpoint this revision/ }) },
    {
      path: screen('documents', namespace, 'main', '&key=notes.md'),
      ready: page.getByRole('button', { name: /Copy/ }),
    },
    { path: screen('compare', namespace, 'main', '&from=1&to=2'), ready: page.getByRole('radio', { name: 'Unified' }) },
    { path: 'gateway/usage', ready: page.getByRole('radio', { name: '30 days' }) },
  ];
  const cut: Record<string, string[]> = {};
  for (const { path, ready } of screens) {
    await openSignedIn(page, path);
    await expect(ready.first()).toBeAttached();
    cut[path.split('?')[0]!] = await unreachableControls(page);
  }
  expect(cut).toEqual({ 'store/history': [], 'store/documents': [], 'store/compare': [], 'gateway/usage': [] });
});
