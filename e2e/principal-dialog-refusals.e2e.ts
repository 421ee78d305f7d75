import { expect, gatewayAdmin, openSignedIn, test } from './fixtures.js';

/** Creates a team through the admin API. */
async function createTeam(id: string): Promise<void> {
  const response = await gatewayAdmin('/internal/teams', 'POST', { id });
  expect(response.status).toBe(201);
}

test('users & teams: the gateway’s refusal leaves the dialog once a field changes or the form’s own check refuses it', async ({
  page,
  consoleErrors,
}) => {
  const stamp = Date.now();
  const team = `refusal-team-${stamp}`;
  await createTeam(team);
  await openSignedIn(page, 'gateway/people');
  await expect(page.getByTestId('teams-table')).toContainText(team);

  // A user in a team that is deleted while the dialog is open: the gateway refuses the user.
  await page.getByTestId('new-user').click();
  const dialog = page.getByTestId('principal-dialog');
  const id = dialog.getByLabel('Id', { exact: true });
  await id.fill(`refusal-user-${stamp}`);
  await dialog.getByLabel('Team').selectOption(team);
  expect((await gatewayAdmin(`/internal/teams/${team}`, 'DELETE')).status).toBe(200);
  await dialog.getByTestId('confirm-principal').click();
  const refusal = dialog.getByRole('alert').filter({ hasText: 'Could not create the user' });
  await expect(refusal).toContainText(team);

  // Another id: the refusal spoke of the form as it was sent, so it goes.
  await id.fill(`refusal-other-${stamp}`);
  await expect(refusal).toBeHidden();

  // Sent again, refused again; then an id the form's own check refuses: only the field's problem shows.
  await dialog.getByTestId('confirm-principal').click();
  await expect(refusal).toBeVisible();
  await dialog.getByLabel('Display name').fill('Someone');
  await expect(refusal).toBeHidden();
  await dialog.getByTestId('confirm-principal').click();
  await expect(refusal).toBeVisible();
  await id.fill('not a valid id!');
  await expect(refusal).toBeHidden();
  await dialog.getByTestId('confirm-principal').click();
  await expect(dialog.locator('.field-error')).toContainText('letters and digits');
  await expect(refusal).toBeHidden();

  // The browser logs the refused creations; those refusals are what the test expected.
  consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((line) => !/ 400 /.test(line)));
});

test('users & teams: an id a listed team or user already has is refused as it is typed', async ({ page }) => {
  const stamp = Date.now();
  const team = `taken-team-${stamp}`;
  const user = `taken-user-${stamp}`;
  await createTeam(team);
  expect((await gatewayAdmin('/internal/users', 'POST', { id: user })).status).toBe(201);
  // Filtered to this test's two: the list shows a page at a time, and other tests' users may fill the first.
  await openSignedIn(page, `gateway/people?q=${stamp}`);
  await expect(page.getByTestId('users-table')).toContainText(user);

  const dialog = page.getByTestId('principal-dialog');
  const confirm = dialog.getByTestId('confirm-principal');
  for (const [kind, taken] of [
    ['team', team],
    ['user', user],
  ] as const) {
    await page.getByTestId(`new-${kind}`).click();
    const id = dialog.getByLabel('Id', { exact: true });
    await id.fill(taken);
    // Said on the field before anything is sent, and Create is disabled (Enter does nothing either).
    await expect(id).toHaveAttribute('aria-invalid', 'true');
    await expect(dialog.locator('.field-error')).toHaveText(
      `Id “${taken}” is taken: there is already a ${kind} of that id.`,
    );
    await expect(confirm).toBeDisabled();
    await id.press('Enter');
    await expect(dialog.getByRole('alert')).toHaveCount(0);
    // Spaces around it are trimmed before the gateway compares it, so it is the same id.
    await id.fill(` ${taken} `);
    await expect(id).toHaveAttribute('aria-invalid', 'true');
    await id.fill(`${taken}-2`);
    await expect(id).not.toHaveAttribute('aria-invalid', 'true');
    await expect(confirm).toBeEnabled();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  }
});
