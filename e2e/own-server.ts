import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitForAddresses } from './global-setup.js';

/** A headless server a test file starts for itself, with a configuration of its own. */
export interface OwnServer {
  readonly child: ChildProcess;
  readonly urls: { readonly gateway: string; readonly store: string; readonly ui: string };
  /** Stops the server (SIGTERM, as a user would) and removes its data folder. */
  stop(): Promise<void>;
}

/**
 * Starts `npm run serve`'s command on free ports with `config` as its file and a fresh data folder;
 * `env` adds the credentials and secrets the configuration names.
 */
export async function startOwnServer(name: string, config: object, env: Record<string, string>): Promise<OwnServer> {
  const dataDir = mkdtempSync(join(tmpdir(), `gatehouse-${name}-e2e-`));
  const file = join(dataDir, 'gatehouse.json');
  writeFileSync(file, JSON.stringify(config));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/cli.ts'], {
    env: {
      ...process.env,
      GATEHOUSE_CONFIG: file,
      GATEHOUSE_DATA_DIR: dataDir,
      GATEWAY_PORT: '0',
      STORE_PORT: '0',
      GATEHOUSE_LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const urls = await waitForAddresses(child);
  child.stdout!.resume();
  child.stderr!.resume();
  return {
    child,
    urls,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
