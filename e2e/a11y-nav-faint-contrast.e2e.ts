import { expectReadable } from './contrast-helpers.js';
import { expect, openSignedIn, test } from './fixtures.js';

/**
 * The backgrounds faint text is drawn on: badges (`--bg-active`), surfaces, hover and selected rows,
 * and the diff's line numbers. Each sample is faint text on one of them, drawn with the app's styles; the
 * colours are set through the style object, as the page's content security policy allows no style attribute.
 */
const BACKGROUNDS = [
  '--bg',
  '--bg-subtle',
  '--bg-sidebar',
  '--bg-hover',
  '--bg-active',
  '--bg-selected',
  '--bg-code',
  '--accent-soft',
  '--diff-add-ln',
  '--diff-del-ln',
  '--diff-empty',
];

for (const theme of ['light', 'dark'] as const)
  test(`${theme} theme: faint text reads at 4.5:1 or more on badges, surfaces and hover rows`, async ({ page }) => {
    await openSignedIn(page, 'gateway/keys', { theme });
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    await expect(page.getByRole('heading', { name: 'API keys', level: 1 })).toBeVisible();
    await page.evaluate(`(() => {
    const holder = document.createElement('div');
    holder.id = 'faint-samples';
    const badge = document.createElement('span');
    badge.className = 'badge';
    const inBadge = document.createElement('span');
    inBadge.dataset.check = 'faint text on a neutral badge';
    inBadge.textContent = 'Expired';
    inBadge.style.color = 'var(--text-faint)';
    badge.appendChild(inBadge);
    holder.appendChild(badge);
    for (const name of ${JSON.stringify(BACKGROUNDS)}) {
      const sample = document.createElement('div');
      sample.dataset.check = 'faint text on ' + name;
      sample.textContent = '12';
      sample.style.color = 'var(--text-faint)';
      sample.style.backgroundColor = 'var(' + name + ')';
      holder.appendChild(sample);
    }
    const row = document.createElement('table');
    row.className = 'data-table';
    row.innerHTML = '<tbody><tr class="is-selected"><td class="diff-ln">7</td></tr></tbody>';
    row.querySelector('td').dataset.check = 'a line number on a selected row';
    holder.appendChild(row);
    document.querySelector('main').appendChild(holder);
  })()`);
    const samples = page.locator('#faint-samples [data-check]');
    expect(await samples.count()).toBe(BACKGROUNDS.length + 2);
    for (const sample of await samples.all()) await expectReadable(sample, (await sample.getAttribute('data-check'))!);
    // Faint text as the app draws it: the sidebar's section names.
    await expectReadable(page.locator('.nav-section').first(), 'a sidebar section name');
  });
