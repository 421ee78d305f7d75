import { startOpenAIUpstream } from '../test/support/upstreams/index.js';
import { expect, gatewayAdmin, openSignedIn, saveScreenshot, test } from './fixtures.js';

/**
 * "Test connection" on the Models screen: on a saved deployment's row (with its stored key, which the
 * page never holds) and in the deployment dialog for a form not saved yet, the result said in words
 * beside the button (role=status).
 */
test('tests deployments from their rows and from the dialog, saying what was found', async ({ page }) => {
  const upstreamKey = 'sk-e2e-test-connection-0123456789';
  const upstream = await startOpenAIUpstream({ apiKey: upstreamKey });
  try {
    // Port 19799 (this suite's range) has no listener: the call is refused at once.
    const saved = await gatewayAdmin('/internal/deployments', 'PUT', {
      deployments: [
        {
          id: 'test-ok',
          model: 'tested-gpt',
          provider: 'openai',
          upstream_model: 'gpt-4o-mini',
          base_url: upstream.url,
          api_key: upstreamKey,
        },
        {
          id: 'test-refused',
          model: 'tested-gpt',
          provider: 'openai_compatible',
          base_url: 'http://127.0.0.1:19799/v1',
        },
      ],
    });
    expect(saved.status).toBe(200);

    await openSignedIn(page, 'gateway/models');
    const table = page.getByTestId('deployments-table');
    const okRow = table.getByRole('row').filter({ hasText: 'test-ok' });
    await okRow.getByRole('button', { name: 'Test connection of test-ok' }).click();
    await expect(okRow.getByRole('status')).toContainText('Connection OK · HTTP 200');
    await expect(okRow.getByRole('status')).toContainText("'gpt-4o-mini' is among the 1 models listed");
    expect(upstream.lastRequest()?.headers.authorization).toBe(`Bearer ${upstreamKey}`);

    const refusedRow = table.getByRole('row').filter({ hasText: 'test-refused' });
    await refusedRow.getByRole('button', { name: 'Test connection of test-refused' }).click();
    await expect(refusedRow.getByRole('status')).toContainText(
      'Connection refused at http://127.0.0.1:19799/v1/models',
    );
    await saveScreenshot(page, 'gateway-deployment-test-rows');

    await page.getByTestId('add-deployment').click();
    const dialog = page.getByTestId('deployment-dialog');
    // A form that does not pass is not sent: its fields say why.
    const sent = upstream.requests.length;
    await dialog.getByRole('button', { name: 'Test connection' }).click();
    await expect(dialog.getByRole('status')).toHaveText('Fix the fields marked above first.');
    expect(upstream.requests).toHaveLength(sent);

    await dialog.getByLabel('Model', { exact: true }).fill('unsaved-gpt');
    await dialog.getByLabel('Provider', { exact: true }).selectOption('openai');
    await dialog.getByLabel('Upstream model').fill('gpt-4o-mimi');
    await dialog.getByLabel('Base URL').fill(upstream.url);
    await dialog.getByLabel('API key', { exact: true }).fill(upstreamKey);
    await dialog.getByRole('button', { name: 'Test connection' }).click();
    await expect(dialog.getByRole('status')).toContainText('Connection failed · HTTP 200');
    await expect(dialog.getByRole('status')).toContainText('model not found');
    await expect(dialog.getByRole('status')).toContainText('Closest listed names: gpt-4o-mini');
    await dialog.getByRole('status').scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'gateway-deployment-test-dialog');
  } finally {
    await gatewayAdmin('/internal/deployments', 'PUT', { reset: true });
    await upstream.close();
  }
});
