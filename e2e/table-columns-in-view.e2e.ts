import OpenAI from 'openai';
import type { Locator, Page } from '@playwright/test';
import { allowModel, expect, gatewayAdmin, openSignedIn, test } from './fixtures.js';

/**
 * A table narrower than its content scrolls sideways under its sticky row buttons. What an admin most
 * needs (a key's status and limits, a deployment's health) must not be what lies under them: in a
 * laptop's window and at 200 % zoom, lower-value columns give way instead, so these are seen without
 * scrolling the table.
 */

/** Fails unless `target` is seen whole, left of the row's buttons, and nothing else is drawn over its centre. */
async function expectInView(target: Locator): Promise<void> {
  await expect(target).toBeVisible();
  const where = await target.evaluate((element) => {
    const frame = element.closest('.data-table-scroll')!;
    // Brings the row up the page only: the table stays scrolled to its start, as an admin first sees it.
    element.scrollIntoView({ block: 'center', inline: 'nearest' });
    frame.scrollLeft = 0;
    const box = element.getBoundingClientRect();
    const frameBox = frame.getBoundingClientRect();
    const actions = element.closest('tr')!.querySelector('.cell-actions')?.getBoundingClientRect();
    const hit = element.ownerDocument.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return {
      covered: hit === null || !element.contains(hit),
      coveredBy: hit?.textContent?.slice(0, 60) ?? null,
      left: box.left,
      right: box.right,
      frameLeft: frameBox.left,
      visibleRight: Math.min(frameBox.right, actions?.left ?? frameBox.right),
    };
  });
  expect(where.covered, `covered by ${where.coveredBy}`).toBe(false);
  expect(where.left).toBeGreaterThanOrEqual(where.frameLeft);
  expect(where.right).toBeLessThanOrEqual(where.visibleRight + 0.5);
}

async function keyWithBudget(page: Page, tag: string): Promise<string> {
  const created = await gatewayAdmin('/internal/api-keys', 'POST', {
    name: `${tag}-key`,
    scopes: ['chat'],
    usd_daily_budget: 5,
    tpm_limit: 100_000,
  });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: string };
  await openSignedIn(page, `gateway/keys?q=${tag}`);
  return id;
}

test('at 1024 × 768 a key’s status is in view, not under its row buttons', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  const tag = `inview${Date.now()}`;
  const id = await keyWithBudget(page, tag);
  const row = page
    .getByTestId('keys-table')
    .getByRole('row')
    .filter({ hasText: `${tag}-key` });
  await expectInView(row.getByText('Active', { exact: true }));
  await expectInView(page.getByTestId(`key-limits-${id}`));
});

test('at 640 px wide (200 % zoom of a laptop) a key’s limits and status are in view', async ({ page }) => {
  await page.setViewportSize({ width: 640, height: 768 });
  const tag = `narrow${Date.now()}`;
  const id = await keyWithBudget(page, tag);
  const row = page
    .getByTestId('keys-table')
    .getByRole('row')
    .filter({ hasText: `${tag}-key` });
  await expectInView(page.getByTestId(`key-limits-${id}`));
  await expectInView(row.getByText('Active', { exact: true }));
});

test('at 1024 × 768 a failing deployment’s health is in view, not under its row buttons', async ({ page, app }) => {
  const model = `inview-${Date.now()}`;
  const before = await allowModel(model);
  try {
    // Port 9 has no listener on loopback: every call is refused at once, and the health says why at length.
    const saved = await gatewayAdmin('/internal/deployments', 'PUT', {
      deployments: [
        {
          id: 'inview-e2e',
          model,
          provider: 'openai_compatible',
          base_url: 'http://127.0.0.1:9/v1',
          max_retries: 0,
          timeout_ms: 30_000,
          weight: 3,
        },
      ],
    });
    expect(saved.status).toBe(200);
    const issued = (await (await gatewayAdmin('/internal/api-keys', 'POST', { name: 'inview-health' })).json()) as {
      key: string;
    };
    const client = new OpenAI({ baseURL: `${app.gatewayUrl}/v1`, apiKey: issued.key, maxRetries: 0 });
    for (let i = 0; i < 3; i += 1) {
      await client.chat.completions
        .create({ model, messages: [{ role: 'user', content: 'x' }] })
        .catch(() => undefined);
    }

    await page.setViewportSize({ width: 1024, height: 768 });
    await openSignedIn(page, 'gateway/models');
    const row = page.getByTestId('deployments-table').getByRole('row').filter({ hasText: 'inview-e2e' });
    await expect(row).toContainText('Cooling down');
    await expectInView(row.locator('.health-state'));
  } finally {
    await gatewayAdmin('/internal/deployments', 'PUT', { reset: true });
    await gatewayAdmin('/internal/models', 'PUT', { allowed_models: before });
  }
});

test('at 640 px wide a user’s and a team’s limits are in view on Users & teams', async ({ page }) => {
  await page.setViewportSize({ width: 640, height: 768 });
  const team = `inview-team-${Date.now()}`;
  const user = `inview-user-${Date.now()}`;
  expect(
    (
      await gatewayAdmin('/internal/teams', 'POST', {
        id: team,
        rpm_limit: 100,
        tpd_budget: 100_000,
        usd_daily_budget: 5,
      })
    ).status,
  ).toBe(201);
  expect(
    (await gatewayAdmin('/internal/users', 'POST', { id: user, team, rpm_limit: 50, tpd_budget: 20_000 })).status,
  ).toBe(201);
  await openSignedIn(page, 'gateway/people');
  for (const [table, name] of [
    ['teams-table', team],
    ['users-table', user],
  ] as const) {
    const row = page.getByTestId(table).getByRole('row').filter({ hasText: name });
    await expectInView(row.locator('.limit-meters'));
  }
});
