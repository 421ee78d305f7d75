import type { Locator } from '@playwright/test';
import { expect, gatewayAdmin, openSignedIn, test } from './fixtures.js';
import { apply, freshNamespace, screen } from './store-helpers.js';

/**
 * WCAG 2.5.3 Label in Name: a row's accessible name begins with the text the row shows, so a voice
 * control user who says what they see reaches it; what the row only hints at follows.
 */

const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A traffic row's text as it reads on screen: its columns in order, the status's flags after it. */
function visibleTrafficText(row: Locator): Promise<string> {
  return row.evaluate((element) =>
    [...element.children]
      .map((cell) =>
        cell.classList.contains('col-status')
          ? [...cell.children].map((piece) => piece.textContent!.trim()).join(' ')
          : cell.textContent!.trim(),
      )
      .join(', '),
  );
}

test('a traffic row is named first by the text it shows, column by column', async ({ page, app }) => {
  const name = `row-name-${Date.now()}`;
  const issued = await gatewayAdmin('/internal/api-keys', 'POST', { name });
  const { key } = (await issued.json()) as { key: string };
  const response = await fetch(`${app.gatewayUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'demo/echo', messages: [{ role: 'user', content: 'label in name' }] }),
  });
  await response.arrayBuffer();
  expect(response.status).toBe(200);

  await openSignedIn(page, `gateway/traffic?q=${name}`);
  const list = page.getByRole('listbox', { name: 'Requests' });
  const option = list.getByRole('option');
  await expect(option).toHaveCount(1);
  const row = option.getByTestId('traffic-row');
  // Every column is on screen at this width, so all of them are the row's visible text.
  for (const cell of await row.locator(':scope > span').all()) await expect(cell).toBeVisible();
  const visible = await visibleTrafficText(row);
  expect(visible).toMatch(new RegExp(`^\\d\\d:\\d\\d:\\d\\d, ${name}, /v1/chat/completions, demo/echo, `));

  await expect(option).toHaveAccessibleName(new RegExp(`^${escaped(visible)}, `));
  await expect(list.getByRole('option', { name: new RegExp(`^${escaped(visible)}`) })).toHaveCount(1);
  // What the columns leave out still follows.
  await expect(option).toHaveAccessibleName(/, method POST(, |$)/);
});

test('a changed document’s row is named first by its name as shown, then by its change', async ({ page }) => {
  const namespace = freshNamespace('row-names', 'changes');
  await apply(namespace, 'main', 'one', { 'config/app.json': '{}\n', 'old.txt': 'old\n' });
  const second = await apply(namespace, 'main', 'two', { 'config/app.json': '{"a": 1}\n', 'new.txt': 'new\n' });
  await openSignedIn(page, screen('history', namespace, 'main', `&rev=${second.revision}`));

  const changed = page.getByRole('listbox', { name: 'Changed documents' });
  await expect(changed.getByRole('option')).toHaveCount(2);
  for (const [document, change] of [
    ['config/app.json', 'modified'],
    ['new.txt', 'created'],
  ] as const) {
    const option = changed.getByRole('option', { name: new RegExp(`^${escaped(document)}`) });
    await expect(option).toHaveCount(1);
    const visible = (await option.locator('.change-row-key').textContent())!;
    expect(visible).toBe(document);
    await expect(option).toHaveAccessibleName(`${visible}, ${change}`);
  }
});
