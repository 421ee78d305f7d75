import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.js';
import { startOwnServer, type OwnServer } from './own-server.js';

const MASTER = 'mk-missed-e2e-0123456789abcdef0123';
const STORE_TOKEN = 'st-missed-e2e-0123456789abcdef0123';
/** The gateway keeps this few requests, so a view that is away for a burst falls behind it. */
const KEPT = 10;

let server: OwnServer;
let apiKey: string;

test.beforeAll(async () => {
  server = await startOwnServer(
    'traffic-missed',
    { gateway: { traffic_buffer: KEPT } },
    { PROXY_MASTER_KEY: MASTER, STORE_TOKEN },
  );
  apiKey = await server.issueChatKey('burst');
});

test.afterAll(async () => {
  await server?.stop();
});

/** Sends `count` demo/echo requests, one after another. */
async function burst(count: number): Promise<void> {
  for (let index = 0; index < count; index += 1) await server.chatOnce(apiKey, `request ${index}`);
}

async function openTraffic(page: Page): Promise<void> {
  await server.openSignedIn(page, 'gateway/traffic');
}

/** A promise with its resolve, to hold a route until the test lets it go. */
function gate(): { readonly opened: Promise<void>; readonly open: () => void } {
  let open = (): void => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

test('requests the gateway dropped before the view received them are counted in a notice until dismissed', async ({
  page,
}) => {
  await burst(3);
  // The first stream is held, then ends (a dropped connection): the view catches up from the list,
  // whose `missed` counts what the gateway no longer keeps. The second is held, then reaches the
  // gateway, whose replay starts with an `event: gap`.
  const firstStream = gate();
  const secondStream = gate();
  let streams = 0;
  await page.route(/\/internal\/traffic\/stream(\?|$)/, async (route) => {
    streams += 1;
    if (streams === 1) {
      await firstStream.opened;
      await route.fulfill({ status: 200, contentType: 'text/event-stream', body: '' });
    } else {
      if (streams === 2) await secondStream.opened;
      await route.continue();
    }
  });
  await openTraffic(page);
  const rows = page.getByTestId('traffic-row');
  await expect(rows).toHaveCount(3);
  const lastSeen = await rows.first().locator('.col-time').textContent();
  const notice = page.getByTestId('traffic-missed');
  await expect(notice).toHaveCount(0);

  // 25 more while the view is away: the gateway keeps the last 10 of the 28, so 15 are lost to it.
  await expect.poll(() => streams).toBe(1);
  await burst(25);
  firstStream.open();
  await expect(notice).toBeVisible();
  const alert = notice.getByRole('alert');
  await expect(alert).toContainText(`15 requests missed since ${lastSeen}.`);
  await expect(alert).toContainText(
    'The gateway keeps only its last 10 requests (gateway.traffic_buffer) and no longer kept them when this view caught up, so this list lacks them.',
  );
  await expect(alert).toContainText('The Usage screen still counts them.');
  await expect(page.getByText('13 requests', { exact: true })).toBeVisible();

  // Away again for 25 more: a second gap adds up with the first, still since the same request.
  await expect.poll(() => streams).toBe(2);
  await burst(25);
  secondStream.open();
  await expect(page.getByText('23 requests', { exact: true })).toBeVisible();
  await expect(alert).toContainText(`30 requests missed since ${lastSeen}.`);
  await expect(page.getByTestId('live-state')).toHaveText('Live');

  // It is a notice, not a dialog: the list still works, and it stays through a pause and a visit elsewhere.
  await page.getByTestId('pause-traffic').click();
  await expect(notice).toContainText('30 requests missed');
  await page.getByTestId('pause-traffic').click();
  await notice.getByRole('link', { name: 'Usage screen' }).click();
  await expect(page).toHaveURL(/\/gateway\/usage$/);
  await page.goBack();
  await expect(alert).toContainText(`30 requests missed since ${lastSeen}.`);

  await notice.getByRole('button', { name: 'Dismiss' }).click();
  await expect(notice).toHaveCount(0);
  await expect(page.getByText('23 requests', { exact: true })).toBeVisible();
});
