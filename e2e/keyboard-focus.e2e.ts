import type { Locator, Page } from '@playwright/test';
import { expect, gatewayAdmin, openSignedIn, test } from './fixtures.js';
import { colours, contrast } from './contrast-helpers.js';
import { apply, freshNamespace, screen } from './store-helpers.js';

/**
 * Keyboard focus never falls to the page's body after an action removes, disables or replaces the
 * focused control: it stays, or goes on to the list the action changed, with a row highlighted there.
 */

/** Creates records through the admin API, failing the test on any refusal. */
async function create(path: string, bodies: readonly object[]): Promise<void> {
  for (const body of bodies) {
    const answer = await gatewayAdmin(path, 'POST', body);
    expect(answer.status, `${path} ${JSON.stringify(body)}: ${await answer.clone().text()}`).toBe(201);
  }
}

/** The grid's highlighted row, which its `aria-activedescendant` names (so a screen reader announces it). */
async function expectHighlighted(grid: Locator, text: string): Promise<void> {
  const row = grid.getByRole('row', { selected: true });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(text);
  await expect(grid).toHaveAttribute('aria-activedescendant', (await row.getAttribute('id'))!);
}

/** Presses Enter on a button reached by the keyboard, as a keyboard user does. */
async function pressButton(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name, exact: true }).focus();
  await page.keyboard.press('Enter');
}

test('users & teams: deleting a user or a team leaves focus on its grid, on the next row', async ({ page }) => {
  const prefix = `focusdel${Date.now()}`;
  await create(
    '/internal/teams',
    [1, 2, 3].map((n) => ({ id: `${prefix}-t${n}` })),
  );
  await create(
    '/internal/users',
    [1, 2, 3].map((n) => ({ id: `${prefix}-u${n}` })),
  );
  await openSignedIn(page, `gateway/people?q=${prefix}`);
  const users = page.getByRole('grid', { name: 'Users' });
  const teams = page.getByRole('grid', { name: 'Teams' });
  await expect(users.getByRole('row')).toHaveCount(4); // the header and three users

  await pressButton(page, `Delete ${prefix}-u2`);
  await pressButton(page, 'Delete user');
  await expect(page.getByText(`Deleted user ${prefix}-u2`)).toBeVisible();
  await expect(users.getByRole('row')).toHaveCount(3);
  await expect(users).toBeFocused();
  await expectHighlighted(users, `${prefix}-u3`);

  // The last row's neighbour is the one before it.
  await pressButton(page, `Delete ${prefix}-u3`);
  await pressButton(page, 'Delete user');
  await expect(users.getByRole('row')).toHaveCount(2);
  await expect(users).toBeFocused();
  await expectHighlighted(users, `${prefix}-u1`);

  await pressButton(page, `Delete ${prefix}-t1`);
  await pressButton(page, 'Delete team');
  await expect(teams.getByRole('row')).toHaveCount(3);
  await expect(teams).toBeFocused();
  await expectHighlighted(teams, `${prefix}-t2`);

  // The filter's only match gone, its table goes too: focus goes to the filter.
  await pressButton(page, `Delete ${prefix}-u1`);
  await pressButton(page, 'Delete user');
  await expect(users).toHaveCount(0);
  await expect(page.getByLabel('Filter users and teams')).toBeFocused();
});

test('users: Show more users moves focus to the first user it added', async ({ page }) => {
  test.setTimeout(90_000);
  const prefix = `focusmore${Date.now()}`;
  // More than a page (100), whatever other tests left.
  await create(
    '/internal/users',
    Array.from({ length: 101 }, (_, n) => ({ id: `${prefix}-${n}` })),
  );
  const listed = (await (await gatewayAdmin('/internal/users?limit=100')).json()) as {
    next_cursor: string | null;
  };
  const next = (await (await gatewayAdmin(`/internal/users?limit=100&after=${listed.next_cursor}`)).json()) as {
    data: Array<{ id: string }>;
  };
  try {
    await openSignedIn(page, 'gateway/people');
    await expect(page.getByTestId('users-table-count')).toContainText('so far');
    await pressButton(page, 'Show more users');
    const users = page.getByRole('grid', { name: 'Users' });
    await expect(users).toBeFocused();
    await expectHighlighted(users, next.data[0]!.id);
  } finally {
    // The other tests of this shared server find their users on the screen's first page.
    for (let n = 0; n < 101; n += 1) await gatewayAdmin(`/internal/users/${prefix}-${n}`, 'DELETE');
  }
});

