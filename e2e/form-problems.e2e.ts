import type { Locator, Page } from '@playwright/test';
import { apply, freshNamespace, screen } from './store-helpers.js';
import { expect, gatewayAdmin, openSignedIn, test } from './fixtures.js';

/** The DOM members the in-page checks use: this file is type-checked without the DOM library. */
interface PageElement {
  getAttribute(name: string): string | null;
}
interface PageGlobals {
  readonly document: { getElementById(id: string): { readonly textContent: string | null } | null };
}

/** The texts a control's `aria-describedby` points at, joined. */
async function description(control: Locator): Promise<string> {
  return control.evaluate((element: PageElement) => {
    const { document } = globalThis as unknown as PageGlobals;
    return (element.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' | ');
  });
}

/** Issues a key through the admin API; its id. */
async function issueKey(body: Record<string, unknown>): Promise<string> {
  const response = await gatewayAdmin('/internal/api-keys', 'POST', body);
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** Whether a key with this name exists (the UI must not have sent a refused form). */
async function keyNamed(name: string): Promise<boolean> {
  const response = await gatewayAdmin('/internal/api-keys');
  const { data } = (await response.json()) as { data: { name: string | null }[] };
  return data.some((key) => key.name === name);
}

const focused = (page: Page): Locator => page.locator(':focus');

test('the issue-key dialog names each field in its message, checks the user as the gateway does, and focuses the first problem', async ({
  page,
}) => {
  const name = `forms-issue-${Date.now()}`;
  await openSignedIn(page, 'gateway/keys');
  await page.getByTestId('issue-key').click();
  const dialog = page.getByTestId('issue-key-dialog');
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  const user = dialog.getByLabel('User', { exact: true });
  const rpm = dialog.getByLabel('Requests per minute', { exact: true });
  await user.fill('not a user!');
  await rpm.fill('lots');
  // Submitted from the last field with Enter, as a keyboard user would.
  await dialog.getByLabel('Team token budget per day', { exact: true }).press('Enter');

  await expect(user).toHaveAttribute('aria-invalid', 'true');
  expect(await description(user)).toContain('User must be letters and digits (of any script) and . _ @ + - only');
  await expect(rpm).toHaveAttribute('aria-invalid', 'true');
  expect(await description(rpm)).toContain('Requests per minute must be a whole number above 0, or empty');
  // Focus goes to the first field with a problem, in the order of the form.
  await expect(user).toBeFocused();
  expect(await keyNamed(name)).toBe(false);

  // With the user fixed, the next submit lands on the limit that is still wrong.
  await user.fill('forms.user@example.com');
  await dialog.getByTestId('confirm-issue-key').click();
  await expect(rpm).toBeFocused();
  await rpm.fill('5');
  await dialog.getByTestId('confirm-issue-key').click();
  await expect(dialog).toBeHidden();
  await expect.poll(() => keyNamed(name)).toBe(true);
  await page.keyboard.press('Escape');
});

test('a scope group with no choice is marked invalid and takes the focus', async ({ page }) => {
  await openSignedIn(page, 'gateway/keys');
  await page.getByTestId('issue-key').click();
  const dialog = page.getByTestId('issue-key-dialog');
  await dialog.getByLabel('Name', { exact: true }).fill(`forms-scope-${Date.now()}`);
  const chat = dialog.getByRole('checkbox', { name: 'chat' });
  await chat.uncheck();
  await dialog.getByTestId('confirm-issue-key').click();
  await expect(chat).toHaveAttribute('aria-invalid', 'true');
  expect(await description(chat)).toContain('Pick at least one scope');
  await expect(chat).toBeFocused();
  // A RAG collection is a scope too: typing one answers the message, which must not stay behind.
  await dialog.getByLabel('RAG collections').fill('handbook');
  await expect(chat).not.toHaveAttribute('aria-invalid', 'true');
  expect(await description(chat)).not.toContain('Pick at least one scope');
  await page.keyboard.press('Escape');
});

test('the edit-limits dialog names the field and focuses the first problem', async ({ page }) => {
  const name = `forms-edit-${Date.now()}`;
  await issueKey({ name });
  await openSignedIn(page, 'gateway/keys');
  const row = page.getByTestId('keys-table').getByRole('row').filter({ hasText: name });
  await row.getByRole('button', { name: 'Edit limits' }).click();
  const dialog = page.getByTestId('edit-key-limits-dialog');
  const tpm = dialog.getByLabel('Tokens per minute', { exact: true });
  const teamDay = dialog.getByLabel('Team token budget per day', { exact: true });
  await teamDay.fill('1.5');
  await tpm.fill('0');
  await dialog.getByLabel('Requests per minute', { exact: true }).focus();
  await page.keyboard.press('Enter');
  expect(await description(tpm)).toContain('Tokens per minute must be a whole number above 0, or empty');
  expect(await description(teamDay)).toContain('Team token budget per day must be a whole number above 0, or empty');
  await expect(tpm).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('a user or team dialog focuses its first problem too (the shared form dialog does it)', async ({ page }) => {
  await openSignedIn(page, 'gateway/people');
  await page.getByTestId('new-team').click();
  const dialog = page.getByTestId('principal-dialog');
  await dialog.getByLabel('Token budget per day', { exact: true }).fill('many');
  await dialog.getByTestId('confirm-principal').click();
  const id = dialog.getByLabel('Id', { exact: true });
  const budget = dialog.getByLabel('Token budget per day', { exact: true });
  // Every problem shows at once, and the first in the form's order takes the focus.
  await expect(id).toHaveAttribute('aria-invalid', 'true');
  await expect(budget).toHaveAttribute('aria-invalid', 'true');
  await expect(id).toBeFocused();
  await id.fill(`forms-team-${Date.now()}`);
  await dialog.getByTestId('confirm-principal').click();
  await expect(budget).toHaveAttribute('aria-invalid', 'true');
  await expect(budget).toBeFocused();
  await page.keyboard.press('Escape');
});

test('segmented choices follow the radio group pattern: one tab stop, arrows move the choice', async ({ page }) => {
  await openSignedIn(page, 'gateway/usage');
  const group = page.getByRole('radiogroup', { name: 'Group by' });
  const radio = (label: string): Locator => group.getByRole('radio', { name: label });
  await expect(radio('Per model')).toBeChecked();
  // Only the checked option is in the tab order.
  await expect(radio('Per model')).toHaveAttribute('tabindex', '0');
  for (const other of ['Per key', 'Per user', 'Per team', 'Per deployment', 'Per provider'])
    await expect(radio(other)).toHaveAttribute('tabindex', '-1');

  await radio('Per model').focus();
  await page.keyboard.press('ArrowRight');
  await expect(radio('Per key')).toBeChecked();
  await expect(radio('Per key')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(radio('Per user')).toBeChecked();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowUp');
  await expect(radio('Per model')).toBeChecked();
  // Wraps both ways.
  await page.keyboard.press('ArrowLeft');
  await expect(radio('Per provider')).toBeChecked();
  await expect(radio('Per provider')).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(radio('Per model')).toBeChecked();
  await page.keyboard.press('End');
  await expect(radio('Per provider')).toBeChecked();
  await page.keyboard.press('Home');
  await expect(radio('Per model')).toBeChecked();

  // Tab leaves the group for the next one, landing on its checked option; Shift+Tab comes back to the choice.
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Tab');
  const range = page.getByRole('radiogroup', { name: 'Range' });
  await expect(focused(page)).toHaveCount(1);
  expect(await focused(page).getAttribute('aria-checked')).toBe('true');
  await expect(range.locator(':focus')).toHaveCount(1);
  await page.keyboard.press('Shift+Tab');
  await expect(radio('Per key')).toBeFocused();
});

test('the spend panel’s choices work from the keyboard, and the panel follows them', async ({ page }) => {
  // The teams list arrives only after the user is in the spend panel: its late rows must not take focus.
  const team = await gatewayAdmin('/internal/teams', 'POST', { id: `forms-focus-${Date.now()}` });
  expect(team.status).toBe(201);
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/internal/teams*', async (route) => {
    await held;
    await route.continue();
  });
  await openSignedIn(page, 'gateway/people');
  const measure = page.getByRole('radiogroup', { name: 'Measure' });
  await measure.getByRole('radio', { checked: true }).focus();
  release();
  await expect(page.getByTestId('teams-table')).toBeVisible();
  await expect(measure.getByRole('radio', { checked: true })).toBeFocused();
  await page.keyboard.press('End');
  await expect(measure.getByRole('radio', { name: 'Requests' })).toBeChecked();
  await expect(page.getByTestId('spend-panel').getByRole('heading')).toContainText('Requests per day');

  // Both choices are in the address, as Usage's are: a reload keeps them.
  await page.getByRole('radiogroup', { name: 'Spend of' }).getByRole('radio', { name: 'Per team' }).click();
  await expect(page).toHaveURL(/[?&]spend=team/);
  await expect(page).toHaveURL(/[?&]measure=requests/);
  await page.reload();
  await expect(
    page.getByRole('radiogroup', { name: 'Spend of' }).getByRole('radio', { name: 'Per team' }),
  ).toBeChecked();
  await expect(page.getByTestId('spend-panel').getByRole('heading')).toContainText('Requests per day');
});

test('a compare source’s kind is chosen with the arrows, and the screen follows', async ({ page }) => {
  const namespace = freshNamespace('forms', 'compare-keys');
  await apply(namespace, 'main', 'one', { 'a.txt': '1\n' });
  await openSignedIn(page, screen('compare', namespace));
  const kinds = page.getByRole('radiogroup', { name: 'From: kind' });
  await kinds.getByRole('radio', { checked: true }).focus();
  await expect(kinds.getByRole('radio', { name: 'Branch' })).toBeChecked();
  await page.keyboard.press('ArrowRight');
  await expect(kinds.getByRole('radio', { name: 'Revision' })).toBeChecked();
  await expect(kinds.getByRole('radio', { name: 'Revision' })).toBeFocused();
  await expect(page.getByTestId('from-source').getByRole('textbox', { name: 'Revision id' })).toBeVisible();
  await page.keyboard.press('ArrowLeft');
  await expect(kinds.getByRole('radio', { name: 'Branch' })).toBeChecked();
  await expect(page.getByTestId('from-source').getByRole('textbox', { name: 'Revision id' })).toBeHidden();
});

test('keys, users and teams and the meters name each limit with the same words', async ({ page }) => {
  const stamp = Date.now();
  const team = `forms-team-${stamp}`;
  const created = await gatewayAdmin('/internal/teams', 'POST', { id: team, tpd_budget: 50_000, rpm_limit: 100 });
  expect(created.status).toBe(201);
  const keyName = `forms-words-${stamp}`;
  await issueKey({ name: keyName, team, rpm_limit: 10, team_tpm_budget: 2000 });

  await openSignedIn(page, 'gateway/keys');
  const row = page.getByTestId('keys-table').getByRole('row').filter({ hasText: keyName });
  await expect(row.getByRole('meter', { name: 'key requests per minute' })).toBeVisible();
  await expect(row.getByRole('meter', { name: `team ${team} requests per minute` })).toBeVisible();
  await expect(row.getByRole('meter', { name: `team ${team} token budget per day` })).toBeVisible();
  await expect(row.getByRole('meter', { name: `team ${team} token budget per minute` })).toBeVisible();

  await page.getByTestId('issue-key').click();
  const issue = page.getByTestId('issue-key-dialog');
  for (const label of [
    'Requests per minute',
    'Tokens per minute',
    'User token budget per minute',
    'User token budget per day',
    'Team token budget per minute',
    'Team token budget per day',
  ])
    await expect(issue.getByLabel(label, { exact: true })).toBeVisible();
  await page.keyboard.press('Escape');

  await row.getByRole('button', { name: 'Edit limits' }).click();
  const edit = page.getByTestId('edit-key-limits-dialog');
  for (const label of ['Requests per minute', 'Tokens per minute', 'Team token budget per day'])
    await expect(edit.getByLabel(label, { exact: true })).toBeVisible();
  await page.keyboard.press('Escape');

  await openSignedIn(page, 'gateway/people');
  const teamRow = page.getByTestId('teams-table').getByRole('row').filter({ hasText: team });
  await expect(teamRow.getByRole('meter', { name: 'token budget per day' })).toBeVisible();
  await expect(teamRow.getByRole('meter', { name: 'requests per minute' })).toBeVisible();
  await page.getByTestId('new-user').click();
  const principal = page.getByTestId('principal-dialog');
  for (const label of [
    'Requests per minute',
    'Tokens per minute',
    'Token budget per minute',
    'Token budget per day',
    'Spend budget per day (USD)',
  ])
    await expect(principal.getByLabel(label, { exact: true })).toBeVisible();
  await page.keyboard.press('Escape');
});
