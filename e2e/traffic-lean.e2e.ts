import { expect, test } from './fixtures.js';
import { startOwnServer, type OwnServer } from './own-server.js';
import { allowStatus } from './store-helpers.js';

const MASTER = 'mk-lean-e2e-0123456789abcdef0123456';
const STORE_TOKEN = 'st-lean-e2e-0123456789abcdef0123456';
/** The gateway keeps this few requests, so an early one leaves its buffer while the view still lists it. */
const KEPT = 3;

let server: OwnServer;
let apiKey: string;

test.beforeAll(async () => {
  server = await startOwnServer(
    'traffic-lean',
    { gateway: { traffic_buffer: KEPT } },
    { PROXY_MASTER_KEY: MASTER, STORE_TOKEN, GATEWAY_PORT: '20810', STORE_PORT: '20811' },
  );
  apiKey = await server.issueChatKey('lean');
});

test.afterAll(async () => {
  await server?.stop();
});

/**
 * The live traffic view downloads metadata only (its backfill and its stream ask `bodies=false`), and
 * the drawer reads the opened request's bodies by its number, saying so when the gateway has dropped it.
 */
test('live traffic lists requests without bodies and reads one request’s bodies when its drawer opens', async ({
  page,
  consoleErrors,
}) => {
  await server.chatOnce(apiKey, 'the first body');
  const traffic: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/internal/traffic')) traffic.push(request.url());
  });
  const backfill = page.waitForResponse((response) => /\/internal\/traffic\?/.test(response.url()));
  await server.openSignedIn(page, 'gateway/traffic');

  const answer = await backfill;
  expect(new URL(answer.url()).searchParams.get('bodies')).toBe('false');
  const page1 = (await answer.json()) as { data: Array<{ request_body: unknown; response_body: unknown }> };
  expect(page1.data).toHaveLength(1);
  expect(page1.data[0]).toMatchObject({ request_body: null, response_body: null });
  const list = page.getByRole('listbox', { name: 'Requests' });
  await expect(list.getByRole('option')).toHaveCount(1);
  await expect(page.getByRole('status').filter({ hasText: /^1 request$/ })).toBeVisible();
  await expect.poll(() => traffic.some((url) => /\/internal\/traffic\/stream\?bodies=false$/.test(url))).toBe(true);

  // Opened: its bodies are read by number, once.
  const bodies = page.waitForResponse((response) => /\/internal\/traffic\/\d+$/.test(response.url()));
  await list.getByRole('option').first().click();
  expect((await bodies).status()).toBe(200);
  const drawer = page.getByTestId('traffic-drawer');
  await expect(drawer.getByRole('region', { name: 'Request body' })).toContainText('the first body');
  await expect(drawer.getByRole('region', { name: 'Response body' })).toContainText('the first body');
  await expect(drawer.getByRole('button', { name: 'Copy as curl' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();

  // Live events arrive without bodies too; the list is in finish order and says so, and each option
  // tells its place in the list.
  await server.chatOnce(apiKey, 'the second body');
  await expect(list.getByRole('option')).toHaveCount(2);
  await expect(page.getByText('Finished', { exact: true })).toBeVisible();
  const options = list.getByRole('option');
  await expect(options.nth(0)).toHaveAttribute('aria-posinset', '1');
  await expect(options.nth(1)).toHaveAttribute('aria-posinset', '2');
  await expect(options.nth(1)).toHaveAttribute('aria-setsize', '2');
  await expect(page.getByRole('status').filter({ hasText: /^2 requests$/ })).toBeVisible();

  // Both leave the gateway's buffer: the second, never opened, says its bodies are gone.
  for (let index = 0; index < KEPT; index += 1) await server.chatOnce(apiKey, `pushes them out ${index}`);
  await expect(options).toHaveCount(2 + KEPT);
  const dropped = page.waitForResponse((response) => /\/internal\/traffic\/\d+$/.test(response.url()));
  await options.nth(KEPT).click();
  expect((await dropped).status()).toBe(404);
  await expect(drawer.getByTestId('traffic-bodies-dropped')).toContainText('are no longer kept');
  await expect(drawer).toContainText('Status');
  await expect(drawer.getByRole('region', { name: 'Request body' })).toHaveCount(0);
  // The browser logs the expected 404.
  allowStatus(consoleErrors, 404);
});
