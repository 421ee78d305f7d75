import OpenAI from 'openai';
import { startChatUpstream, type ChatUpstream } from './chat-upstream.js';
import { expect, test } from './fixtures.js';
import { startOwnServer, type OwnServer } from './own-server.js';

const MASTER = 'mk-traffic-usage-e2e-0123456789abcd';
const STORE_TOKEN = 'st-traffic-usage-e2e-0123456789abcd';
const UPSTREAM_PORT = 19650;

let upstream: ChatUpstream;
let server: OwnServer;

/**
 * A priced model on that upstream, with PII masked, an answer pattern that stops answers and the cache on:
 * each request below ends one way, and only this test's requests are in the server's traffic and usage.
 */
test.beforeAll(async () => {
  // Every chat is answered with its last message's text, so an answer pattern can be made to match by asking for it.
  upstream = await startChatUpstream({
    port: UPSTREAM_PORT,
    answer: (body) => String(body.messages?.at(-1)?.content ?? ''),
  });
  server = await startOwnServer(
    'traffic-usage',
    {
      llm: { allowed_models: ['priced-mini'] },
      deployments: [
        {
          model: 'priced-mini',
          provider: 'openai',
          upstream_model: 'mini',
          base_url: `http://127.0.0.1:${UPSTREAM_PORT}/v1`,
          api_key: 'sk-outcomes-e2e',
        },
      ],
      pricing: { 'priced-mini': { input_per_mtok: 1, output_per_mtok: 2 } },
      pii: { models: { 'priced-mini': { mode: 'mask' } } },
      content_policy: { blocked_answer_patterns: ['SECRET-\\d+'] },
      cache: { enabled: true },
    },
    { PROXY_MASTER_KEY: MASTER, STORE_TOKEN, GATEWAY_PORT: '19651', STORE_PORT: '19652' },
  );
  const admin = (path: string, body: unknown) =>
    fetch(`${server.urls.gateway}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${MASTER}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  // A team budget smaller than one request's output reservation: its key's request is refused (team_daily).
  expect((await admin('/internal/teams', { id: 'tight', tpd_budget: 10 })).status).toBe(201);
  const issue = async (body: object) => {
    const issued = await admin('/internal/api-keys', { scopes: ['chat'], ...body });
    expect(issued.status).toBe(201);
    const { key } = (await issued.json()) as { key: string };
    return new OpenAI({ baseURL: `${server.urls.gateway}/v1`, apiKey: key, maxRetries: 0 });
  };
  const tight = await issue({ name: 'tight-key', team: 'tight' });
  const open = await issue({ name: 'open-key' });
  const chat = (client: OpenAI, content: string) =>
    client.chat.completions.create({ model: 'priced-mini', temperature: 0, messages: [{ role: 'user', content }] });

  await expect(chat(tight, 'over the team budget')).rejects.toMatchObject({ status: 429 });
  await chat(open, 'write to jane.roe@example.com');
  await chat(open, 'the same question twice');
  expect((await chat(open, 'the same question twice')).choices[0]?.message.content).toBe('the same question twice');
  expect((await chat(open, 'say SECRET-42')).choices[0]?.finish_reason).toBe('content_filter');
});

test.afterAll(async () => {
  await server?.stop();
  await upstream?.close();
});

test('live traffic: a refusal costs "—", and the text filter finds limit refusals, PII, cache hits and stopped answers', async ({
  page,
}) => {
  await server.openSignedIn(page, 'gateway/traffic');
  const rows = page.getByTestId('traffic-row');
  await expect(rows).toHaveCount(5);

  // The refusal spent nothing: no cost, rather than a "$0" that reads like a free answer.
  const refused = rows.filter({ hasText: 'tight-key' });
  await expect(refused.locator('.col-status')).toContainText('429');
  await expect(refused.locator('.col-cost')).toHaveText('—');

  const filter = page.getByLabel('Filter requests');
  const found = async (text: string, expected: string) => {
    await filter.fill(text);
    await expect(rows, `filter "${text}"`).toHaveCount(1);
    await expect(rows).toContainText(expected);
  };
  await found('team_daily', 'tight-key');
  await found('budget', 'tight-key');
  await found('pii', 'open-key');
  await found('email', 'open-key');
  await found('cached', 'cached');
  await found('stopped', 'open-key');
  // The stopped answer is marked in its row, as a cache hit is.
  await expect(rows.locator('.col-status')).toContainText('stopped');
  await expect(rows.locator('.col-status .traffic-flag')).toHaveAttribute(
    'title',
    'Answer stopped: blocked answer pattern "SECRET-\\d+" matched in choices[0].message.content',
  );
});

test('usage: refusals by limits stand apart from the errors, and hourly times read as times', async ({ page }) => {
  await server.openSignedIn(page, 'gateway/usage?range=7d');
  const totals = page.getByTestId('usage-totals');
  await expect(totals.locator('.stat').filter({ hasText: 'Refused by limits' })).toContainText('Refused by limits1');
  await expect(totals.locator('.stat').filter({ hasText: 'Errors' })).toContainText('refusals included');

  await page.getByRole('button', { name: 'Show as table' }).click();
  const periods = page.getByRole('table', { name: 'Requests over time' }).locator('tbody th[scope="row"]');
  await expect(periods.first()).toHaveText(/^[A-Z][a-z]{2} \d{1,2} \d{2}:00$/);
});
