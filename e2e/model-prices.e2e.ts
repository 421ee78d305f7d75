import { expect, test } from './fixtures.js';
import { startOwnServer, type OwnServer } from './own-server.js';

const MASTER = 'mk-model-prices-e2e-0123456789abcdef';
const STORE_TOKEN = 'st-model-prices-e2e-0123456789abcdef';

/** A server whose file allows a model it does not price: the Models screen marks it and can price it. */
let server: OwnServer;

test.beforeAll(async () => {
  server = await startOwnServer(
    'model-prices',
    { llm: { allowed_models: ['demo/echo', 'team-llama'] } },
    { PROXY_MASTER_KEY: MASTER, STORE_TOKEN, GATEWAY_PORT: '19850', STORE_PORT: '19851' },
  );
});

test.afterAll(async () => server?.stop());

const modelSettings = async (): Promise<{ pricing: Record<string, unknown>; unpriced_models: string[] }> =>
  (await (
    await fetch(`${server.urls.gateway}/internal/models`, { headers: { authorization: `Bearer ${MASTER}` } })
  ).json()) as { pricing: Record<string, unknown>; unpriced_models: string[] };

test('models: an unpriced model is marked, and its prices are typed, checked and saved', async ({
  page,
  consoleErrors,
}) => {
  await server.openSignedIn(page, 'gateway/models');
  const table = page.getByTestId('allowed-models');
  const llama = table.getByRole('row').filter({ hasText: 'team-llama' });
  const mark = llama.getByText('unpriced', { exact: true });
  await expect(mark).toBeVisible();
  await expect(mark).toHaveAttribute('title', /dollar budgets and costs do not count/);
  // The built-in demo models cost nothing anywhere: not marked.
  await expect(table.getByRole('row').filter({ hasText: 'demo/echo' }).getByText('unpriced')).toHaveCount(0);

  const input = page.getByLabel('Input price for team-llama', { exact: true });
  const output = page.getByLabel('Output price for team-llama', { exact: true });
  // One side alone, then a price that is not a number: each kept from being saved, on its field.
  await input.fill('2.5');
  await expect(
    page.getByText(
      'Output price of "team-llama": enter it too (a price has both sides; 0 for none), or clear the other',
      {
        exact: true,
      },
    ),
  ).toBeVisible();
  await expect(page.getByTestId('save-models')).toBeDisabled();
  await output.fill('-1');
  await expect(
    page.getByText(
      'Output price of "team-llama": must be a number of US dollars per million tokens, from 0 to 1000000000000',
      {
        exact: true,
      },
    ),
  ).toBeVisible();
  await expect(output).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('save-models')).toBeDisabled();

  await output.fill('10');
  await page.getByTestId('save-models').click();
  await expect(page.getByText('Model settings saved')).toBeVisible();
  expect(await modelSettings()).toMatchObject({
    pricing: { 'team-llama': { input_per_mtok: 2.5, output_per_mtok: 10 } },
    unpriced_models: [],
  });
  await page.reload();
  await expect(input).toHaveValue('2.5');
  await expect(output).toHaveValue('10');
  await expect(llama.getByText('unpriced', { exact: true })).toHaveCount(0);

  // Both cleared: the price goes, and the mark is back.
  await input.fill('');
  await output.fill('');
  await page.getByTestId('save-models').click();
  await expect(page.getByText('Model settings saved')).toBeVisible();
  const cleared = await modelSettings();
  expect(cleared.pricing).not.toHaveProperty('team-llama');
  expect(cleared.unpriced_models).toEqual(['team-llama']);
  await expect(llama.getByText('unpriced', { exact: true })).toBeVisible();
  expect(consoleErrors).toEqual([]);
});

test('live traffic: a request that cost nothing shows "—" as cost in the drawer, as in the list', async ({
  page,
  consoleErrors,
}) => {
  const name = `unpriced-${Date.now()}`;
  await server.chatOnce(await server.issueChatKey(name));
  await server.openSignedIn(page, 'gateway/traffic');
  const row = page.getByTestId('traffic-row').filter({ hasText: name });
  await expect(row.locator('.col-cost')).toHaveText('—');
  await row.click();
  const cost = page
    .getByTestId('traffic-drawer')
    .locator('.detail-item')
    .filter({ has: page.getByText('Cost', { exact: true }) })
    .locator('dd');
  await expect(cost).toHaveText('—');
  expect(consoleErrors).toEqual([]);
});
