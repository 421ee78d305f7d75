import { defineConfig } from '@playwright/test';

// Browser tests against the headless app (real servers, real database), in Debian's Chromium.
// Requires `npm run build` first: the gateway serves the built renderer at /ui/.
export default defineConfig({
  testDir: 'e2e',
  // Not *.spec.ts / *.test.ts: vitest must never pick these up.
  testMatch: '**/*.e2e.ts',
  globalSetup: './e2e/global-setup.ts',
  // One app for the whole run, and two cores: run the flows one after another.
  workers: 1,
  fullyParallel: false,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  outputDir: 'test-results',
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    viewport: { width: 1360, height: 860 },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
});
