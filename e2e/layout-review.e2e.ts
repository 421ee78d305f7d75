import type { Locator, Page } from '@playwright/test';
import { expect, gatewayAdmin, openSignedIn, test } from './fixtures.js';

/** The few DOM members the in-page checks use: this file is type-checked without the DOM library. */
interface Rect {
  readonly left: number;
  readonly right: number;
  readonly width: number;
}
interface PageElement {
  readonly textContent: string | null;
  readonly scrollWidth: number;
  readonly clientWidth: number;
  getBoundingClientRect(): Rect;
}

/** A column header as laid out: its text, box and whether its text is cut. */
interface Column {
  readonly name: string;
  readonly left: number;
  readonly right: number;
  readonly width: number;
  readonly clipped: boolean;
}

/** The traffic table's visible column headers, left to right. */
async function columns(page: Page): Promise<Column[]> {
  return page.locator('.traffic-head > span').evaluateAll((cells: PageElement[]) =>
    cells
      .map((cell) => {
        const box = cell.getBoundingClientRect();
        return {
          name: (cell.textContent ?? '').trim(),
          left: box.left,
          right: box.right,
          width: box.width,
          clipped: cell.scrollWidth > cell.clientWidth + 1,
        };
      })
      .filter((column) => column.width > 0),
  );
}

/** Whether an element's text is cut short (ellipsis) in its box. */
function isCut(cell: Locator): Promise<boolean> {
  return cell.evaluate((element: PageElement) => element.scrollWidth > element.clientWidth + 1);
}

/** Sends one chat request with a fresh key; its request id. */
async function sendRequest(gatewayUrl: string, keyName: string): Promise<string> {
  const issued = await gatewayAdmin('/internal/api-keys', 'POST', { name: keyName });
  expect(issued.status).toBe(201);
  const { key } = (await issued.json()) as { key: string };
  const response = await fetch(`${gatewayUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'demo/echo', messages: [{ role: 'user', content: 'layout check' }] }),
  });
  expect(response.status).toBe(200);
  return response.headers.get('x-request-id')!;
}

/** Every visible column is wide enough to read, shows its whole header and stays clear of the next. */
function expectReadable(shown: readonly Column[], where: string): void {
  const names = shown.map((column) => column.name);
  for (const essential of ['Key', 'Endpoint', 'Model', 'Status']) expect(names, where).toContain(essential);
  for (const [index, column] of shown.entries()) {
    expect(column.width, `${column.name} width ${where}`).toBeGreaterThanOrEqual(56);
    expect(column.clipped, `${column.name} header cut ${where}`).toBe(false);
    const next = shown[index + 1];
    if (next) expect(column.right, `${column.name} runs into ${next.name} ${where}`).toBeLessThanOrEqual(next.left);
  }
}

test('live traffic keeps its columns readable beside the drawer from 1024 to 1280 px', async ({ page, app }) => {
  const requestId = await sendRequest(app.gatewayUrl, 'laptop');
  for (const width of [1024, 1152, 1280]) {
    await page.setViewportSize({ width, height: 760 });
    await openSignedIn(page, 'gateway/traffic');
    const row = page.locator(`[data-testid="traffic-row"][data-request-id="${requestId}"]`);
    await row.click();
    const drawer = page.getByTestId('traffic-drawer');
    await expect(drawer).toBeVisible();

    const where = `at ${width} px with the drawer open`;
    const shown = await columns(page);
    expectReadable(shown, where);
    expect(shown.find((column) => column.name === 'Key')!.width, `Key width ${where}`).toBeGreaterThanOrEqual(72);

    // The list ends where the drawer starts, and the drawer is on screen with room for its details.
    const list = (await page.getByTestId('traffic-list').boundingBox())!;
    const panel = (await drawer.boundingBox())!;
    expect(list.x + list.width, where).toBeLessThanOrEqual(panel.x + 1);
    expect(panel.x + panel.width, where).toBeLessThanOrEqual(width);
    expect(panel.width, `drawer width ${where}`).toBeGreaterThanOrEqual(320);

    // The row's endpoint and model are shown whole, under their headers.
    const endpoint = row.locator('.col-endpoint');
    await expect(endpoint).toHaveText('/v1/chat/completions');
    expect(await isCut(endpoint), `endpoint cut ${where}`).toBe(false);
    expect(await isCut(row.locator('.col-model')), `model cut ${where}`).toBe(false);
    const header = shown.find((column) => column.name === 'Endpoint')!;
    expect(
      Math.abs((await endpoint.boundingBox())!.x - header.left),
      `endpoint under its header ${where}`,
    ).toBeLessThan(1);
    await page.screenshot({ path: `e2e/artifacts/traffic-drawer-${width}.png` });

    // Closed, the list has the whole width and shows more columns, still readable.
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    const wide = await columns(page);
    expectReadable(wide, `at ${width} px without the drawer`);
    expect(wide.length).toBeGreaterThan(shown.length);
  }
});
