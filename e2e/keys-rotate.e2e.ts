import { expect, gatewayAdmin, openSignedIn, test } from './fixtures.js';

/**
 * A key's secret is replaced in place, as after a leak or on a schedule: the key keeps its id and
 * settings, the new secret is shown once, and the old one stops now or after the grace chosen.
 */
test('keys: Rotate gives a new secret once; the old one works through the grace chosen, or stops at once', async ({
  page,
  app,
}) => {
  const tag = `rotate${Date.now()}`;
  const issued = await gatewayAdmin('/internal/api-keys', 'POST', { name: `${tag}-ci`, scopes: ['chat'] });
  const { id, key: original } = (await issued.json()) as { id: string; key: string };
  const status = async (secret: string): Promise<number> =>
    (
      await fetch(`${app.gatewayUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'demo/echo', messages: [{ role: 'user', content: 'hi' }] }),
      })
    ).status;

  await openSignedIn(page, `gateway/keys?q=${tag}`);
  await page.getByRole('button', { name: `Rotate the secret of ${tag}-ci`, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Rotate the secret of “${tag}-ci”?` });
  await expect(dialog.getByLabel('The current secret')).toHaveValue('0');
  await dialog.getByLabel('The current secret').selectOption({ label: 'Works 1 more hour' });
  await dialog.getByRole('button', { name: 'Rotate secret' }).click();

  const secretDialog = page.getByRole('dialog', { name: `New secret for “${tag}-ci”` });
  await expect(secretDialog).toContainText('The old secret works until');
  const rotated = (await secretDialog.getByTestId('issued-key-secret').textContent())!.trim();
  expect(rotated).not.toBe(original);
  // The example under it uses the new secret.
  await expect(secretDialog.getByTestId('key-example')).toContainText(rotated);
  expect(await status(rotated)).toBe(200);
  expect(await status(original)).toBe(200);
  await secretDialog.getByRole('button', { name: 'I have copied the key' }).click();

  const row = page
    .getByTestId('keys-table')
    .getByRole('row')
    .filter({ hasText: `${tag}-ci` });
  await expect(row.getByTestId('key-rotated')).toHaveText('rotated just now, old secret stops in 1 hour');
  const record = (await (await gatewayAdmin(`/internal/api-keys/${id}`)).json()) as { key_prefix: string };
  await expect(row).toContainText(record.key_prefix);

  // Rotated again at once (a leak): the secret just shown stops now.
  await page.getByRole('button', { name: `Rotate the secret of ${tag}-ci`, exact: true }).click();
  await page.getByRole('button', { name: 'Rotate secret' }).click();
  await expect(page.getByRole('dialog', { name: `New secret for “${tag}-ci”` })).toContainText(
    'The old secret no longer works.',
  );
  const latest = (await page.getByTestId('issued-key-secret').textContent())!.trim();
  expect(await status(rotated)).toBe(401);
  expect(await status(latest)).toBe(200);
  await page.getByRole('button', { name: 'I have copied the key' }).click();
  await expect(row.getByTestId('key-rotated')).toHaveText('rotated just now');
});
