import { expect, gatewayAdmin, openSignedIn, saveScreenshot, test } from './fixtures.js';

/** The DOM members the in-page checks use: this file is type-checked without the DOM library. */
interface PageElement {
  readonly scrollWidth: number;
  readonly clientWidth: number;
  getBoundingClientRect(): { readonly top: number; readonly bottom: number; readonly width: number };
}

/**
 * A key named at the length the admin API allows (200 characters), with `requests` requests of its own:
 * enough to rank among the busiest keys of a shared test run, which the charts name one by one.
 */
async function keyNamedAtLength(gatewayUrl: string, prefix: string, requests = 1): Promise<string> {
  const name = `${prefix}-${Date.now()}-`.padEnd(200, 'x');
  const response = await gatewayAdmin('/internal/api-keys', 'POST', { name });
  expect(response.status).toBe(201);
  const { key } = (await response.json()) as { key: string };
  const chat = async (): Promise<number> => {
    const answer = await fetch(`${gatewayUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'demo/echo', messages: [{ role: 'user', content: 'a long name' }] }),
    });
    await answer.arrayBuffer();
    return answer.status;
  };
  for (let sent = 0; sent < requests; sent += 10) {
    const statuses = await Promise.all(Array.from({ length: Math.min(10, requests - sent) }, chat));
    expect(statuses.every((status) => status === 200)).toBe(true);
  }
  return name;
}

test('usage: a 200-character key name in a chart legend is cut short on one line, whole in its tooltip, its colour kept', async ({
  page,
  app,
}) => {
  const name = await keyNamedAtLength(app.gatewayUrl, 'long-legend', 100);
  await openSignedIn(page, 'gateway/usage');
  await page.getByRole('radio', { name: 'Per key' }).click();
  const item = page.getByTestId('chart-requests').locator('.legend-item').filter({ hasText: name });
  await expect(item).toBeVisible();
  await expect(item).toHaveAttribute('title', name);

  const label = item.locator('.mono');
  const [labelBox, swatchBox] = await Promise.all([
    label.evaluate((element: PageElement) => ({
      cut: element.scrollWidth > element.clientWidth,
      height: element.getBoundingClientRect().bottom - element.getBoundingClientRect().top,
    })),
    item.locator('.legend-swatch').evaluate((element: PageElement) => element.getBoundingClientRect().width),
  ]);
  expect(labelBox.cut, 'the name is cut short').toBe(true);
  // One line of the legend's text, not four.
  expect(labelBox.height).toBeLessThan(24);
  expect(swatchBox, 'the colour swatch keeps its size').toBe(10);
  await saveScreenshot(page, 'usage-long-key-name');
});

test('live traffic: a 200-character key name keeps the Key filter narrow and the request count on the toolbar’s line', async ({
  page,
  app,
}) => {
  // A laptop's window, where the toolbar holds every filter and the count on one line with short names.
  await page.setViewportSize({ width: 1280, height: 800 });
  await openSignedIn(page, 'gateway/traffic');
  const name = await keyNamedAtLength(app.gatewayUrl, 'long-filter');
  const keyFilter = page.getByRole('combobox', { name: 'Key' });
  await expect(keyFilter.locator('option', { hasText: name })).toHaveCount(1);
  await keyFilter.selectOption({ label: name });
  await expect(page.getByTestId('traffic-row')).toHaveCount(1);
  // The chosen key, cut short in the closed filter, is whole in its tooltip.
  await expect(keyFilter).toHaveAttribute('title', name);

  const toolbar = page.locator('header.toolbar').filter({ has: keyFilter });
  const count = toolbar.locator('.toolbar-end');
  await expect(count).toContainText('request');
  const [filterBox, countBox, pauseBox] = await Promise.all([
    keyFilter.evaluate((element: PageElement) => element.getBoundingClientRect()),
    count.evaluate((element: PageElement) => element.getBoundingClientRect()),
    page.getByTestId('pause-traffic').evaluate((element: PageElement) => element.getBoundingClientRect()),
  ]);
  expect(filterBox.width, 'the Key filter is cut short, not as wide as the name').toBeLessThanOrEqual(176);
  // The count stays on the line of the toolbar's first controls rather than dropping under them.
  expect(countBox.top).toBeLessThan(pauseBox.bottom);
  expect(countBox.bottom).toBeGreaterThan(pauseBox.top);
  await saveScreenshot(page, 'traffic-long-key-name');
});
