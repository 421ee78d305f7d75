import type { Page } from '@playwright/test';
import { startChatUpstream, type ChatUpstream } from './chat-upstream.js';
import { expect, test } from './fixtures.js';
import { startOwnServer, type OwnServer } from './own-server.js';

const MASTER = 'mk-unpriced-budgets-e2e-0123456789ab';
const STORE_TOKEN = 'st-unpriced-budgets-e2e-0123456789ab';
const UPSTREAM_PORT = 19620;
const EMAIL = 'jane.roe@example.com';

/**
 * A server with two models on that upstream: team-llama without a price, free-llama priced at 0 on
 * purpose; and PII masked for demo/echo.
 */
let upstream: ChatUpstream;
let server: OwnServer;

test.beforeAll(async () => {
  // Every chat answered with a few tokens: requests cost what their model's price says, or nothing without one.
  upstream = await startChatUpstream({ port: UPSTREAM_PORT });
  const deployment = (model: string) => ({
    model,
    provider: 'openai',
    upstream_model: 'llama',
    base_url: `http://127.0.0.1:${UPSTREAM_PORT}/v1`,
    api_key: 'sk-unpriced-e2e',
  });
  server = await startOwnServer(
    'unpriced-budgets',
    {
      llm: { allowed_models: ['demo/echo', 'team-llama', 'free-llama'] },
      deployments: [deployment('team-llama'), deployment('free-llama')],
      pricing: { 'free-llama': { input_per_mtok: 0, output_per_mtok: 0 } },
      pii: { models: { 'demo/echo': { mode: 'mask' } } },
    },
    { PROXY_MASTER_KEY: MASTER, STORE_TOKEN, GATEWAY_PORT: '19610', STORE_PORT: '19611' },
  );
});

test.afterAll(async () => {
  await server?.stop();
  await upstream?.close();
});

async function admin(path: string, method = 'GET', body?: unknown): Promise<Response> {
  return fetch(`${server.urls.gateway}${path}`, {
    method,
    headers: { authorization: `Bearer ${MASTER}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function issueKey(body: object): Promise<{ id: string; key: string }> {
  const issued = await admin('/internal/api-keys', 'POST', { scopes: ['chat'], ...body });
  expect(issued.status).toBe(201);
  return (await issued.json()) as { id: string; key: string };
}

async function chat(key: string, model: string, content = 'hi'): Promise<void> {
  const answer = await fetch(`${server.urls.gateway}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content }] }),
  });
  expect(answer.status, await answer.text()).toBe(200);
}

/** Sends `chats` (model, text) with a new key named `name`, then opens Live traffic on its requests. */
async function trafficOf(page: Page, name: string, chats: readonly (readonly [string, string?])[]) {
  const { key } = await issueKey({ name });
  for (const [model, content] of chats) await chat(key, model, content);
  await server.openSignedIn(page, 'gateway/traffic');
  return {
    rows: page.getByTestId('traffic-row').filter({ hasText: name }),
    drawer: page.getByTestId('traffic-drawer'),
  };
}

test('keys: the spend budgets of a key that can reach an unpriced model say it is not counted', async ({
  page,
  consoleErrors,
}) => {
  const stamp = Date.now();
  const reaching = `reaches-unpriced-${stamp}`;
  const priced = `priced-only-${stamp}`;
  await issueKey({ name: reaching, models: ['team-llama', 'demo/echo'], usd_daily_budget: 5 });
  await issueKey({ name: priced, models: ['free-llama'], usd_daily_budget: 5 });
  await server.openSignedIn(page, 'gateway/keys');
  const rowOf = (name: string) => page.getByTestId('keys-table').getByRole('row').filter({ hasText: name });
  const dialog = page.getByTestId('edit-key-limits-dialog');

  await rowOf(reaching).getByRole('button', { name: 'Edit limits' }).click();
  const note = dialog.getByTestId('unpriced-budget-note');
  await expect(note).toHaveText(
    'team-llama has no price: these budgets do not count it. Set a price on the Models screen.',
  );
  await expect(note).toHaveAttribute('role', 'note');
  await expect(note.getByRole('link', { name: 'Models screen' })).toHaveAttribute('href', /gateway\/models$/);
  // The meter of the key's dollar budget says so too, to a screen reader as well.
  const meter = dialog.locator('[data-limit-type="key_cost_daily"]');
  await expect(meter.getByTestId('limit-meter-unpriced')).toHaveText('Not counting team-llama (no price)');
  await expect(meter).toHaveAttribute('aria-valuetext', /team-llama has no price: this budget does not count it\.$/);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // A key held to a model priced at $0 on purpose reaches nothing unpriced: no note.
  await rowOf(priced).getByRole('button', { name: 'Edit limits' }).click();
  await expect(dialog.getByLabel(/Spend budget per day/)).toBeVisible();
  await expect(dialog.getByTestId('unpriced-budget-note')).toHaveCount(0);
  await expect(dialog.getByTestId('limit-meter-unpriced')).toHaveCount(0);
  expect(consoleErrors).toEqual([]);
});

