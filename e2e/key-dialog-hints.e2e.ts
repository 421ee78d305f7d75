import { KNOWN_PROVIDERS } from '../src/server/gateway/providers/provider-settings.js';
import { expect, gatewayAdmin, openSignedIn, test } from './fixtures.js';

/**
 * The key and deployment dialogs say what a value will do as it is typed or chosen: a new team that
 * issuing creates (and the existing one it probably meant), a key's cap on its share of its team's budget,
 * and only providers and Responses API modes the gateway takes.
 */

test('keys: a team name typed in Issue key says it is new and offers the existing one it looks like', async ({
  page,
}) => {
  const tag = `typo${Date.now()}`;
  expect((await gatewayAdmin('/internal/teams', 'POST', { id: `${tag}-platform` })).status).toBe(201);
  await openSignedIn(page, 'gateway/keys');
  await page.getByTestId('issue-key').click();
  const issue = page.getByRole('dialog', { name: 'Issue an API key' });
  const team = issue.getByLabel('Team', { exact: true });
  await team.fill(`${tag}-platfrom`);
  await expect(team).toHaveAccessibleDescription(
    `${tag}-platfrom is a new team: it will be created with no limits. Did you mean ${tag}-platform?`,
  );
  await team.fill(`${tag}-platform`);
  await expect(team).toHaveAccessibleDescription(`${tag}-platform is an existing team.`);
  await issue.getByRole('button', { name: 'Cancel' }).click();

  // Editing a key words the same field alike, with its own rule: no team is created there.
  const issued = await gatewayAdmin('/internal/api-keys', 'POST', { name: `${tag}-ci`, scopes: ['chat'] });
  expect(issued.status).toBe(201);
  await page.getByLabel('Filter keys').fill(`${tag}-ci`);
  await page.getByRole('button', { name: `Edit ${tag}-ci`, exact: true }).click();
  const edit = page.getByRole('dialog', { name: `Edit “${tag}-ci”` });
  await edit.getByLabel('Team', { exact: true }).fill(`${tag}-platfrom`);
  await expect(edit.getByLabel('Team', { exact: true })).toHaveAccessibleDescription(
    `${tag}-platfrom is not an existing team: a key moves only to an existing one (add new ones under Users & teams). Did you mean ${tag}-platform?`,
  );
});

test('keys: the user and team budget fields of a key say they cap its share, the tighter applying', async ({
  page,
}) => {
  await openSignedIn(page, 'gateway/keys');
  await page.getByTestId('issue-key').click();
  const issue = page.getByRole('dialog', { name: 'Issue an API key' });
  await expect(
    issue.getByText("This key's cap on its share of its user's and team's token budgets (per UTC minute and day)", {
      exact: true,
    }),
  ).toBeVisible();
  await expect(issue.getByTestId('key-share-caps-hint')).toContainText(
    "the tighter of this cap and the user's or team's own budget applies",
  );
  await expect(issue.getByText('Budgets this key sets for its user and team', { exact: false })).toHaveCount(0);
});

test('deployments: Provider and Responses API are choices the gateway takes, and the key variable hint says which', async ({
  page,
}) => {
  await openSignedIn(page, 'gateway/models');
  await page.getByTestId('add-deployment').click();
  const dialog = page.getByTestId('deployment-dialog');
  const provider = dialog.getByLabel('Provider', { exact: true });
  // Every provider the gateway validates against, and nothing else, besides "inferred".
  const values = await provider
    .locator('option')
    .evaluateAll((options) => options.map((option) => (option as unknown as { value: string }).value));
  expect(values[0]).toBe('');
  expect([...values.slice(1)].sort()).toEqual([...KNOWN_PROVIDERS].sort());
  await provider.selectOption('lmstudio');
  await expect(provider.locator('option:checked')).toHaveText('lmstudio · LM Studio');

  const responses = dialog.getByLabel('Responses API', { exact: true });
  await expect(responses.locator('option')).toHaveText([
    'Default: native for OpenAI itself, translate for every other',
    "native: the provider's own /responses",
    'translate: over its chat API',
  ]);

  const variable = dialog.getByLabel('API key environment variable', { exact: true });
  await expect(variable).not.toHaveAttribute('placeholder', 'OPENAI_API_KEY');
  await expect(variable).toHaveAccessibleDescription(/listed in gateway\.key_variables/);
});
