import OpenAI from 'openai';
import { allowModel, expect, gatewayAdmin, openSignedIn, saveScreenshot, test } from './fixtures.js';

/**
 * A deployment that keeps failing says why on its row of the Models screen, in words a keyboard or
 * screen-reader user reaches too (not only in a hover tooltip), with how many failures in a row and
 * until when it is tried last.
 */
test('a deployment cooling down shows its failures, its last error and the end of its cooldown', async ({
  page,
  app,
}) => {
  const model = `down-${Date.now()}`;
  const before = await allowModel(model);
  try {
    // Port 9 has no listener on loopback: every call is refused at once.
    const saved = await gatewayAdmin('/internal/deployments', 'PUT', {
      deployments: [
        { id: 'down-e2e', model, provider: 'openai_compatible', base_url: 'http://127.0.0.1:9/v1', max_retries: 0 },
      ],
    });
    expect(saved.status).toBe(200);
    const issued = (await (await gatewayAdmin('/internal/api-keys', 'POST', { name: 'health-check' })).json()) as {
      key: string;
    };
    const client = new OpenAI({ baseURL: `${app.gatewayUrl}/v1`, apiKey: issued.key, maxRetries: 0 });
    for (let i = 0; i < 3; i += 1) {
      const error = await client.chat.completions
        .create({ model, messages: [{ role: 'user', content: 'x' }] })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    }

    await openSignedIn(page, 'gateway/models');
    const row = page.getByTestId('deployments-table').getByRole('row').filter({ hasText: 'down-e2e' });
    await expect(row).toContainText('Cooling down');
    await expect(row.getByText(/^3 failures in a row, tried after the others until \d\d:\d\d:\d\d/)).toBeVisible();
    await expect(row.getByText(/connection failed: connect ECONNREFUSED 127\.0\.0\.1:9/)).toBeVisible();
    await row.scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'gateway-deployment-cooling-down');
  } finally {
    await gatewayAdmin('/internal/deployments', 'PUT', { reset: true });
    await gatewayAdmin('/internal/models', 'PUT', { allowed_models: before });
  }
});
