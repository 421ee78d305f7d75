import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { failedStart } from '../support/headless-process.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-listen-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function occupiedPort(): Promise<number> {
  const blocker: Server = createServer();
  blocker.listen(0, '127.0.0.1');
  await once(blocker, 'listening');
  cleanups.push(() => new Promise((resolve) => blocker.close(resolve)));
  return (blocker.address() as { port: number }).port;
}

describe('a headless start that cannot listen', () => {
  it('names the service, the port and the setting that chooses it', async () => {
    const port = await occupiedPort();
    const store = await failedStart({ GATEHOUSE_DATA_DIR: dataDir(), STORE_PORT: String(port) });
    expect(store?.code).toBe(1);
    expect(store?.stderr).toBe(
      `gatehouse: failed to start: the store port ${port} is in use by another process: set STORE_PORT or server.store_port (0 picks a free port)\n`,
    );
    const gateway = await failedStart({ GATEHOUSE_DATA_DIR: dataDir(), GATEWAY_PORT: String(port) });
    expect(gateway?.stderr).toBe(
      `gatehouse: failed to start: the gateway port ${port} is in use by another process: set GATEWAY_PORT or server.gateway_port (0 picks a free port)\n`,
    );
  });

  it('names the host setting when the bind address is not this machine or does not resolve', async () => {
    const foreign = await failedStart({ GATEHOUSE_DATA_DIR: dataDir(), GATEHOUSE_HOST: '192.0.2.1' });
    expect(foreign?.stderr).toBe(
      'gatehouse: failed to start: the store cannot listen on 192.0.2.1: no network interface of this machine has that address (GATEHOUSE_HOST or server.host)\n',
    );
    const unknown = await failedStart({ GATEHOUSE_DATA_DIR: dataDir(), GATEHOUSE_HOST: 'no-such-host.invalid' });
    expect(unknown?.stderr).toBe(
      'gatehouse: failed to start: the store cannot listen on no-such-host.invalid: the name does not resolve (GATEHOUSE_HOST or server.host)\n',
    );
  });
});
