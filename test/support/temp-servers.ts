import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/server/config/load.js';
import { startServers, type RunningServers, type StartOptions } from '../../src/server/start.js';

/** Known credentials for tests (long enough for every validator). */
export const TEST_MASTER_KEY = 'gk-master-test-0123456789abcdef';
export const TEST_STORE_TOKEN = 'st-test-token-0123456789abcdef';

/** Servers on free ports over a fresh data directory; `stop()` closes them and removes the directory. */
export interface TempServers extends RunningServers {
  readonly dataDir: string;
  stop(): Promise<void>;
}

/** Starts both servers the way `npm run serve` does, on free ports, with known credentials. */
export async function startTempServers(
  overrides: Record<string, unknown> = {},
  env: NodeJS.ProcessEnv = {},
  options: Omit<StartOptions, 'env'> = {},
): Promise<TempServers> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-test-'));
  const fullEnv: NodeJS.ProcessEnv = {
    GATEHOUSE_DATA_DIR: dataDir,
    GATEWAY_PORT: '0',
    STORE_PORT: '0',
    GATEHOUSE_LOG_LEVEL: 'silent',
    PROXY_MASTER_KEY: TEST_MASTER_KEY,
    STORE_TOKEN: TEST_STORE_TOKEN,
    ...env,
  };
  const { config } = loadConfig({ env: fullEnv, overrides });
  const servers = await startServers(config, { ...options, env: fullEnv });
  return {
    ...servers,
    dataDir,
    stop: async () => {
      await servers.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** What {@link gatewayAdmin} answers: the status and the parsed JSON body. */
export interface AdminAnswer {
  readonly status: number;
  readonly body: any;
}

/** A caller of the gateway's admin API with the test master key, for `servers().gatewayUrl` once they are up. */
export function gatewayAdmin(
  servers: () => { readonly gatewayUrl: string },
): (method: string, path: string, body?: unknown) => Promise<AdminAnswer> {
  return async (method, path, body) => {
    const response = await fetch(`${servers().gatewayUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  };
}

/**
 * A caller of the store with a given token, for `servers().storeUrl` once they are up: GET without a
 * body, POST with one; the status and the parsed JSON body.
 */
export function storeCaller(
  servers: () => { readonly storeUrl: string },
): (path: string, token: string, body?: unknown) => Promise<AdminAnswer> {
  return async (path, token, body) => {
    const response = await fetch(`${servers().storeUrl}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: await response.json() };
  };
}
