import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config/load.js';
import { startOnDefaultOrFreePorts, type StartedOnFreePorts } from '../../src/main/port-fallback.js';
import { REMEMBERED_PORTS_FILE } from '../../src/main/remembered-ports.js';
import { TEST_MASTER_KEY, TEST_STORE_TOKEN } from '../support/temp-servers.js';

// The desktop app's fallback from a default port in use, with ports free when the tests start standing
// in for 8747/8748 (fixed ones fail whenever another process on the machine has one): the window's
// origin is the gateway's address, so the port it moved to must be the same on the next launch, or the
// UI's saved settings are lost each time.

/** Distinct ports free right now: each held until all are found, so none is handed out twice. */
async function freePorts(count: number): Promise<number[]> {
  const held: Server[] = [];
  for (let i = 0; i < count; i++) {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    held.push(server);
  }
  const ports = held.map((server) => (server.address() as AddressInfo).port);
  await Promise.all(held.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

let DEFAULTS: { readonly gateway_port: number; readonly store_port: number };
/** A port the last launch remembered for each service. */
let LAST_GATEWAY_PORT: number;
let LAST_STORE_PORT: number;
beforeAll(async () => {
  const [gateway, store, lastGateway, lastStore] = await freePorts(4);
  DEFAULTS = { gateway_port: gateway!, store_port: store! };
  LAST_GATEWAY_PORT = lastGateway!;
  LAST_STORE_PORT = lastStore!;
});
const root = mkdtempSync(join(tmpdir(), 'gatehouse-remembered-ports-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const blockers: Server[] = [];
const running: StartedOnFreePorts[] = [];
afterEach(async () => {
  for (const started of running.splice(0)) await started.servers.close();
  for (const blocker of blockers.splice(0)) await new Promise((resolve) => blocker.close(resolve));
});

/** Another process on the port, as a headless server on another data folder would be. */
async function occupy(port: number): Promise<void> {
  const blocker = createServer();
  await new Promise<void>((resolve, reject) => {
    blocker.once('error', reject);
    blocker.listen(port, '127.0.0.1', resolve);
  });
  blockers.push(blocker);
}

/** One launch of the desktop app's servers over the data folder, left running until {@link quit}. */
async function launch(dataDir: string): Promise<StartedOnFreePorts> {
  const env: NodeJS.ProcessEnv = {
    GATEHOUSE_DATA_DIR: dataDir,
    GATEHOUSE_LOG_LEVEL: 'silent',
    PROXY_MASTER_KEY: TEST_MASTER_KEY,
    STORE_TOKEN: TEST_STORE_TOKEN,
  };
  const { config } = loadConfig({ env, overrides: { server: { ...DEFAULTS } } });
  const started = await startOnDefaultOrFreePorts(config, { env, defaultPorts: DEFAULTS });
  running.push(started);
  return started;
}

async function quit(started: StartedOnFreePorts): Promise<void> {
  running.splice(running.indexOf(started), 1);
  await started.servers.close();
}

const gatewayPort = (started: StartedOnFreePorts): number => Number(new URL(started.servers.gatewayUrl).port);
const rememberedFile = (dataDir: string): string => join(dataDir, REMEMBERED_PORTS_FILE);

describe('the port the desktop app leaves a default port in use for', () => {
  it('is the same on the next launch, kept in the data folder for its owner only, and said as such', async () => {
    const dataDir = join(root, 'same-again');
    await occupy(DEFAULTS.gateway_port);
    const first = await launch(dataDir);
    const port = gatewayPort(first);
    expect(port).not.toBe(DEFAULTS.gateway_port);
    expect(first.moved).toEqual([
      expect.stringContaining(
        `the gateway port ${DEFAULTS.gateway_port} is in use by another process; the gateway listens on http://127.0.0.1:${port} instead, a free port, kept for the next launch`,
      ),
    ]);
    expect(JSON.parse(readFileSync(rememberedFile(dataDir), 'utf8'))).toEqual({ gateway_port: port });
    expect(statSync(rememberedFile(dataDir)).mode & 0o777).toBe(0o600);
    await quit(first);

    const second = await launch(dataDir);
    expect(gatewayPort(second)).toBe(port);
    expect(second.moved).toEqual([
      expect.stringContaining(`listens on http://127.0.0.1:${port} instead, the port it had last time`),
    ]);
    const answer = await fetch(`${second.servers.gatewayUrl}/healthz`);
    expect(answer.status).toBe(200);
  });

  it('is a new free one, remembered instead, when the last one is taken too', async () => {
    const dataDir = join(root, 'last-taken');
    await occupy(DEFAULTS.gateway_port);
    await occupy(LAST_GATEWAY_PORT);
    await quit(await launch(dataDir));
    writeFileSync(
      rememberedFile(dataDir),
      JSON.stringify({ gateway_port: LAST_GATEWAY_PORT, store_port: LAST_STORE_PORT }),
    );

    const started = await launch(dataDir);
    const port = gatewayPort(started);
    expect([DEFAULTS.gateway_port, LAST_GATEWAY_PORT]).not.toContain(port);
    expect(started.moved).toEqual([expect.stringContaining(`a free port, kept for the next launch`)]);
    // The store, on its default port this time, keeps what was remembered for it.
    expect(JSON.parse(readFileSync(rememberedFile(dataDir), 'utf8'))).toEqual({
      gateway_port: port,
      store_port: LAST_STORE_PORT,
    });
  });

  it('is a free one when the file is not ours to read, and the start goes on', async () => {
    const dataDir = join(root, 'malformed');
    await quit(await launch(dataDir));
    writeFileSync(rememberedFile(dataDir), `{"gateway_port": "${LAST_GATEWAY_PORT}"`);
    await occupy(DEFAULTS.gateway_port);

    const started = await launch(dataDir);
    expect(gatewayPort(started)).not.toBe(DEFAULTS.gateway_port);
    expect(JSON.parse(readFileSync(rememberedFile(dataDir), 'utf8'))).toEqual({ gateway_port: gatewayPort(started) });
  });

  it('is not looked for while the default ports are free: nothing is written', async () => {
    const dataDir = join(root, 'defaults-free');
    const started = await launch(dataDir);
    expect(gatewayPort(started)).toBe(DEFAULTS.gateway_port);
    expect(started.moved).toEqual([]);
    expect(existsSync(rememberedFile(dataDir))).toBe(false);
  });
});
