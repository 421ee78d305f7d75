import { expect, gatewayAdmin, openSignedIn, test } from './fixtures.js';

/**
 * At a few hundred keys and users: the Keys table sorts from its headers (the sort kept in the address,
 * as the filter is), and Users & teams has a filter, counts and a page at a time.
 */

const DAY_MS = 86_400_000;

async function created(path: string, body: unknown): Promise<void> {
  const response = await gatewayAdmin(path, 'POST', body);
  expect(response.status, `POST ${path}`).toBe(201);
}

test('keys: the headers sort by name and expiry, with aria-sort, and the sort survives reload and Back', async ({
  page,
}) => {
  const tag = `sort${Date.now()}`;
  // Issued in an order that is neither by name nor by expiry.
  await created('/internal/api-keys', {
    name: `${tag}-b`,
    expires_at: new Date(Date.now() + 3 * DAY_MS).toISOString(),
  });
  await created('/internal/api-keys', { name: `${tag}-a` });
  await created('/internal/api-keys', { name: `${tag}-c`, expires_at: new Date(Date.now() + DAY_MS).toISOString() });
  await openSignedIn(page, `gateway/keys?q=${tag}`);
  const table = page.getByRole('grid', { name: 'API keys' });
  const rows = table.locator('tbody tr');
  await expect(rows).toHaveCount(3);
  const order = async (): Promise<string[]> =>
    (await rows.locator('.cell-strong').allInnerTexts()).map((name) => name.slice(tag.length + 1));
  const keyHeader = table.getByRole('columnheader', { name: 'Key' });
  const statusHeader = table.getByRole('columnheader', { name: /^Status/ });

  await keyHeader.getByRole('button', { name: 'Key' }).click();
  await expect(keyHeader).toHaveAttribute('aria-sort', 'ascending');
  await expect(page).toHaveURL(/[?&]sort=name(&|$)/);
  await expect.poll(order).toEqual(['a', 'b', 'c']);

  await keyHeader.getByRole('button', { name: 'Key' }).click();
  await expect(keyHeader).toHaveAttribute('aria-sort', 'descending');
  await expect.poll(order).toEqual(['c', 'b', 'a']);

  // Soonest to expire first; a key that never expires last.
  await statusHeader.getByRole('button', { name: 'Expires' }).click();
  await expect(statusHeader).toHaveAttribute('aria-sort', 'ascending');
  await expect(keyHeader).not.toHaveAttribute('aria-sort', /./);
  await expect(page).toHaveURL(/[?&]sort=expires(&|$)/);
  await expect.poll(order).toEqual(['c', 'b', 'a']);

  // Newest first: the last issued on top.
  await statusHeader.getByRole('button', { name: 'Created' }).click();
  await expect(statusHeader).toHaveAttribute('aria-sort', 'descending');
  await expect.poll(order).toEqual(['c', 'a', 'b']);

  await page.reload();
  await expect(statusHeader).toHaveAttribute('aria-sort', 'descending');
  await expect(statusHeader.getByRole('button', { name: 'Created' })).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(order).toEqual(['c', 'a', 'b']);

  await page.getByRole('link', { name: 'Users & teams' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Users & teams' })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/[?&]sort=-created(&|$)/);
  await expect(statusHeader).toHaveAttribute('aria-sort', 'descending');
  await expect(page.getByLabel('Filter keys')).toHaveValue(tag);
  await expect.poll(order).toEqual(['c', 'a', 'b']);
});

test('users & teams: the filter (/) narrows both lists with counts, stays in the address, and long lists come a page at a time', async ({
  page,
}) => {
  const tag = `pf${Date.now()}`;
  await created('/internal/teams', { id: `${tag}-team`, name: 'Filtered team' });
  await created('/internal/teams', { id: `${tag}-crew` });
  // More users than a page holds, so the list is read (and drawn) in parts.
  for (let start = 0; start < 105; start += 35)
    await Promise.all(
      Array.from({ length: 35 }, (_, index) =>
        created('/internal/users', { id: `${tag}-${String(start + index).padStart(3, '0')}` }),
      ),
    );
  await created('/internal/users', { id: `${tag}-named`, name: 'Named', team: `${tag}-team` });
  const other = `other-${Date.now()}`;
  await created('/internal/users', { id: other });

  try {
    await openSignedIn(page, 'gateway/people');
    const users = page.getByRole('grid', { name: 'Users' });
    const userCount = page.getByTestId('users-table-count');
    await expect(userCount).toHaveRole('status');
    await expect(userCount).toHaveText('100 users so far');
    await expect(users.locator('tbody tr')).toHaveCount(100);
    await page.getByRole('button', { name: 'Show more users' }).click();
    await expect(users.locator('tbody tr')).not.toHaveCount(100);
    await expect(userCount).toHaveText(/^\d{3} users( so far)?$/);

    await page.keyboard.press('/');
    await expect(page.getByLabel('Filter users and teams')).toBeFocused();
    await page.keyboard.type(`${tag}-named`);
    await expect(userCount).toHaveText(/^1 of \d+ users$/);
    await expect(users.locator('tbody tr')).toHaveCount(1);
    await expect(page).toHaveURL(new RegExp(`[?&]q=${tag}-named(&|$)`));
    // The filter looks at each user's team too, and at the teams' ids.
    await page.getByLabel('Filter users and teams').fill(`${tag}-team`);
    await expect(page.getByRole('grid', { name: 'Teams' }).locator('tbody tr')).toHaveCount(1);
    await expect(page.getByTestId('teams-table-count')).toHaveText(/^1 of \d+ teams$/);
    await expect(userCount).toHaveText(/^1 of \d+ users$/);

    // Every page is read for a filter: all 106 of the tag, though the first page holds 100 users.
    await page.getByLabel('Filter users and teams').fill(tag);
    await expect(userCount).toHaveText(/^106 of \d+ users$/);
    await expect(users.locator('tbody tr')).toHaveCount(106);
    await expect(page.getByRole('button', { name: 'Show more users' })).toHaveCount(0);

    await page.reload();
    await expect(page.getByLabel('Filter users and teams')).toHaveValue(tag);
    await expect(userCount).toHaveText(/^106 of \d+ users$/);
  } finally {
    // The app is shared by every test file: the next ones expect their users on the first page.
    const users = [
      ...Array.from({ length: 105 }, (_, index) => `${tag}-${String(index).padStart(3, '0')}`),
      `${tag}-named`,
      other,
    ];
    for (let start = 0; start < users.length; start += 35)
      await Promise.all(users.slice(start, start + 35).map((id) => gatewayAdmin(`/internal/users/${id}`, 'DELETE')));
    for (const team of [`${tag}-team`, `${tag}-crew`]) await gatewayAdmin(`/internal/teams/${team}`, 'DELETE');
  }
});
