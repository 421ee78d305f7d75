import { expect, gatewayAdmin, openSignedIn, test } from './fixtures.js';

/**
 * A request refused before its model resolved (400 model_not_allowed) has only the name it asked for:
 * Live traffic's Model choices list that name too, so the refusals for a mistyped model can be picked.
 */
test('live traffic: a model refused before routing is among the Model choices and filters its requests', async ({
  page,
  app,
}) => {
  const issued = await gatewayAdmin('/internal/api-keys', 'POST', { name: `refused-model-${Date.now()}` });
  const { key } = (await issued.json()) as { key: string };
  const model = `nope/none-${Date.now()}`;
  const refused = await fetch(`${app.gatewayUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
  });
  expect(refused.status).toBe(400);
  await openSignedIn(page, 'gateway/traffic');
  const choice = page.getByLabel('Model', { exact: true });
  await expect(choice.locator('option', { hasText: model })).toHaveCount(1);
  await choice.selectOption(model);
  await expect(page).toHaveURL(new RegExp(`model=${encodeURIComponent(model).replace(/%2F/g, '(%2F|/)')}`));
  await expect(page.getByRole('listbox', { name: 'Requests' }).getByRole('option')).toHaveCount(1);
});
