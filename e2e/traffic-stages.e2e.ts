import type { Locator, Page } from '@playwright/test';
import { expect, gatewayAdmin, openSignedIn, saveScreenshot, test } from './fixtures.js';

type Overrides = Record<string, Record<string, unknown>>;

/** Sets (or, with `undefined`, removes) one key's override of a guardrails setting, keeping the others'. */
async function overrideKey(path: '/internal/pii' | '/internal/content-policy', id: string, rule?: object) {
  const { keys } = (await (await gatewayAdmin(path)).json()) as { keys: Overrides };
  const next: Overrides = { ...keys };
  if (rule === undefined) delete next[id];
  else next[id] = { ...rule };
  const saved = await gatewayAdmin(path, 'PUT', { keys: next });
  expect(saved.status).toBe(200);
}

/** A key with PII redacted and a blocked pattern of its own, and perhaps limits. */
async function guardedKey(name: string, pattern: string, limits: object = {}): Promise<{ id: string; key: string }> {
  const issued = await gatewayAdmin('/internal/api-keys', 'POST', { name, ...limits });
  expect(issued.status).toBe(201);
  const key = (await issued.json()) as { id: string; key: string };
  await overrideKey('/internal/pii', key.id, { mode: 'redact' });
  await overrideKey('/internal/content-policy', key.id, { blocked_patterns: [pattern] });
  return key;
}

/** One chat request; the status it got. */
async function chat(gatewayUrl: string, key: string, content: string, model = 'demo/echo'): Promise<number> {
  const response = await fetch(`${gatewayUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content }] }),
  });
  await response.arrayBuffer();
  return response.status;
}

/** What the drawer says beside one of its labels. */
const detail = (page: Page, label: string): Locator =>
  page
    .getByTestId('traffic-drawer')
    .locator('.detail-item')
    .filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) })
    .locator('dd');

test('live traffic: the stages a refused request never reached say so, and a 429 names the limit that refused it', async ({
  page,
  app,
}) => {
  const stamp = Date.now();
  const pattern = `stages-blocked-${stamp}`;
  const guarded = await guardedKey(`stages-guarded-${stamp}`, pattern);
  const limited = await guardedKey(`stages-limited-${stamp}`, pattern, { rpm_limit: 1 });
  try {
    expect(await chat(app.gatewayUrl, guarded.key, 'write to jane.roe@example.com')).toBe(200);
    expect(await chat(app.gatewayUrl, guarded.key, `say ${pattern}`)).toBe(400);
    expect(await chat(app.gatewayUrl, guarded.key, 'hi', `nope/stages-${stamp}`)).toBe(400);
    expect(await chat(app.gatewayUrl, limited.key, 'first')).toBe(200);
    expect(await chat(app.gatewayUrl, limited.key, 'second')).toBe(429);

    await openSignedIn(page, 'gateway/traffic');
    const rows = page.getByTestId('traffic-row');
    const drawer = page.getByTestId('traffic-drawer');
    const open = async (row: Locator): Promise<void> => {
      await row.click();
      await expect(drawer).toBeVisible();
    };
    const guardedRows = rows.filter({ hasText: `stages-guarded-${stamp}` });

    // Passed every stage: each says what it did.
    await open(guardedRows.filter({ has: page.locator('.status-2xx') }));
    await expect(detail(page, 'PII')).toContainText('redact');
    await expect(detail(page, 'PII')).toContainText('email ×1');
    await expect(detail(page, 'Content policy')).toHaveText('passed');

    // Refused by the content policy: the PII stage, which runs after it, never saw the request.
    await open(guardedRows.filter({ hasText: 'demo/echo' }).filter({ has: page.locator('.status-4xx') }));
    await expect(page.getByTestId('guardrails-blocked')).toContainText(pattern);
    await expect(detail(page, 'Content policy')).toHaveText('refused');
    await expect(detail(page, 'PII')).toHaveText('not reached');
    await expect(detail(page, 'Limits')).not.toHaveText('not reached');

    // Refused before its model resolved: none of the three ran.
    await open(guardedRows.filter({ hasText: `nope/stages-${stamp}` }));
    for (const label of ['Limits', 'Content policy', 'PII'])
      await expect(detail(page, label)).toHaveText('not reached');

    // Refused by the limits stage: it names the limit; the stages after it never ran.
    await open(rows.filter({ hasText: `stages-limited-${stamp}` }).filter({ hasText: '429' }));
    await expect(detail(page, 'Limits')).toHaveText('refused: Requests per minute');
    await expect(detail(page, 'Content policy')).toHaveText('not reached');
    await expect(detail(page, 'PII')).toHaveText('not reached');
    await saveScreenshot(page, 'traffic-drawer-rate-limited');
  } finally {
    for (const key of [guarded, limited]) {
      await overrideKey('/internal/pii', key.id);
      await overrideKey('/internal/content-policy', key.id);
    }
  }
});

test('live traffic: the request body is named for what it is, the client’s body with the gateway’s rewrites', async ({
  page,
  app,
}) => {
  const name = `stages-body-${Date.now()}`;
  const issued = await gatewayAdmin('/internal/api-keys', 'POST', { name });
  const { key } = (await issued.json()) as { key: string };
  expect(await chat(app.gatewayUrl, key, 'which body is this')).toBe(200);
  await openSignedIn(page, 'gateway/traffic');
  await page.getByTestId('traffic-row').filter({ hasText: name }).click();
  const drawer = page.getByTestId('traffic-drawer');
  await expect(drawer).toContainText('which body is this');
  await expect(drawer.locator('.section-title').first()).toHaveText(
    "Request (as received, with the gateway's rewrites)",
  );
  await expect(drawer).toContainText('What the provider received');
  await expect(drawer).not.toContainText('as forwarded');
});
