import { expect, openSignedIn, saveScreenshot, storeCall, test } from './fixtures.js';

const namespace = 'e2e/screens';
const scope = `ns=${encodeURIComponent(namespace)}&branch=main`;

/** Every screen, and what shows it has loaded. */
const SCREENS = [
  { name: 'overview', path: '', ready: 'service-store' },
  { name: 'store-history', path: `store/history?${scope}`, ready: 'revision-detail' },
  { name: 'store-documents', path: `store/documents?${scope}`, ready: 'document-list' },
  { name: 'store-compare', path: `store/compare?${scope}&from=1&to=branch:main`, ready: 'changes-view' },
  { name: 'store-branches', path: `store/branches?${scope}`, ready: 'branches-table' },
  { name: 'store-checkpoints', path: `store/checkpoints?${scope}`, ready: 'checkpoints-table' },
  { name: 'store-maintenance', path: 'store/maintenance', ready: 'gc-panel' },
  { name: 'gateway-traffic', path: 'gateway/traffic', ready: 'traffic-screen' },
  { name: 'gateway-keys', path: 'gateway/keys', ready: 'issue-key' },
  { name: 'gateway-models', path: 'gateway/models', ready: 'allowed-models' },
  { name: 'gateway-usage', path: 'gateway/usage', ready: 'usage-totals' },
  { name: 'gateway-people', path: 'gateway/people', ready: 'spend-panel' },
  { name: 'gateway-guardrails', path: 'gateway/guardrails', ready: 'pii-panel' },
  { name: 'gateway-collections', path: 'gateway/collections', ready: 'new-collection' },
  { name: 'gateway-cache', path: 'gateway/cache', ready: 'cache-stats' },
] as const;

test.beforeAll(async () => {
  const target = { namespace, branch: 'main' };
  await storeCall('/v1/apply', {
    scope: target,
    message: 'Initial configuration',
    documents: [
      { key: 'app.json', content: '{\n  "replicas": 2\n}\n' },
      { key: 'README.md', content: '# Screens\n' },
    ],
  });
  await storeCall('/v1/apply', {
    scope: target,
    message: 'Scale up',
    documents: [{ key: 'app.json', content: '{\n  "replicas": 3\n}\n' }],
  });
  await storeCall('/v1/checkpoints', { scope: target, name: 'baseline', description: 'Before the screens test' });
});

for (const theme of ['light', 'dark'] as const) {
  for (const screen of SCREENS) {
    test(`${screen.name} loads without console errors (${theme})`, async ({ page }) => {
      await openSignedIn(page, screen.path, { theme });
      await expect(page.getByTestId(screen.ready)).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      await expect(page.getByTestId('health-store')).toContainText('Healthy');
      await saveScreenshot(page, `${screen.name}-${theme}`);
    });
  }
}

test('keyboard: "g" shortcuts move between screens and "?" lists the shortcuts', async ({ page }) => {
  await openSignedIn(page, '');
  await expect(page.getByTestId('service-gateway')).toBeVisible();
  await page.keyboard.press('g');
  await page.keyboard.press('k');
  await expect(page).toHaveURL(/gateway\/keys/);
  await page.keyboard.press('g');
  await page.keyboard.press('h');
  await expect(page).toHaveURL(/store\/history/);
  await page.keyboard.press('?');
  await expect(page.getByTestId('shortcuts-dialog')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('shortcuts-dialog')).toBeHidden();
});
