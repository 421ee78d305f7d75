import { expect, saveScreenshot, test } from './fixtures.js';
import { startOwnServer, type OwnServer } from './own-server.js';

const MASTER = 'mk-cache-savings-e2e-0123456789abcdef';
const STORE_TOKEN = 'st-cache-savings-e2e-0123456789abcdef';

/** A server of its own, with the cache on and demo/echo priced, so its savings start at nothing. */
let server: OwnServer;

test.beforeAll(async () => {
  server = await startOwnServer(
    'cache-savings',
    {
      llm: { allowed_models: ['demo/echo'] },
      pricing: { 'demo/echo': { input_per_mtok: 30, output_per_mtok: 60 } },
      cache: { enabled: true, ttl_seconds: 600 },
    },
    { PROXY_MASTER_KEY: MASTER, STORE_TOKEN, GATEWAY_PORT: '20610', STORE_PORT: '20611' },
  );
});

test.afterAll(async () => server?.stop());

/** Money as the screen writes it (format.ts's formatCost). */
const money = (usd: number): string => (usd < 0.01 ? `$${usd.toPrecision(2)}` : `$${usd.toFixed(2)}`);

test('cache: the Cache screen shows the hit rate, tokens and dollars saved, and who saved most', async ({ page }) => {
  await server.openSignedIn(page, 'gateway/cache');
  const savings = page.getByTestId('cache-savings');
  await expect(savings.getByRole('heading', { name: 'Saved by the cache' })).toBeVisible();
  await expect(page.getByTestId('cache-savings-empty')).toHaveText(
    'Nothing saved yet: no request was answered from the cache in the last 7 days.',
  );
  await expect(page.getByTestId('cache-not-kept')).toHaveText('0');

  const key = await server.issueChatKey('savings-e2e');
  const ask = async (): Promise<Response> =>
    fetch(`${server.urls.gateway}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'demo/echo',
        temperature: 0,
        messages: [{ role: 'user', content: 'what the cache saves' }],
      }),
    });
  expect((await ask()).headers.get('x-gatehouse-cache')).toBe('miss');
  expect((await ask()).headers.get('x-gatehouse-cache')).toBe('hit');

  const rows = (await server.admin('GET', '/internal/usage/logs?limit=10')).body.data as Array<{
    cached: boolean;
    saved_prompt_tokens: number;
    saved_completion_tokens: number;
    saved_cost_usd: number;
  }>;
  const hit = rows.find((row) => row.cached)!;
  expect(hit.saved_cost_usd).toBeGreaterThan(0);

  const byPeriod = savings.getByRole('table', { name: 'Cache savings by period' });
  for (const period of ['Last hour', 'Last 24 hours', 'Last 7 days']) {
    const row = byPeriod.getByRole('row', { name: new RegExp(`^${period}`) });
    await expect(row.getByRole('cell')).toHaveText([
      period,
      '50%',
      '1 / 1',
      String(hit.saved_prompt_tokens + hit.saved_completion_tokens),
      money(hit.saved_cost_usd),
    ]);
  }
  await expect(page.getByTestId('cache-savings-empty')).toBeHidden();
  const models = savings.getByRole('table', { name: 'Models that saved most (7 days)' });
  await expect(models.getByRole('row', { name: /demo\/echo/ }).getByRole('cell')).toHaveText([
    'demo/echo',
    '1',
    money(hit.saved_cost_usd),
  ]);
  const keys = savings.getByRole('table', { name: 'Keys that saved most (7 days)' });
  await expect(keys.getByRole('row', { name: /savings-e2e/ })).toBeVisible();
  await saveScreenshot(page, 'gateway-cache-savings');

  // An answer too large to keep is counted by why.
  expect((await server.admin('PUT', '/internal/cache', { max_entry_bytes: 10 })).status).toBe(200);
  await fetch(`${server.urls.gateway}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'demo/echo', temperature: 0, messages: [{ role: 'user', content: 'too large' }] }),
  });
  await page.reload();
  await expect(page.getByTestId('cache-not-kept')).toHaveText('1 too large');
});
