import { expect, test } from './fixtures.js';
import { startOwnServer, type OwnServer } from './own-server.js';

const MASTER = 'mk-model-removal-e2e-0123456789abcdef';
const STORE_TOKEN = 'st-model-removal-e2e-0123456789abcdef';
const LLAMA_PRICE = { input_per_mtok: 1, output_per_mtok: 2 };

/**
 * A server whose team-llama is used by everything that can use a model: an alias, a deployment, a
 * cap, a price and a key (limited to the alias) of a user; demo/embed is the default embedding model.
 */
let server: OwnServer;

test.beforeAll(async () => {
  server = await startOwnServer(
    'model-removal',
    {
      llm: {
        allowed_models: ['demo/echo', 'demo/embed', 'team-llama'],
        model_aliases: { llama: 'team-llama' },
        per_model_max_tokens: { 'team-llama': 500 },
        default_embedding_model: 'demo/embed',
      },
      deployments: [
        {
          id: 'llama-local',
          model: 'team-llama',
          provider: 'openai_compatible',
          base_url: 'http://127.0.0.1:19502/v1',
        },
      ],
      pricing: { 'team-llama': LLAMA_PRICE },
    },
    { PROXY_MASTER_KEY: MASTER, STORE_TOKEN, GATEWAY_PORT: '19500', STORE_PORT: '19501' },
  );
  const issued = await admin('POST', '/internal/api-keys', {
    name: 'ci-llama',
    user: 'alice',
    scopes: ['chat'],
    models: ['llama'],
  });
  expect(issued.status).toBe(201);
});

test.afterAll(async () => server?.stop());

const admin = (method: string, path: string, body?: unknown) => server.admin(method, path, body);

test('models: Remove asks first, naming what uses the model, and the save leaves the gateway consistent', async ({
  page,
  consoleErrors,
}) => {
  await server.openSignedIn(page, 'gateway/models');
  const table = page.getByTestId('allowed-models');
  const remove = page.getByRole('button', { name: 'Remove team-llama', exact: true });
  await remove.click();
  const dialog = page.getByTestId('remove-model-dialog');
  const dependants = dialog.getByTestId('remove-model-dependants');
  await expect(dependants.getByRole('listitem')).toHaveText([
    'Alias "llama" routes to it and is removed with it: clients sending it are refused (model_not_allowed).',
    'Deployment "llama-local" stays but gets no traffic until "team-llama" is allowed again.',
    'API key "ci-llama" (alice) is limited to it: its list stays, but it can then call no model at all until "team-llama" is allowed again.',
    'Its max_tokens cap (500) is dropped.',
    'Its price stays, and prices it again if it is allowed again.',
  ]);
  // Cancel changes nothing.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(table.getByRole('row').filter({ hasText: 'team-llama' })).toHaveCount(1);
  await expect(page.getByTestId('save-models')).toHaveCount(0);

  await remove.click();
  await page.getByTestId('remove-model-dialog-confirm').click();
  await expect(table.getByRole('row').filter({ hasText: 'team-llama' })).toHaveCount(0);
  await expect(page.getByTestId('aliases').getByRole('row').filter({ hasText: 'llama' })).toHaveCount(0);
  await page.getByTestId('save-models').click();
  await expect(page.getByText('Model settings saved')).toBeVisible();

  const saved = (await admin('GET', '/internal/models')).body;
  expect(saved.allowed_models).toEqual(['demo/echo', 'demo/embed']);
  expect(saved.model_aliases).toEqual({});
  expect(saved.per_model_max_tokens).toEqual({});
  expect(saved.pricing).toEqual({ 'team-llama': LLAMA_PRICE });
  // The key keeps its list and the model its price: allowing the model again gives back what it had.
  const keys = (await admin('GET', '/internal/api-keys')).body.data;
  expect(keys.find((key: any) => key.name === 'ci-llama').models).toEqual(['llama']);
  expect(consoleErrors).toEqual([]);
});

test('models: removing the default embedding model says the default is cleared, and clears it', async ({
  page,
  consoleErrors,
}) => {
  await server.openSignedIn(page, 'gateway/models');
  await page.getByRole('button', { name: 'Remove demo/embed', exact: true }).click();
  const dialog = page.getByTestId('remove-model-dialog');
  await expect(dialog.getByTestId('remove-model-dependants').getByRole('listitem')).toHaveText([
    'It is the default embedding model: the default is cleared, so embeddings requests must name a model.',
  ]);
  await page.getByTestId('remove-model-dialog-confirm').click();
  await expect(page.getByLabel('Default embedding model')).toHaveValue('');
  await page.getByTestId('save-models').click();
  await expect(page.getByText('Model settings saved')).toBeVisible();
  expect((await admin('GET', '/internal/models')).body.default_embedding_model).toBeNull();
  expect(consoleErrors).toEqual([]);
});
