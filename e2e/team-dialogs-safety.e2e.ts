import { expect, gatewayAdmin, openSignedIn, test } from './fixtures.js';

/**
 * Team changes that cannot be taken back ask for them knowingly: deleting a team names what goes for
 * good and is not offered while users or keys still belong to it, and a key's team typed anew (a typo
 * of an existing one, most likely) is created only once the user says so.
 */

async function created(path: string, body: object): Promise<void> {
  const answer = await gatewayAdmin(path, 'POST', body);
  expect(answer.status, await answer.text()).toBe(201);
}

async function teamIds(): Promise<string[]> {
  const teams = (await (await gatewayAdmin('/internal/teams')).json()) as { data: { id: string }[] };
  return teams.data.map((team) => team.id);
}

test('users & teams: deleting a team names what goes for good, and is disabled with the reason while it has users or keys', async ({
  page,
}) => {
  const tag = `del${Date.now()}`;
  await created('/internal/teams', { id: `${tag}-busy` });
  await created('/internal/users', { id: `${tag}-carol`, team: `${tag}-busy` });
  await created('/internal/api-keys', { name: `${tag}-nb`, scopes: ['chat'], team: `${tag}-busy` });
  await created('/internal/teams', { id: `${tag}-empty` });

  await openSignedIn(page, 'gateway/people');
  const dialog = page.getByTestId('delete-principal-dialog');
  await page.getByRole('button', { name: `Delete ${tag}-busy`, exact: true }).click();
  await expect(dialog.getByTestId('delete-principal-blocked')).toHaveText(
    'It cannot be deleted while 1 user and 1 active key belong to it: move or delete the users and revoke or move the keys first.',
  );
  await expect(dialog.getByTestId('confirm-delete-principal')).toBeDisabled();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect(await teamIds()).toContain(`${tag}-busy`);

  await page.getByRole('button', { name: `Delete ${tag}-empty`, exact: true }).click();
  await expect(dialog).toContainText(
    'these go for good: its cached answers and the responses its keys stored (store: true)',
  );
  await expect(dialog.getByTestId('delete-principal-blocked')).toHaveCount(0);
  await dialog.getByTestId('confirm-delete-principal').click();
  await expect(dialog).toHaveCount(0);
  expect(await teamIds()).not.toContain(`${tag}-empty`);
});

test('keys: a team typed anew in Issue key is created only once its box is checked; Edit cannot save a team that does not exist', async ({
  page,
}) => {
  const tag = `typo${Date.now()}`;
  await created('/internal/teams', { id: `${tag}-platform` });
  await openSignedIn(page, 'gateway/keys');
  await page.getByTestId('issue-key').click();
  const issue = page.getByTestId('issue-key-dialog');
  await issue.getByLabel('Name', { exact: true }).fill(`${tag}-exp`);
  const team = issue.getByLabel('Team', { exact: true });
  const confirm = issue.getByTestId('confirm-issue-key');
  const createTeam = issue.getByRole('checkbox', { name: `Create team “${tag}-platfrom” with no limits` });

  // A typo of an existing team: Did you mean…, and Issue key waits for an explicit yes.
  await team.fill(`${tag}-platfrom`);
  await expect(team).toHaveAccessibleDescription(/Did you mean/);
  await expect(confirm).toBeDisabled();
  await team.press('Enter');
  await expect(issue).toBeVisible();
  await createTeam.check();
  await expect(confirm).toBeEnabled();
  // The yes was for that name: another new name asks again; an existing one needs nothing.
  await team.fill(`${tag}-brand-new`);
  await expect(confirm).toBeDisabled();
  await team.fill(`${tag}-platform`);
  await expect(issue.getByTestId('confirm-new-team')).toHaveCount(0);
  await expect(confirm).toBeEnabled();
  await team.fill(`${tag}-platfrom`);
  await expect(createTeam).not.toBeChecked();
  await createTeam.check();
  await confirm.click();
  await page.getByTestId('close-secret').click();
  expect(await teamIds()).toContain(`${tag}-platfrom`);

  // Edit only moves a key to an existing team: Save is disabled while the field names none.
  await page.getByLabel('Filter keys').fill(`${tag}-exp`);
  await page.getByRole('button', { name: `Edit ${tag}-exp`, exact: true }).click();
  const edit = page.getByTestId('edit-key-dialog');
  const save = edit.getByTestId('confirm-edit-key');
  await edit.getByLabel('Team', { exact: true }).fill(`${tag}-dta`);
  await expect(edit.getByLabel('Team', { exact: true })).toHaveAccessibleDescription(/is not an existing team/);
  await expect(save).toBeDisabled();
  await edit.getByLabel('Team', { exact: true }).fill(`${tag}-platform`);
  await expect(save).toBeEnabled();
  await save.click();
  await expect(edit).toHaveCount(0);
  const keys = (await (await gatewayAdmin(`/internal/api-keys?name=${tag}-exp`)).json()) as {
    data: { name: string; team: string | null }[];
  };
  expect(keys.data.find((key) => key.name === `${tag}-exp`)?.team).toBe(`${tag}-platform`);
});
