import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnHeadless } from '../support/headless-process.js';
import { startTempServers } from '../support/temp-servers.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('the start-up line about the UI', () => {
  it('says the UI is off when server.ui is false, instead of an address that answers 404', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-noui-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'gatehouse.yaml'), 'server:\n  ui: false\n');
    const server = await spawnHeadless({ GATEHOUSE_CONFIG: join(dir, 'gatehouse.yaml'), GATEHOUSE_DATA_DIR: dir });
    cleanups.push(() => server.child.kill('SIGKILL'));
    expect((await fetch(`${server.gatewayUrl}/ui/`)).status).toBe(404);
    server.child.kill('SIGTERM');
    expect(await server.exited()).toBe(0);
    expect(server.output()).toContain('\nui off (server.ui is false)\n');
    expect(server.output()).not.toContain('ui available at');
  });

  it('knows when the UI is not built, so the command can say how to build it', async () => {
    const servers = await startTempServers({}, {}, { uiDir: join(tmpdir(), 'gatehouse-no-such-ui') });
    cleanups.push(() => servers.stop());
    expect(servers.ui).toBe('not built');
    expect((await fetch(servers.uiUrl)).status).toBe(503);
  });
});
