import type { Locator } from '@playwright/test';
import { expect, gatewayAdmin, openSignedIn, test } from './fixtures.js';

/**
 * A laptop's window: whose key each is stays on the Keys screen when the Owner column gives way, and a
 * key whose team's budget has less left than one request needs says it is refusing requests, beside
 * the key's status, where the row's sticky buttons never lie over it.
 */

/** Fails unless `target` is seen, left of its row's sticky buttons, with nothing drawn over its centre. */
async function expectClearOfActions(target: Locator): Promise<void> {
  await expect(target).toBeInViewport();
  const where = await target.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const actions = element.closest('tr')!.querySelector('.cell-actions')!.getBoundingClientRect();
    const hit = element.ownerDocument.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return { right: box.right, actionsLeft: actions.left, covered: hit === null || !element.contains(hit) };
  });
  expect(where.covered).toBe(false);
  expect(where.right).toBeLessThanOrEqual(where.actionsLeft + 0.5);
}

for (const [width, height] of [
  [1280, 800],
  [1024, 700],
] as const) {
  test(`keys at ${width} × ${height}: the owner and a refusing budget are in view`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    const tag = `kstat${width}x${Date.now()}`;
    // 200 tokens a day: less than a minimal prompt and the 256 output tokens a request without max_tokens reserves.
    expect((await gatewayAdmin('/internal/teams', 'POST', { id: `${tag}-team`, tpd_budget: 200 })).status).toBe(201);
    const created = await gatewayAdmin('/internal/api-keys', 'POST', {
      name: `${tag}-key`,
      user: `${tag}-user`,
      team: `${tag}-team`,
      scopes: ['chat'],
      usd_daily_budget: 5,
      usd_monthly_budget: 50,
    });
    expect(created.status).toBe(201);

    await openSignedIn(page, `gateway/keys?q=${tag}`);
    const row = page
      .getByTestId('keys-table')
      .getByRole('row')
      .filter({ hasText: `${tag}-key` });
    // Under the key's name where the Owner column gave way, else in it: seen either way.
    for (const owner of [`${tag}-user`, `${tag}-team`]) {
      const shown = row.getByText(owner).filter({ visible: true }).first();
      await expect(shown).toBeVisible();
      await expect(shown).toBeInViewport({ ratio: 1 });
    }

    const refusing = row.getByText('Refusing requests', { exact: true });
    await expect(refusing).toBeVisible();
    await expect(row.getByTestId('key-refusing')).toHaveAttribute(
      'title',
      new RegExp(`^Refusing requests: team ${tag}-team token budget per day: 200 left, below one request's estimate`),
    );
    await expectClearOfActions(refusing);
    await expectClearOfActions(row.getByText('Active', { exact: true }));
    await expectClearOfActions(row.getByText('never used', { exact: true }));
    await expect(row.getByTestId('limit-meter-refusing')).toBeVisible();

    // The key's daily and monthly spend budgets read differently, even cut short.
    const daily = row
      .locator('[data-limit-type="key_cost_daily"] .limit-meter-text > .truncate')
      .filter({ visible: true });
    const monthly = row
      .locator('[data-limit-type="key_cost_monthly"] .limit-meter-text > .truncate')
      .filter({ visible: true });
    await expect(daily).toHaveText('key $/day');
    await expect(monthly).toHaveText(/^key \$\/mo/);
    await expect(daily).toHaveAttribute('title', 'key spend budget per day');
  });
}
