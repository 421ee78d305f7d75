import { allowModel, expect, gatewayAdmin, openSignedIn, test } from './fixtures.js';

/**
 * PII & policy saves the PII settings, then the content policy. When only the policy is refused, the
 * PII settings are in force (and stay so on Discard): the save bar says so, not that nothing was saved.
 */
test('PII & policy: a refused content policy after saved PII settings says the PII settings were saved', async ({
  page,
  consoleErrors,
}) => {
  const model = `policy-only-${Date.now()}`;
  const allowed = await allowModel(model);
  try {
    await openSignedIn(page, 'gateway/guardrails');
    await page.getByRole('radio', { name: 'Redact' }).click();
    await page.getByRole('button', { name: 'Model override' }).click();
    await page.getByLabel('Override 1 model').selectOption(model);
    // Only a content-policy setting: the PII update has no rule for the model, and goes through.
    await page.getByLabel('Override 1 max input tokens').fill('100');
    expect((await gatewayAdmin('/internal/models', 'PUT', { allowed_models: allowed })).status).toBe(200);

    await page.getByTestId('save-guardrails').click();
    const failure = page.getByRole('region', { name: 'Unsaved changes' }).getByRole('alert');
    await expect(failure).toContainText(`models.${model}`);
    expect(((await (await gatewayAdmin('/internal/pii')).json()) as { mode: string }).mode).toBe('redact');
    await expect(failure).toContainText('PII settings saved, content policy not saved');
    await expect(failure).not.toContainText(/^Not saved/);
    await page.getByRole('button', { name: 'Discard' }).click();
    await expect(page.getByRole('radio', { name: 'Redact' })).toBeChecked();
  } finally {
    await gatewayAdmin('/internal/models', 'PUT', { reset: true });
    await gatewayAdmin('/internal/pii', 'PUT', { reset: true });
    await gatewayAdmin('/internal/content-policy', 'PUT', { reset: true });
  }
  consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((line) => !/ 400 /.test(line)));
});
