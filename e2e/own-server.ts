import type { Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openWithCredentials } from './fixtures.js';
import { waitForAddresses } from './global-setup.js';

/** A headless server a test file starts for itself, with a configuration of its own. */
export interface OwnServer {
  readonly child: ChildProcess;
  readonly urls: { readonly gateway: string; readonly store: string; readonly ui: string };
  /** Opens `path` of its UI signed in with the `PROXY_MASTER_KEY` and `STORE_TOKEN` it was started with. */
  openSignedIn(page: Page, path: string): Promise<void>;
  /** Calls the gateway's admin API with the master key: the status and the parsed answer. */
  admin(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** Issues a key named `name` (chat scope) with the master key; answers its secret. */
  issueChatKey(name: string): Promise<string>;
  /** Sends one demo/echo chat with `key` and checks it was answered, so usage and traffic have a request. */
  chatOnce(key: string, content?: string): Promise<void>;
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
  const masterKey = env.PROXY_MASTER_KEY ?? '';
  const storeToken = env.STORE_TOKEN ?? '';
  return {
    child,
    urls,
    openSignedIn: (page, path) =>
      openWithCredentials(page, new URL(path, urls.ui).toString(), { masterKey, storeToken }),
    admin: async (method, path, body) => {
      const answer = await fetch(`${urls.gateway}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${masterKey}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: answer.status, body: await answer.json() };
    },
    issueChatKey: async (name) => {
      const issued = await fetch(`${urls.gateway}/internal/api-keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${masterKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name, scopes: ['chat'] }),
      });
      if (issued.status !== 201)
        throw new Error(`issuing key '${name}' answered ${issued.status}: ${await issued.text()}`);
      return ((await issued.json()) as { key: string }).key;
    },
    chatOnce: async (key, content = 'hi') => {
      const answer = await fetch(`${urls.gateway}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'demo/echo', messages: [{ role: 'user', content }] }),
      });
      const text = await answer.text();
      if (answer.status !== 200) throw new Error(`the demo/echo chat answered ${answer.status}: ${text}`);
    },
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
