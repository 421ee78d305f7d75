import { expect, test } from './fixtures.js';
import { startOwnServer, type OwnServer } from './own-server.js';

const MASTER = 'mk-model-limits-e2e-0123456789abcdef';
const STORE_TOKEN = 'st-model-limits-e2e-0123456789abcdef';

/** A server whose configuration file sets a model's shared limits (limits.models), which only it can set. */
let server: OwnServer;

test.beforeAll(async () => {
  server = await startOwnServer(
    'model-limits',
    { limits: { models: { 'demo/echo': { rpm_limit: 2 } } } },
    { PROXY_MASTER_KEY: MASTER, STORE_TOKEN },
  );
});

test.afterAll(async () => server?.stop());

test('models: the shared limits the configuration file sets are shown with what is used of them', async ({
  page,
  consoleErrors,
}) => {
  await server.chatOnce(await server.issueChatKey('model limits'));
  await server.openSignedIn(page, 'gateway/models');
  const panel = page.getByTestId('model-limits');
  await expect(panel.getByRole('heading', { name: 'Shared model limits' })).toBeVisible();
  await expect(panel).toContainText('demo/echo');
  const meter = panel.getByTestId('model-limits-demo/echo').getByRole('meter');
  await expect(meter).toHaveAttribute('aria-valuemax', '2');
  // The request is shown as used; the bucket gives one back every 30 s, so part of it may have returned.
  expect(Number(await meter.getAttribute('aria-valuenow'))).toBeGreaterThan(0.3);
  expect(consoleErrors).toEqual([]);
});
