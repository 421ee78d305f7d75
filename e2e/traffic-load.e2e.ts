import { expect, openSignedIn, test } from './fixtures.js';

const RATE = 200;
const SECONDS = 3;

/** Sends `RATE` requests a second for `SECONDS` seconds; resolves when all have answered. */
async function load(gatewayUrl: string, key: string): Promise<number[]> {
  const statuses: Promise<number>[] = [];
  for (let second = 0; second < SECONDS; second++) {
    const started = Date.now();
    for (let index = 0; index < RATE; index++) {
      statuses.push(
        fetch(`${gatewayUrl}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            model: 'demo/echo',
            messages: [{ role: 'user', content: `load ${second}.${index}` }],
          }),
        }).then(async (response) => {
          await response.arrayBuffer();
          return response.status;
        }),
      );
      // Spread each second's requests evenly.
      const due = started + ((index + 1) * 1000) / RATE;
      if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
    }
  }
  return Promise.all(statuses);
}

test(`live traffic stays responsive at ${RATE} requests per second`, async ({ page, app }) => {
  const issued = await fetch(`${app.gatewayUrl}/internal/api-keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${app.masterKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `load-${Date.now()}` }),
  }).then((response) => response.json() as Promise<{ key: string; name: string }>);

  await openSignedIn(page, 'gateway/traffic');
  await expect(page.getByTestId('live-state')).toContainText('Live');
  const before = await page.getByTestId('traffic-screen').locator('.toolbar-end').textContent();
  const baseline = Number(/([\d,]+)/.exec(before ?? '0')?.[1]?.replace(/,/g, '') ?? 0);

  // Measure the longest gap between animation frames while the load runs.
  await page.evaluate(() => {
    // Runs in the page; this file is type-checked without the DOM library.
    const { requestAnimationFrame } = globalThis as unknown as {
      requestAnimationFrame(callback: (now: number) => void): number;
    };
    const state = { last: performance.now(), worst: 0, running: true };
    (globalThis as unknown as { frameStats: typeof state }).frameStats = state;
    const tick = (now: number): void => {
      state.worst = Math.max(state.worst, now - state.last);
      state.last = now;
      if (state.running) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const statuses = await load(app.gatewayUrl, issued.key);
  expect(statuses.filter((status) => status !== 200)).toEqual([]);

  await expect(page.getByTestId('traffic-screen').locator('.toolbar-end')).toContainText(
    `${(baseline + RATE * SECONDS).toLocaleString('en-US')} requests`,
    { timeout: 20_000 },
  );
  const worstFrameGap = await page.evaluate(() => {
    const state = (globalThis as unknown as { frameStats: { worst: number; running: boolean } }).frameStats;
    state.running = false;
    return state.worst;
  });
  test.info().annotations.push({ type: 'worst frame gap', description: `${Math.round(worstFrameGap)} ms` });
  // Batched publishing keeps the main thread free: no frame waits anywhere near a second.
  expect(worstFrameGap).toBeLessThan(500);

  // Still interactive: the drawer opens at once on the newest request.
  await page.getByTestId('traffic-row').first().click();
  await expect(page.getByTestId('traffic-drawer')).toBeVisible();
});
