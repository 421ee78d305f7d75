import { expect, openSignedIn, test } from './fixtures.js';

/**
 * A new key's dialog shows its example in the language the developer works in: Python, Node, curl,
 * or the environment variables both providers' SDKs read, each with the key and a copy button.
 */
test('keys: the new key’s example switches between Python, Node, curl and environment variables', async ({
  page,
  app,
}) => {
  await openSignedIn(page, 'gateway/keys');
  await page.getByTestId('issue-key').click();
  const issue = page.getByTestId('issue-key-dialog');
  await issue.getByLabel('Name', { exact: true }).fill(`languages-${Date.now()}`);
  await issue.getByTestId('confirm-issue-key').click();

  const dialog = page.getByTestId('key-secret-dialog');
  const secret = (await dialog.getByTestId('issued-key-secret').innerText()).trim();
  const example = dialog.getByTestId('key-example');
  const languages = dialog.getByRole('radiogroup', { name: 'Example language' });
  await expect(languages.getByRole('radio', { name: 'Python' })).toHaveAttribute('aria-checked', 'true');
  await expect(example).toContainText(`OpenAI(base_url="${app.gatewayUrl}/v1", api_key="${secret}")`);

  await languages.getByRole('radio', { name: 'Node' }).click();
  await expect(example).toContainText(`new OpenAI({ baseURL: "${app.gatewayUrl}/v1", apiKey: "${secret}" })`);
  // Arrows move between languages, as in any radio group.
  await page.keyboard.press('ArrowRight');
  await expect(example).toContainText(`export GATEHOUSE_API_KEY='${secret}'`);
  await expect(example).toContainText(`curl -X POST '${app.gatewayUrl}/v1/chat/completions'`);
  await languages.getByRole('radio', { name: 'Environment' }).click();
  await expect(example).toContainText(`export OPENAI_BASE_URL='${app.gatewayUrl}/v1'`);
  await expect(example).toContainText(`export ANTHROPIC_API_KEY='${secret}'`);
  await expect(dialog.getByRole('button', { name: /copy/i })).toHaveCount(2);
  await dialog.getByTestId('close-secret').click();
});