test('users & teams: a team budget names the unpriced models it does not count, as does the spend panel', async ({
  page,
  consoleErrors,
}) => {
  const team = `unpriced-team-${Date.now()}`;
  expect((await admin('/internal/teams', 'POST', { id: team, usd_daily_budget: 3 })).status).toBe(201);
  await server.openSignedIn(page, 'gateway/people');
  const row = page.getByTestId('teams-table').getByRole('row').filter({ hasText: team });
  await expect(row.getByTestId('limit-meter-unpriced')).toHaveText('Not counting team-llama (no price)');
  await expect(page.getByTestId('spend-panel').getByTestId('unpriced-budget-note')).toHaveText(
    'team-llama has no price: the spend shown does not count it. Set a price on the Models screen.',
  );
  await row.getByRole('button', { name: `Edit ${team}` }).click();
  const dialog = page.getByTestId('principal-dialog');
  await expect(dialog.getByTestId('unpriced-budget-note')).toHaveText(
    'team-llama has no price: the spend budgets do not count it. Set a price on the Models screen.',
  );
  // The link leads where the price is set.
  await dialog.getByRole('link', { name: 'Models screen' }).click();
  await expect(page).toHaveURL(/gateway\/models$/);
  expect(consoleErrors).toEqual([]);
});

test('traffic and usage: an unpriced request reads "unpriced", one priced at $0 on purpose "$0"', async ({
  page,
  consoleErrors,
}) => {
  const { rows, drawer } = await trafficOf(page, `cost-words-${Date.now()}`, [['team-llama'], ['free-llama']]);
  const cost = drawer
    .locator('.detail-item')
    .filter({ has: page.getByText('Cost', { exact: true }) })
    .locator('dd');

  await rows.filter({ hasText: 'team-llama' }).click();
  await expect(cost).toHaveText('unpriced (no price set: counted by no dollar budget)');
  await expect(drawer.getByTestId('traffic-cost-unpriced')).toHaveAttribute('title', /has no price/);
  await page.keyboard.press('Escape');
  await rows.filter({ hasText: 'free-llama' }).click();
  await expect(cost).toHaveText('$0');
  await page.keyboard.press('Escape');

  await server.openSignedIn(page, 'gateway/usage');
  await expect(page.getByTestId('usage-totals')).toContainText('team-llama has no price: this cost does not count it.');
  const table = page.getByRole('table', { name: 'Usage totals' });
  const costOf = (model: string) => table.getByRole('row').filter({ hasText: model }).getByRole('cell').nth(3);
  await expect(costOf('team-llama')).toHaveText('unpriced');
  await expect(costOf('free-llama')).toHaveText('$0');
  expect(consoleErrors).toEqual([]);
});

test('traffic drawer: under PII mask the bodies are labelled as forwarded and before restoration', async ({
  page,
  consoleErrors,
}) => {
  const { rows, drawer } = await trafficOf(page, `pii-labels-${Date.now()}`, [
    ['demo/echo', `write to ${EMAIL}`],
    ['demo/echo', 'nothing personal'],
  ]);
  await expect(rows).toHaveCount(2);
  const titles = drawer.locator('.drawer-section .section-title');

  // Newest first: the request without PII, then the one masked.
  await rows.nth(1).click();
  await expect(drawer.getByTestId('pii-note')).toContainText('email ×1');
  await expect(drawer).toContainText('[EMAIL_1]');
  await expect(titles.filter({ hasText: /^Request/ })).toHaveText('Request (as forwarded, scrubbed)');
  await expect(titles.filter({ hasText: /^Response/ })).toHaveText(
    'Response (as the provider sent it, before restoration)',
  );
  await expect(drawer).toContainText('the client sent the real values');
  await page.keyboard.press('Escape');

  await rows.nth(0).click();
  await expect(drawer.getByTestId('pii-note')).toContainText('nothing found');
  await expect(titles.filter({ hasText: /^Request/ })).toHaveText("Request (as received, with the gateway's rewrites)");
  await expect(titles.filter({ hasText: /^Response/ })).toHaveText('Response');
  expect(consoleErrors).toEqual([]);
});
