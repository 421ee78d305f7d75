import type { Page, Route } from '@playwright/test';
import { expect, openSignedIn, test } from './fixtures.js';

const HOUR = 3_600_000;

/** One usage point: a bucket for one model, its other figures zero. */
function point(
  bucketStart: number,
  model: string,
  figures: { requests: number; total_tokens: number; cost_usd: number },
) {
  return {
    bucket_start: new Date(bucketStart).toISOString(),
    group: model,
    label: null,
    errors: 0,
    prompt_tokens: figures.total_tokens,
    completion_tokens: 0,
    cache_read_prompt_tokens: 0,
    cache_write_prompt_tokens: 0,
    reasoning_tokens: 0,
    avg_latency_ms: 40,
    ...figures,
  };
}

/** Answers Usage's reads with two models in this hour and one in the hour before, whatever the gateway counted. */
async function answerUsage(route: Route): Promise<void> {
  const query = new URL(route.request().url()).searchParams;
  const now = Date.now();
  const hour = Math.floor(now / HOUR) * HOUR;
  const data = [
    point(hour - HOUR, 'model-a', { requests: 2, total_tokens: 300, cost_usd: 0.25 }),
    point(hour, 'model-a', { requests: 3, total_tokens: 1_200, cost_usd: 1.5 }),
    point(hour, 'model-b', { requests: 1, total_tokens: 45_000, cost_usd: 0.75 }),
  ];
  const totals = {
    requests: 6,
    errors: 0,
    prompt_tokens: 46_500,
    completion_tokens: 0,
    total_tokens: 46_500,
    cache_read_prompt_tokens: 0,
    cache_write_prompt_tokens: 0,
    reasoning_tokens: 0,
    cost_usd: 2.5,
    avg_latency_ms: 40,
  };
  await route.fulfill({
    json: {
      group_by: query.get('group_by') ?? 'model',
      bucket: query.get('bucket') ?? 'hour',
      since: query.get('since') ?? new Date(now - 24 * HOUR).toISOString(),
      until: new Date(now).toISOString(),
      data,
      totals,
    },
  });
}

/** What the chart's hover read-out says about its last bar: the period, and each series' name and value. */
async function lastBarReadout(
  page: Page,
  chart: string,
): Promise<{ period: string; names: string[]; values: string[] }> {
  // The bar drawn over the bucket's hit area takes the pointer; the bucket's group shows the read-out either way.
  await page.getByTestId(chart).locator('.chart-hit').last().hover({ force: true });
  const tooltip = page.getByTestId(chart).locator('.chart-tooltip');
  await expect(tooltip).toBeVisible();
  return {
    period: (await tooltip.locator('.chart-tooltip-title').textContent())!,
    names: await tooltip.locator('.chart-tooltip-row .truncate').allTextContents(),
    values: await tooltip.locator('.chart-tooltip-row .mono').allTextContents(),
  };
}

test('usage: "Show as table" lists each chart per period with the values the chart shows, by keyboard, kept for the tab', async ({
  page,
}) => {
  await page.route('**/internal/usage?**', answerUsage);
  await openSignedIn(page, 'gateway/usage');
  const requests = await lastBarReadout(page, 'chart-requests');
  const tokens = await lastBarReadout(page, 'chart-total_tokens');
  expect(requests).toMatchObject({ names: ['model-a', 'model-b'], values: ['3', '1'] });

  // Reached with Tab from the range just before it, and switched with Enter.
  await page.getByRole('radio', { name: '24 hours' }).focus();
  await page.keyboard.press('Tab');
  const toggle = page.getByRole('button', { name: 'Show as table' });
  await expect(toggle).toBeFocused();
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');

  const table = page.getByRole('table', { name: 'Requests over time' });
  await expect(table).toBeVisible();
  await expect(page.getByTestId('chart-requests').locator('svg')).toHaveCount(0);
  await expect(table.getByRole('columnheader')).toHaveText(['Period', 'model-a', 'model-b', 'Total']);
  const rows = table.getByRole('row');
  // A heading row, then one row per hour of the range, the current one last.
  expect(await rows.count()).toBeGreaterThanOrEqual(25);
  const last = rows.last();
  await expect(last.getByRole('rowheader')).toHaveText(requests.period);
  await expect(last.getByRole('cell')).toHaveText(['3', '1', '4']);
  await expect(rows.nth(-2).getByRole('cell')).toHaveText(['2', '0', '2']);
  const tokenRow = page.getByRole('table', { name: 'Tokens over time' }).getByRole('row').last();
  await expect(tokenRow.getByRole('rowheader')).toHaveText(tokens.period);
  await expect(tokenRow.getByRole('cell')).toHaveText([...tokens.values, /\d/]);
  await expect(
    page.getByRole('table', { name: 'Cost over time' }).getByRole('row').last().getByRole('cell'),
  ).toHaveText(['$1.50', '$0.75', '$2.25']);
  await expect(page.getByRole('table', { name: 'Errors over time' })).toBeVisible();

  // Past Download CSV beside the toggle, the table's frame is the next Tab stop, so a long table scrolls
  // from the keyboard.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Download CSV' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('region', { name: 'Requests over time' })).toBeFocused();

  // Kept for the tab: a reload shows the tables again; switched off, the charts come back.
  await page.reload();
  await expect(page.getByRole('table', { name: 'Requests over time' })).toBeVisible();
  await page.getByRole('button', { name: 'Show as table' }).click();
  await expect(page.getByRole('button', { name: 'Show as table' })).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByRole('img', { name: 'Requests over time' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Requests over time' })).toHaveCount(0);
});
