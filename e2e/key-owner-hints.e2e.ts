import { expect, gatewayAdmin, openSignedIn, test } from './fixtures.js';

/**
 * Issuing a key creates the user and team it names, but changing a key only moves it to existing ones
 * (a typo must not take a key out from under its team's budgets): the dialogs say which, and offer the
 * users and teams that exist, so the refusal is not the first a user hears of it.
 */
test('keys: the edit dialog offers existing users and teams and says a change does not create them', async ({
  page,
}) => {
  const tag = `owners${Date.now()}`;
  const issued = await gatewayAdmin('/internal/api-keys', 'POST', { name: `${tag}-ci`, scopes: ['chat'] });
  expect(issued.status).toBe(201);
  expect((await gatewayAdmin('/internal/users', 'POST', { id: `${tag}-carol` })).status).toBe(201);
  expect((await gatewayAdmin('/internal/teams', 'POST', { id: `${tag}-infra` })).status).toBe(201);

  await openSignedIn(page, `gateway/keys?q=${tag}`);
  await page.getByRole('button', { name: `Edit ${tag}-ci`, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Edit “${tag}-ci”` });
  const user = dialog.getByLabel('User', { exact: true });
  const team = dialog.getByLabel('Team', { exact: true });
  await expect(user).toHaveAccessibleDescription(/An existing user: add new ones under Users & teams/);
  await expect(team).toHaveAccessibleDescription(/An existing team: add new ones under Users & teams/);
  // The known ones are suggested as the field is typed in.
  const userList = await user.getAttribute('list');
  const teamList = await team.getAttribute('list');
  await expect(page.locator(`datalist#${userList} option[value="${tag}-carol"]`)).toHaveCount(1);
  await expect(page.locator(`datalist#${teamList} option[value="${tag}-infra"]`)).toHaveCount(1);
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('button', { name: 'Issue key' }).first().click();
  const issue = page.getByRole('dialog', { name: 'Issue an API key' });
  await expect(issue.getByLabel('User', { exact: true })).toHaveAccessibleDescription(
    /Named for the first time: the user is created/,
  );
});
