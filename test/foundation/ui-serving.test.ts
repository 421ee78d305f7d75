import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTempServers, type TempServers } from '../support/temp-servers.js';

/** A stand-in for the built renderer, so this test does not depend on `npm run build` having run. */
function fakeRendererBuild(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-ui-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Gatehouse</title><div id="root"></div>');
  writeFileSync(join(dir, 'assets', 'app.js'), 'console.log("app")');
  return dir;
}

describe('the UI served by the gateway', () => {
  let servers: TempServers;
  beforeAll(async () => {
    servers = await startTempServers({}, {}, { uiDir: fakeRendererBuild() });
  });
  afterAll(async () => {
    await servers.stop();
  });

  it('redirects / to /ui/ and serves the app shell with a policy that allows only itself and the store', async () => {
    const root = await fetch(`${servers.gatewayUrl}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/ui/');
    const page = await fetch(`${servers.gatewayUrl}/ui/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain(`connect-src 'self' ${servers.storeUrl}`);
    expect(csp).toContain("script-src 'self'");
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers client-side routes with the app shell, but missing assets with 404', async () => {
    const deepLink = await fetch(`${servers.gatewayUrl}/ui/store/history?namespace=x`);
    expect(deepLink.status).toBe(200);
    expect(deepLink.headers.get('content-type')).toContain('text/html');
    expect(deepLink.headers.get('content-security-policy')).toBeTruthy();
    const asset = await fetch(`${servers.gatewayUrl}/ui/assets/app.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
    const missing = await fetch(`${servers.gatewayUrl}/ui/assets/missing.js`);
    expect(missing.status).toBe(404);
  });

  it('answers deep links with the shell of a rebuild made while it runs, and says when the build is missing', async () => {
    const dir = fakeRendererBuild();
    const running = await startTempServers({}, {}, { uiDir: dir });
    try {
      expect(await (await fetch(`${running.gatewayUrl}/ui/store/history`)).text()).toContain(
        '<title>Gatehouse</title>',
      );
      // A rebuild names its bundle anew: the shell must name the new one, or the page loads nothing.
      writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Rebuilt</title><script src="/ui/assets/app-2.js">');
      expect(await (await fetch(`${running.gatewayUrl}/ui/store/history`)).text()).toContain('app-2.js');
      rmSync(join(dir, 'index.html'));
      const missing = await fetch(`${running.gatewayUrl}/ui/keys`);
      expect(missing.status).toBe(503);
      expect(await missing.text()).toContain('npm run build');
    } finally {
      await running.stop();
    }
  });

  it('says how to build the UI when it has not been built', async () => {
    const bare = await startTempServers({}, {}, { uiDir: join(tmpdir(), 'no-such-ui-build') });
    try {
      const page = await fetch(`${bare.gatewayUrl}/ui/`);
      expect(page.status).toBe(503);
      expect(await page.text()).toContain('npm run build');
    } finally {
      await bare.stop();
    }
  });
});
