import { expect, test } from './fixtures.js';
import { startOwnServer, type OwnServer } from './own-server.js';
import { allowStatus } from './store-helpers.js';

const MASTER = 'mk-models-concurrent-e2e-0123456789abcdef';
const STORE_TOKEN = 'st-models-concurrent-e2e-0123456789abcdef';

/**
 * Two admins: one with a draft open on the Models screen, the other changing the same settings through
 * the admin API meanwhile. The screen's Save must never erase the other's change, and one Save applies
 * the model settings and the deployments both or neither.
 */
let server: OwnServer;

const DEP_A = { id: 'dep-a', model: 'team-gpt', provider: 'openai_compatible', base_url: 'http://127.0.0.1:20211/v1' };
const API_DEP = {
  id: 'api-dep',
  model: 'team-gpt',
  provider: 'openai_compatible',
  base_url: 'http://127.0.0.1:20212/v1',
};

test.beforeAll(async () => {
  server = await startOwnServer(
    'models-concurrent',
    {
      llm: { allowed_models: ['demo/echo', 'team-gpt'], per_model_max_tokens: { 'team-gpt': 100 } },
      deployments: [DEP_A],
    },
    { PROXY_MASTER_KEY: MASTER, STORE_TOKEN },
  );
});

test.afterAll(async () => server?.stop());

const admin = (method: string, path: string, body?: unknown) => server.admin(method, path, body);

test.beforeEach(async () => {
  expect((await admin('PUT', '/internal/deployments', { deployments: [DEP_A] })).status).toBe(200);
  expect((await admin('PUT', '/internal/models', { per_model_max_tokens: { 'team-gpt': 100 } })).status).toBe(200);
});

test("models: a deployment added through the API while a draft is open survives the screen's Save", async ({
  page,
  consoleErrors,
}) => {
  // The model settings are the configuration file's (the same cap of 100).
  expect((await admin('PUT', '/internal/models', { reset: true })).status).toBe(200);
  await server.openSignedIn(page, 'gateway/models');
  await expect(page.getByTestId('deployments-table')).toContainText('dep-a');
  // A draft of both halves: a cap and the deployment list.
  await page.getByLabel('Max tokens for team-gpt').fill('300');
  await page.getByRole('button', { name: 'Remove deployment dep-a' }).click();

  const listed = (await admin('GET', '/internal/deployments')).body.data;
  expect((await admin('PUT', '/internal/deployments', { deployments: [...listed, API_DEP] })).status).toBe(200);

  await page.getByTestId('save-models').click();
  await expect(page.getByTestId('save-failed')).toContainText(
    'Someone changed the deployments since you opened this: reload to see their change; your draft is kept',
  );
  const deployments = (await admin('GET', '/internal/deployments')).body.data.map((d: { id: string }) => d.id);
  expect(deployments).toEqual(['dep-a', 'api-dep']);
  // Both or neither: the cap saved just before the deployments were refused is put back, the draft kept.
  await expect(page.getByTestId('save-failed')).toContainText('Nothing saved');
  const models = (await admin('GET', '/internal/models')).body;
  expect(models.per_model_max_tokens).toEqual({ 'team-gpt': 100 });
  // Put back as they were: the file's, not a copy of its values saved at run time.
  expect(models.source).toBe('config');
  await expect(page.getByLabel('Max tokens for team-gpt')).toHaveValue('300');

  // Reload shows their change and keeps the draft aside, to be put back on top of it.
  await page.getByTestId('reload-theirs').click();
  await expect(page.getByTestId('deployments-table')).toContainText('api-dep');
  await expect(page.getByLabel('Max tokens for team-gpt')).toHaveValue('100');
  await page.getByTestId('put-edits-back').click();
  await expect(page.getByLabel('Max tokens for team-gpt')).toHaveValue('300');
  // The edits are back on top of their change: dep-a removed, api-dep (added elsewhere) kept.
  await page.getByTestId('save-models').click();
  await expect(page.getByText('Model settings saved')).toBeVisible();
  expect((await admin('GET', '/internal/deployments')).body.data.map((d: { id: string }) => d.id)).toEqual(['api-dep']);
  expect((await admin('GET', '/internal/models')).body.per_model_max_tokens).toEqual({ 'team-gpt': 300 });
  allowStatus(consoleErrors, 412);
});

test("models: a cap changed through the API while a draft is open is not undone by the screen's Save", async ({
  page,
  consoleErrors,
}) => {
  await server.openSignedIn(page, 'gateway/models');
  await page.getByLabel('Max tokens for team-gpt').fill('300');
  expect((await admin('PUT', '/internal/models', { per_model_max_tokens: { 'team-gpt': 55 } })).status).toBe(200);

  await page.getByTestId('save-models').click();
  await expect(page.getByTestId('save-failed')).toContainText(
    'Someone changed the models since you opened this: reload to see their change; your draft is kept',
  );
  expect((await admin('GET', '/internal/models')).body.per_model_max_tokens).toEqual({ 'team-gpt': 55 });
  // The refusal the screen provokes on purpose.
  allowStatus(consoleErrors, 412);
});

test('models: the max tokens cap refuses what is not a whole number of 1 or more, and keeps it as typed', async ({
  page,
}) => {
  await server.openSignedIn(page, 'gateway/models');
  const cap = page.getByLabel('Max tokens for team-gpt');
  for (const typed of ['1.5', '-5', '0', 'abc']) {
    await cap.fill(typed);
    await expect(cap).toHaveValue(typed);
    await expect(cap).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByTestId('save-blocked')).toContainText(
      'Max tokens cap of "team-gpt": must be a whole number of tokens, 1 or more',
    );
    await expect(page.getByTestId('save-models')).toBeDisabled();
  }
  await cap.fill('');
  await expect(page.getByTestId('save-models')).toBeEnabled();
});

test('models: a failing deployment says since when it fails and when it last answered', async ({ page }) => {
  const issued = await admin('POST', '/internal/api-keys', { name: 'failing-since' });
  // Nothing listens on dep-a's port: each call is refused at once.
  for (let i = 0; i < 2; i += 1) {
    const answer = await fetch(`${server.urls.gateway}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${issued.body.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'team-gpt', messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(answer.ok).toBe(false);
  }
  const health = (await admin('GET', '/internal/deployments/health')).body.data.find(
    (entry: { id: string }) => entry.id === 'dep-a',
  );
  expect(health).toMatchObject({ last_success_at: null, failing_since: expect.any(String) });

  await server.openSignedIn(page, 'gateway/models');
  const row = page.getByTestId('deployments-table').getByRole('row').filter({ hasText: 'dep-a' });
  await expect(row.getByTestId('failing-since')).toHaveText(
    /^Failing since \d\d:\d\d:\d\d \(.+\); never answered yet$/,
  );
});
