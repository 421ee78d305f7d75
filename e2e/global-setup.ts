import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** Credentials the app is started with; tests read them from the environment. */
export const MASTER_KEY = 'gk-master-e2e-0123456789abcdef';
export const STORE_TOKEN = 'st-e2e-0123456789abcdef0123';

/** Resolves with the addresses the app prints once it listens. */
export function waitForAddresses(child: ChildProcess): Promise<{ gateway: string; store: string; ui: string }> {
  return new Promise((resolve, reject) => {
    const found: Record<string, string> = {};
    const output: string[] = [];
    const timer = setTimeout(
      () => reject(new Error(`the app did not print its addresses within 60 s:\n${output.join('\n')}`)),
      60_000,
    );
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      output.push(line);
      const match = /^(gateway|store) listening on (http\S+)|^ui available at (http\S+)/.exec(line);
      if (match?.[1]) found[match[1]] = match[2]!;
      if (match?.[3]) found.ui = match[3];
      if (found.gateway && found.store && found.ui) {
        clearTimeout(timer);
        resolve({ gateway: found.gateway, store: found.store, ui: found.ui });
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the app exited with ${code} before listening:\n${output.join('\n')}`));
    });
  });
}

/**
 * Starts `node --import tsx src/server/cli.ts` on free ports with a fresh data folder and known
 * credentials, publishes the addresses to the tests, and stops it with SIGTERM afterwards.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-e2e-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/cli.ts'], {
    env: {
      ...process.env,
      GATEHOUSE_DATA_DIR: dataDir,
      GATEWAY_PORT: '0',
      STORE_PORT: '0',
      PROXY_MASTER_KEY: MASTER_KEY,
      STORE_TOKEN,
      GATEHOUSE_LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let addresses;
  try {
    addresses = await waitForAddresses(child);
  } catch (error) {
    child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  // Keep draining output so the child never blocks on a full pipe.
  child.stdout!.resume();
  child.stderr!.resume();
  process.env.GATEHOUSE_GATEWAY_URL = addresses.gateway;
  process.env.GATEHOUSE_STORE_URL = addresses.store;
  process.env.GATEHOUSE_UI_URL = addresses.ui;
  process.env.GATEHOUSE_MASTER_KEY = MASTER_KEY;
  process.env.GATEHOUSE_STORE_TOKEN = STORE_TOKEN;

  return async () => {
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 15_000));
    if ((await Promise.race([exited, timeout])) === 'timeout') child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  };
}
