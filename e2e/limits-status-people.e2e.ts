import { expect, gatewayAdmin, openSignedIn, test } from './fixtures.js';

/**
 * Users & teams in a laptop's window: a user's team and a team's counts of users and keys stay in view
 * when their columns give way.
 */
for (const [width, height] of [
  [1280, 800],
  [1024, 700],
] as const) {
  test(`users & teams at ${width} × ${height}: a user's team and a team's counts are in view`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    const tag = `pstat${width}x${Date.now()}`;
    expect((await gatewayAdmin('/internal/teams', 'POST', { id: `${tag}-team`, usd_daily_budget: 5 })).status).toBe(
      201,
    );
    for (const user of ['a', 'b'])
      expect(
        (
          await gatewayAdmin('/internal/api-keys', 'POST', {
            name: `${tag}-${user}`,
            user: `${tag}-${user}`,
            team: `${tag}-team`,
            scopes: ['chat'],
          })
        ).status,
      ).toBe(201);

    await openSignedIn(page, 'gateway/people');
    const teamRow = page
      .getByTestId('teams-table')
      .getByRole('row')
      .filter({ hasText: `${tag}-team` });
    await teamRow.scrollIntoViewIfNeeded();
    // At these widths the Users and Keys columns give way: the counts are under the team's name.
    await expect(teamRow.getByTestId('team-counts-inline')).toHaveText('2 users · 2 keys');
    await expect(teamRow.getByTestId('team-counts-inline')).toBeInViewport();

    const userRow = page
      .getByTestId('users-table')
      .getByRole('row')
      .filter({ hasText: `${tag}-a` });
    await userRow.scrollIntoViewIfNeeded();
    const team = userRow.getByText(`${tag}-team`).filter({ visible: true }).first();
    await expect(team).toBeInViewport();
  });
}