/** Issues keys `<prefix>-a`, `-b` and `-c` and opens Keys on them alone, sorted by name: their grid. */
async function openThreeKeys(page: Page, prefix: string): Promise<Locator> {
  await create(
    '/internal/api-keys',
    ['a', 'b', 'c'].map((letter) => ({ name: `${prefix}-${letter}` })),
  );
  await openSignedIn(page, `gateway/keys?q=${prefix}-&sort=name`);
  const keys = page.getByRole('grid', { name: 'API keys' });
  await expect(keys.getByRole('row')).toHaveCount(4);
  return keys;
}

test('keys: revoking a key highlights its neighbour; Show more keys moves focus to the first key added', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const prefix = `focuskey${Date.now()}`;
  const keys = await openThreeKeys(page, prefix);
  await pressButton(page, `Revoke ${prefix}-b`);
  await pressButton(page, 'Revoke key');
  await expect(keys.getByRole('row')).toHaveCount(3);
  await expect(keys).toBeFocused();
  await expectHighlighted(keys, `${prefix}-c`);

  // 200 keys are drawn at a time.
  await create(
    '/internal/api-keys',
    Array.from({ length: 201 }, (_, n) => ({ name: `${prefix}-more-${String(n).padStart(3, '0')}` })),
  );
  await openSignedIn(page, `gateway/keys?q=${prefix}-more&sort=name`);
  await expect(keys.getByRole('row')).toHaveCount(201);
  await pressButton(page, 'Show more keys');
  await expect(keys).toBeFocused();
  await expectHighlighted(keys, `${prefix}-more-200`);
});

/** The names of the Tab stops from the focused grid on, until focus leaves it. */
async function tabStopsIn(page: Page, grid: Locator): Promise<string[]> {
  const stops: string[] = [];
  for (let stop = 0; stop < 40; stop++) {
    await page.keyboard.press('Tab');
    const focused = grid.locator(':focus');
    if ((await focused.count()) === 0) return stops;
    stops.push((await focused.getAttribute('aria-label')) ?? (await focused.textContent()) ?? '');
  }
  throw new Error(`Tab never left the grid: ${stops.join(', ')}`);
}

test('keys: a grid is one Tab stop; only the highlighted row’s buttons are in the Tab order', async ({ page }) => {
  const prefix = `focustab${Date.now()}`;
  const keys = await openThreeKeys(page, prefix);
  await expect(keys).toBeFocused();
  const headers = ['Key', 'Spend today', 'Created', 'Last used', 'Expires'];
  // No row highlighted: Tab goes through the headers' sorts, then past the rows.
  expect((await tabStopsIn(page, keys)).map((name) => name.replace(/ [▲▼]$/, ''))).toEqual(headers);

  await keys.focus();
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await expectHighlighted(keys, `${prefix}-b`);
  expect((await tabStopsIn(page, keys)).slice(headers.length)).toEqual([
    `Copy the id of ${prefix}-b`,
    `Edit ${prefix}-b`,
    `Edit limits of ${prefix}-b`,
    `Rotate the secret of ${prefix}-b`,
    `Revoke ${prefix}-b`,
  ]);
});

test('audit: Load older moves focus to the first event it added', async ({ page }) => {
  test.setTimeout(90_000);
  // More than a page (50) of events, whatever other tests left.
  await create(
    '/internal/teams',
    Array.from({ length: 51 }, (_, n) => ({ id: `focusaudit${Date.now()}-${n}` })),
  );
  const first = (await (await gatewayAdmin('/internal/audit?limit=50')).json()) as { next_cursor: number };
  const older = (await (await gatewayAdmin(`/internal/audit?limit=50&before=${first.next_cursor}`)).json()) as {
    data: Array<{ id: number }>;
  };
  await openSignedIn(page, 'gateway/audit');
  await pressButton(page, 'Load older');
  const events = page.getByRole('grid', { name: 'Audit events' });
  await expect(events).toBeFocused();
  await expect(events).toHaveAttribute('aria-activedescendant', new RegExp(`-row-${older.data[0]!.id}$`));
});

