import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnHeadless } from '../support/headless-process.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('the UI of servers bound to every interface (GATEHOUSE_HOST=0.0.0.0)', () => {
  it('is told the store under the name the browser used, and may call it from there', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-any-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const server = await spawnHeadless({ GATEHOUSE_DATA_DIR: dataDir, GATEHOUSE_HOST: '0.0.0.0' });
    cleanups.push(() => server.child.kill('SIGKILL'));
    const gatewayPort = new URL(server.gatewayUrl).port;
    const storePort = new URL(server.storeUrl).port;
    // 0.0.0.0 is where it listens; a browser is sent to an address it can open.
    // Built or not yet (the tests may run before `npm run build`), the line names that address.
    const where = `http://127.0.0.1:${gatewayPort}/ui/ (and at this machine's other addresses, same port)`;
    const line = server
      .output()
      .split('\n')
      .find((text) => text.startsWith('ui '));
    expect([
      `ui available at ${where}`,
      `ui not built: run npm run build, then restart (it will be at ${where})`,
    ]).toContain(line);

    for (const name of ['127.0.0.1', 'localhost']) {
      const page = `http://${name}:${gatewayPort}`;
      const bootstrap = await fetch(`${page}/ui/bootstrap.json`);
      expect(await bootstrap.json()).toEqual({
        gatewayUrl: page,
        storeUrl: `http://${name}:${storePort}`,
        version: '0.1.0',
      });
      const preflight = await fetch(`http://${name}:${storePort}/v1/state`, {
        method: 'OPTIONS',
        headers: { origin: page, 'access-control-request-method': 'GET' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe(page);
    }

    // Only the gateway's own pages: another port, or a name the servers do not answer, gets no CORS.
    for (const origin of [`http://127.0.0.1:${storePort}`, `http://attacker.example:${gatewayPort}`]) {
      const preflight = await fetch(`http://127.0.0.1:${storePort}/v1/state`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'GET' },
      });
      expect(preflight.headers.get('access-control-allow-origin'), origin).toBeNull();
    }
    server.child.kill('SIGTERM');
    expect(await server.exited()).toBe(0);
  });
});
