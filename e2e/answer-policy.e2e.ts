import OpenAI from 'openai';
import { expect, gatewayAdmin, openSignedIn, saveScreenshot, test } from './fixtures.js';

test('PII & policy: answer patterns set on a key override in the UI stop its answer; the drawer names the pattern, not the text', async ({
  page,
  app,
}) => {
  const stamp = Date.now();
  const name = `e2e-answer-${stamp}`;
  const pattern = `answer-stop-${stamp}`;
  const issued = (await (await gatewayAdmin('/internal/api-keys', 'POST', { name })).json()) as {
    id: string;
    key: string;
  };
  await openSignedIn(page, 'gateway/guardrails');
  await expect(page.getByTestId('policy-panel')).toBeVisible();
  await expect(page.getByLabel('Blocked answer patterns')).toBeVisible();
  await page.getByRole('button', { name: 'Key override' }).click();
  const overrides = page.getByTestId('guardrails-overrides');
  await overrides.getByLabel('Override 1 key').selectOption(issued.id);
  await overrides.getByRole('button', { name: /blocked answer patterns: inherit/ }).click();
  await overrides.getByLabel('Override 1 blocked answer patterns').fill('(unclosed');
  await expect(page.getByText(/answer patterns: "\(unclosed" is not a valid regular expression/).first()).toBeVisible();
  await overrides.getByLabel('Override 1 blocked answer patterns').fill(pattern);
  await page.getByTestId('save-guardrails').click();
  await expect(page.getByTestId('save-guardrails')).toBeHidden();

  try {
    const saved = (await (await gatewayAdmin('/internal/content-policy')).json()) as {
      keys: Record<string, { blocked_answer_patterns?: string[] }>;
    };
    expect(saved.keys[issued.id]?.blocked_answer_patterns).toEqual([pattern]);
    const client = new OpenAI({ baseURL: `${app.gatewayUrl}/v1`, apiKey: issued.key, maxRetries: 0 });
    // The echo model answers with the prompt, so the pattern is in the answer.
    const reply = await client.chat.completions.create({
      model: 'demo/echo',
      messages: [{ role: 'user', content: `please repeat ${pattern.toUpperCase()} and more` }],
    });
    expect(reply.choices[0]?.finish_reason).toBe('content_filter');
    expect(reply.choices[0]?.message.content).toBeNull();

    await page.getByRole('link', { name: 'Live traffic' }).click();
    const rows = page.getByTestId('traffic-row').filter({ hasText: name });
    await expect(rows).toHaveCount(1);
    await rows.click();
    const drawer = page.getByTestId('traffic-drawer');
    await expect(drawer.getByTestId('policy-answer-stopped')).toContainText(
      `answer stopped: blocked answer pattern "${pattern}" matched in choices[0].message.content`,
    );
    await saveScreenshot(page, 'gateway-traffic-drawer-answer-stopped');
  } finally {
    await gatewayAdmin('/internal/content-policy', 'PUT', { keys: {} });
  }
});