test('usage: Download CSV keeps focus while the file is made, and ignores presses meanwhile', async ({ page, app }) => {
  const { key } = (await (await gatewayAdmin('/internal/api-keys', 'POST', { name: `csv-${Date.now()}` })).json()) as {
    key: string;
  };
  const chat = await fetch(`${app.gatewayUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'demo/echo', messages: [{ role: 'user', content: 'focus' }] }),
  });
  await chat.arrayBuffer();
  // The file's request is held until the busy button was looked at.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let exports = 0;
  await page.route(
    (url) => url.pathname === '/internal/usage/logs',
    async (route) => {
      exports += 1;
      await released;
      await route.continue();
    },
  );
  await openSignedIn(page, 'gateway/usage?range=1h');
  const button = page.getByRole('button', { name: 'Download CSV', exact: true });
  await button.focus();
  await page.keyboard.press('Enter');
  await expect(button).toHaveAttribute('aria-busy', 'true');
  await expect(button).toBeFocused();
  await page.keyboard.press('Enter');
  const download = page.waitForEvent('download');
  release();
  await download;
  await expect(button).not.toHaveAttribute('aria-busy', 'true');
  await expect(button).toBeFocused();
  expect(exports).toBe(1);
});

test('history: Esc in the diff goes back to the changed documents, a second Esc to the log', async ({ page }) => {
  const namespace = freshNamespace('focus', 'diff-escape');
  await apply(namespace, 'main', 'first', { 'a.txt': 'one\ntwo\nthree\n', 'b.txt': 'b\n' });
  await apply(namespace, 'main', 'second', { 'a.txt': 'one\nTWO\nthree\n', 'b.txt': 'B\n' });
  await openSignedIn(page, screen('history', namespace));
  const log = page.getByRole('listbox', { name: 'Revisions' });
  const changed = page.getByRole('listbox', { name: 'Changed documents' });
  await expect(log).toBeFocused();
  await page.keyboard.press('j');
  await page.keyboard.press('k');
  await page.keyboard.press('Enter');
  await expect(changed).toBeFocused();
  await page.keyboard.press(']');
  const diff = page.getByRole('table', { name: 'Diff of a.txt' });
  await expect(diff.locator(':focus')).toHaveCount(1);

  await page.keyboard.press('Escape');
  await expect(changed).toBeFocused();
  await page.keyboard.press('j');
  await expect(changed.getByRole('option', { selected: true })).toHaveAccessibleName('b.txt, modified');
  await page.keyboard.press('Escape');
  await expect(log).toBeFocused();
});

/** The computed style members the field check reads (the e2e files are type-checked without the DOM library). */
interface StyledGlobals {
  getComputedStyle(element: unknown): {
    readonly outlineStyle: string;
    readonly outlineWidth: string;
    readonly outlineColor: string;
    readonly borderTopColor: string;
  };
}

for (const theme of ['light', 'dark'] as const)
  test(`fields (${theme}): a 2 px solid focus ring as buttons have, and a border at 3:1 against the page`, async ({
    page,
  }) => {
    // The filter shows once there is a key.
    await create('/internal/api-keys', [{ name: `field-${theme}-${Date.now()}` }]);
    await openSignedIn(page, 'gateway/keys', { theme });
    const field = page.getByLabel('Filter keys');
    const style = () =>
      field.evaluate((element) => {
        const { outlineStyle, outlineWidth, outlineColor, borderTopColor } = (
          globalThis as unknown as StyledGlobals
        ).getComputedStyle(element);
        return { outlineStyle, outlineWidth, outlineColor, borderTopColor };
      });
    const { background } = await colours(field.locator('..'));
    expect(contrast((await style()).borderTopColor, background)).toBeGreaterThanOrEqual(3);
    await field.focus();
    const focused = await style();
    expect(focused).toMatchObject({ outlineStyle: 'solid', outlineWidth: '2px' });
    expect(contrast(focused.outlineColor, background)).toBeGreaterThanOrEqual(3);
  });
