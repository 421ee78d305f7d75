import type { Locator, Page } from '@playwright/test';
import { expect, gatewayAdmin, openSignedIn, storeCall, test } from './fixtures.js';
import { apply, freshNamespace, screen } from './store-helpers.js';

/** The few DOM members the in-page checks use: this file is type-checked without the DOM library. */
interface Rect {
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly width: number;
}
interface PageNode {
  readonly textContent: string | null;
}
interface PageElement extends PageNode {
  readonly scrollWidth: number;
  readonly clientWidth: number;
  getBoundingClientRect(): Rect;
}
interface PageDocument {
  createRange(): {
    setStart(node: PageNode, offset: number): void;
    setEnd(node: PageNode, offset: number): void;
    getClientRects(): ArrayLike<Rect>;
  };
  createTreeWalker(root: PageElement, show: number): { nextNode(): PageNode | null };
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

/**
 * Where the lines of an element's text break: for each break, the characters either side. Read from
 * the layout (the line box of each character), so it holds whatever the markup.
 */
function lineBreaks(element: Locator): Promise<string[]> {
  return element.evaluate((root: PageElement) => {
    const { document } = globalThis as unknown as { document: PageDocument };
    const walker = document.createTreeWalker(root, 4 /* text nodes */);
    const chars: { char: string; top: number }[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      for (let index = 0; index < text.length; index += 1) {
        const range = document.createRange();
        range.setStart(node, index);
        range.setEnd(node, index + 1);
        const rect = range.getClientRects()[0];
        if (rect) chars.push({ char: text[index]!, top: rect.top });
      }
    }
    const breaks: string[] = [];
    for (let index = 1; index < chars.length; index += 1) {
      if (chars[index]!.top > chars[index - 1]!.top + 2) breaks.push(`${chars[index - 1]!.char}|${chars[index]!.char}`);
    }
    return breaks;
  });
}

/** A break is sensible after the scheme's `//` or before a port, path, query or fragment. */
const SENSIBLE_BREAK = /^\/\|.|^.\|[:/?#]$/;

async function expectInside(inner: Locator, outer: Locator, what: string): Promise<void> {
  const a = (await inner.boundingBox())!;
  const b = (await outer.boundingBox())!;
  expect(a.x, `${what}: left edge`).toBeGreaterThanOrEqual(b.x);
  expect(a.x + a.width, `${what}: right edge`).toBeLessThanOrEqual(b.x + b.width);
}

test('overview: addresses never break inside a number and the copy button stays in its card', async ({ page }) => {
  for (const width of [1024, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await openSignedIn(page, '');
    const gateway = page.getByTestId('service-gateway');
    const store = page.getByTestId('service-store');
    await expect(gateway).toContainText('Healthy');

    const baseUrls = [];
    for (const sdk of ['OpenAI', 'Anthropic']) {
      const baseUrl = gateway.locator('.snippet', { hasText: `${sdk} base URL` });
      const copy = baseUrl.getByRole('button', { name: `Copy ${sdk} base URL` });
      await expect(copy).toBeVisible();
      await expectInside(baseUrl, gateway, `${sdk} base URL at ${width} px`);
      await expectInside(copy, gateway, `${sdk} copy button at ${width} px`);
      await expectInside(copy, baseUrl, `${sdk} copy button in its snippet at ${width} px`);
      // Nothing (the next card) is drawn over the button: a click at its centre reaches it.
      await copy.click({ trial: true });
      baseUrls.push(baseUrl.locator('code').first());
    }
    // Anthropic's SDKs add /v1 themselves; OpenAI's expect it in the base URL.
    await expect(baseUrls[0]!).toHaveText(/\/v1$/);
    await expect(baseUrls[1]!).toHaveText(/:\d+$/);

    const addresses = [gateway.locator('dd').first(), store.locator('dd').first(), ...baseUrls];
    for (const address of addresses) {
      await expect(address).toHaveText(/^http:\/\/127\.0\.0\.1:\d+(\/v1)?$/);
      const breaks = await lineBreaks(address);
      for (const at of breaks) expect(at, `${await address.textContent()} at ${width} px`).toMatch(SENSIBLE_BREAK);
      await expectInside(address, address.locator('xpath=ancestor::section[1]'), `address at ${width} px`);
    }
    await page.screenshot({ path: `e2e/artifacts/overview-${width}.png` });
  }
});

test('sign-in: the two addresses break only between their parts', async ({ page, app }) => {
  await page.goto(app.uiUrl);
  const addresses = page.locator('.login-subtitle code');
  await expect(addresses).toHaveText([app.gatewayUrl, app.storeUrl].map((url) => url.replace(/\/$/, '')));
  for (const address of await addresses.all()) {
    const breaks = await lineBreaks(address);
    for (const at of breaks) expect(at, `${await address.textContent()}`).toMatch(SENSIBLE_BREAK);
  }
});

test('overview names readiness checks and their states in words, not API identifiers', async ({ page }) => {
  await openSignedIn(page, '');
  const gateway = page.getByTestId('service-gateway');
  const store = page.getByTestId('service-store');
  await expect(gateway.locator('dt')).toHaveText(['Address', 'Database', 'RAG index', 'Usage log']);
  await expect(store.locator('dt')).toHaveText(['Address', 'Database']);
  const state = (card: Locator, check: string): Locator =>
    card.locator('.detail-item', { has: page.locator('dt', { hasText: check }) }).locator('dd');
  await expect(state(gateway, 'RAG index')).toHaveText('Ready');
  await expect(state(gateway, 'Database')).toHaveText('Ready');
  await expect(state(store, 'Database')).toHaveText('Ready');
  for (const card of [gateway, store]) {
    const text = (await card.textContent()) ?? '';
    expect(text).not.toMatch(/\b[a-z]+_[a-z_]+\b/i);
    expect(text).not.toMatch(/\bok\b/);
  }
});

test('in a window narrower than the desktop minimum, the traffic drawer lies over the list and the diff keeps its width', async ({
  page,
  app,
}) => {
  await page.setViewportSize({ width: 800, height: 700 });
  const requestId = await sendRequest(app.gatewayUrl, 'narrow');
  await openSignedIn(page, `gateway/traffic?request=${requestId}`);
  const drawer = page.getByTestId('traffic-drawer');
  await expect(drawer).toBeVisible();
  const panel = (await drawer.boundingBox())!;
  expect(panel.x + panel.width, 'drawer right edge').toBeLessThanOrEqual(800);
  expect(panel.width, 'drawer width').toBeGreaterThanOrEqual(300);
  // Its buttons are on screen and work.
  await drawer.getByRole('button', { name: 'Copy as curl' }).click({ trial: true });
  await drawer.getByRole('button', { name: 'Close details' }).click();
  await expect(drawer).toBeHidden();

  const namespace = freshNamespace('narrow', 'diff');
  const lines = (word: string) =>
    Array.from({ length: 12 }, (_, index) => `line ${index} of the ${word} text`).join('\n');
  await apply(namespace, 'main', 'first', { 'notes/readme.md': lines('first') });
  await apply(namespace, 'main', 'second', { 'notes/readme.md': lines('second') });
  await openSignedIn(page, screen('history', namespace, 'main'));
  const diff = page.getByTestId('diff-view');
  await expect(diff).toBeVisible();
  // Above its list of changed documents rather than beside it: each side of the diff has room for words.
  expect((await diff.boundingBox())!.width, 'diff width').toBeGreaterThanOrEqual(300);
  await page.screenshot({ path: 'e2e/artifacts/narrow-800.png' });

  // Documents: the key list gives up width, and the open document's header still names it.
  await openSignedIn(page, screen('documents', namespace, 'main', '&key=notes%2Freadme.md'));
  const name = page.locator('.changes-diff-key', { hasText: 'notes/readme.md' });
  await expect(name).toBeVisible();
  expect((await name.boundingBox())!.width, 'document name width').toBeGreaterThanOrEqual(100);
  expect((await page.getByTestId('content-view').boundingBox())!.width, 'content width').toBeGreaterThanOrEqual(300);
  await page.screenshot({ path: 'e2e/artifacts/narrow-800-documents.png' });
});

test('checkpoints: a long name without spaces wraps, and the row buttons stay in view at 1280 px', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const namespace = freshNamespace('narrow', 'checkpoint');
  await apply(namespace, 'main', 'first', { 'a.txt': 'a' });
  const name = `feat-cp-${'x'.repeat(100)}`;
  await storeCall('/v1/checkpoints', { scope: { namespace, branch: 'main' }, name });
  await openSignedIn(page, screen('checkpoints', namespace, 'main'));
  for (const action of ['Roll back to', 'Delete']) {
    const button = page.getByRole('button', { name: `${action} ${name}` });
    await expect(button).toBeVisible();
    const box = (await button.boundingBox())!;
    expect(box.x + box.width, `${action} right edge`).toBeLessThanOrEqual(1280);
  }
});

test('documents: a long key keeps its icon and shows its end, the file name, cut at its start', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const namespace = freshNamespace('narrow', 'long-key');
  const key = `${'very-long-directory-name/'.repeat(6)}the-file-name.txt`;
  await apply(namespace, 'main', 'first', { [key]: 'x' });
  await openSignedIn(page, screen('documents', namespace, 'main'));
  const row = page.locator('.change-row', { hasText: 'the-file-name.txt' }).first();
  await expect(row).toBeVisible();
  expect((await row.locator('svg').first().boundingBox())!.width, 'icon width').toBeGreaterThanOrEqual(12);
  // The key's last character lies inside the visible box: its end is what shows.
  const lastCharVisible = await row.locator('.change-row-key').evaluate((box: PageElement) => {
    const doc = (globalThis as unknown as { document: PageDocument }).document;
    const text = doc.createTreeWalker(box, 4).nextNode()!;
    const range = doc.createRange();
    range.setStart(text, text.textContent!.length - 1);
    range.setEnd(text, text.textContent!.length);
    const char = range.getClientRects()[0]!;
    const frame = box.getBoundingClientRect();
    return char.left >= frame.left - 1 && char.right <= frame.right + 1;
  });
  expect(lastCharVisible).toBe(true);
});

test('live traffic: a long key name does not stretch the key filter across the toolbar', async ({ page, app }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const created = await gatewayAdmin('/internal/api-keys', 'POST', {
    name: `ci-${'verylongname'.repeat(10)}`,
    scopes: ['chat'],
  });
  const { key } = (await created.json()) as { key: string };
  await fetch(`${app.gatewayUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'demo/echo', messages: [{ role: 'user', content: 'long' }] }),
  });
  await openSignedIn(page, 'gateway/traffic');
  const filter = page.getByLabel('Key', { exact: true });
  await expect(filter.locator('option', { hasText: 'verylongname' })).toHaveCount(1);
  expect((await filter.boundingBox())!.width, 'key filter width').toBeLessThanOrEqual(14 * 16 + 1);
});

test('a side-by-side diff in a pane too narrow for it is shown unified, saying so, and side by side again when wide', async ({
  page,
}) => {
  const namespace = freshNamespace('narrow', 'split');
  await apply(namespace, 'main', 'first', { 'a.txt': 'one\ntwo\n' });
  await apply(namespace, 'main', 'second', { 'a.txt': 'one\nthree\n' });
  await page.setViewportSize({ width: 1024, height: 760 });
  await openSignedIn(page, screen('history', namespace, 'main'));
  const diff = page.getByTestId('diff-view');
  await expect(diff).toHaveAttribute('data-mode', 'unified');
  await expect(page.getByRole('note')).toHaveText('Shown unified: this pane is too narrow for side by side.');
  // Every line of both versions is in view: none is cut off past the pane's right edge.
  const pane = (await page.locator('.diff-scroll').first().boundingBox())!;
  expect((await diff.boundingBox())!.width, 'diff width').toBeLessThanOrEqual(pane.width + 1);
  await page.setViewportSize({ width: 1600, height: 900 });
  await expect(diff).toHaveAttribute('data-mode', 'split');
  await expect(page.getByRole('note')).toHaveCount(0);
});
