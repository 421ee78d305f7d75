import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { invoke, READY, reportsOf, root, startMain, windowOpen, type MainProcess } from './desktop/main-process.js';

// How the built desktop main process starts (under the `electron` stand-in): which configuration and
// data folder it reads, which addresses and credentials the window gets, and how it refuses a start.

// A specifier TypeScript does not resolve: the launcher is a plain .mjs script.
const launcher = '../scripts/launch.mjs';
const { START_REFUSED_EXIT_CODE } = (await import(launcher)) as { START_REFUSED_EXIT_CODE: number };

const dirs: string[] = [];
const mains: MainProcess[] = [];
test.afterEach(() => {
  for (const main of mains.splice(0)) main.child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh folder for one test, with `gatehouse.yaml` holding `config` when given. */
function folder(config?: string): { dir: string; configPath: string | undefined } {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-desktop-start-'));
  dirs.push(dir);
  if (config === undefined) return { dir, configPath: undefined };
  const configPath = join(dir, 'gatehouse.yaml');
  writeFileSync(configPath, config);
  return { dir, configPath };
}

function started(...args: Parameters<typeof startMain>): MainProcess {
  const main = startMain(...args);
  mains.push(main);
  return main;
}

/** The start was refused: the message shown (also on stderr), the refusal's own status, no window. */
async function refusal(main: MainProcess): Promise<string> {
  expect(await main.exited).toBe(START_REFUSED_EXIT_CODE);
  expect(main.output).not.toMatch(READY);
  const [box] = reportsOf(main, 'errorBox');
  expect(box).toBeDefined();
  const message = box!.message as string;
  expect(main.output).toContain(`gatehouse: ${message.split('\n')[0]}`);
  return message;
}

async function listening(port: number, host = '127.0.0.1'): Promise<Server | undefined> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(undefined));
    server.listen(port, host, () => resolve(server));
  });
}

test('with store.auth.tokens configured, the window gets a store credential the store accepts', async () => {
  const { dir, configPath } = folder(
    [
      'store:',
      '  auth:',
      '    tokens:',
      "      - { name: ci, token: 'st-ci-0123456789abcdef0123', verbs: [read], namespaces: [ci] }",
      '',
    ].join('\n'),
  );
  const main = started(join(dir, 'data'), configPath, { STORE_TOKEN: undefined });
  const uiUrl = await windowOpen(main);
  const connection = (await invoke(main, 'connection:get', uiUrl)) as { storeUrl: string; storeToken: string | null };
  expect(connection.storeToken).toEqual(expect.any(String));
  const headers = { authorization: `Bearer ${connection.storeToken}`, 'content-type': 'application/json' };
  const written = await fetch(`${connection.storeUrl}/v1/apply`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      scope: { namespace: 'desktop', branch: 'main' },
      documents: [{ key: 'a.txt', content: 'hello' }],
      message: 'from the window',
    }),
  });
  expect(written.status).toBe(200);
  const state = await fetch(`${connection.storeUrl}/v1/state?namespace=desktop&branch=main`, { headers });
  expect(await state.json()).toMatchObject({ objects: { 'a.txt': 'hello' } });
  // The configured token keeps its own, narrower grant; nothing of the window's is written to the folder.
  const narrow = await fetch(`${connection.storeUrl}/v1/state?namespace=desktop&branch=main`, {
    headers: { authorization: 'Bearer st-ci-0123456789abcdef0123' },
  });
  expect(narrow.status).toBe(403);
  expect(existsSync(join(dir, 'data', 'store.token'))).toBe(false);
});

test('bound to every interface, the window and the bridge use this machine’s own address', async () => {
  const { dir } = folder();
  const main = started(join(dir, 'data'), undefined, { GATEHOUSE_HOST: '0.0.0.0' });
  const uiUrl = await windowOpen(main);
  expect(uiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/ui\/$/);
  await expect.poll(() => reportsOf(main, 'loadURL')[0]).toMatchObject({ url: uiUrl, status: 200 });
  const connection = (await invoke(main, 'connection:get', uiUrl)) as { gatewayUrl: string; storeUrl: string };
  expect(connection.gatewayUrl).toBe(new URL(uiUrl).origin);
  expect(connection.storeUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect((await fetch(`${connection.storeUrl}/healthz`)).status).toBe(200);
});

test('a port set explicitly and in use refuses the start with the headless server’s message', async () => {
  const taken = (await listening(0))!;
  try {
    const port = (taken.address() as { port: number }).port;
    const { dir } = folder();
    const message = await refusal(started(join(dir, 'data'), undefined, { GATEWAY_PORT: String(port) }));
    expect(message).toContain(
      `the gateway port ${port} is in use by another process: set GATEWAY_PORT or server.gateway_port (0 picks a free port)`,
    );
  } finally {
    taken.close();
  }
});

test('the default gateway port in use moves to a free one, and says so', async () => {
  // Held here, unless another process has it already: in use either way.
  const taken = await listening(8747);
  try {
    const { dir } = folder();
    const main = started(join(dir, 'data'), undefined, { GATEWAY_PORT: undefined });
    const uiUrl = await windowOpen(main);
    const port = new URL(uiUrl).port;
    expect(port).not.toBe('8747');
    expect(main.output).toContain(
      `gatehouse: the gateway port 8747 is in use by another process; the gateway listens on http://127.0.0.1:${port} instead`,
    );
    await expect
      .poll(() => JSON.stringify(reportsOf(main, 'messageBox')[0] ?? null))
      .toContain(`http://127.0.0.1:${port}`);
  } finally {
    taken?.close();
  }
});

test('with server.ui false, the start is refused naming the setting', async () => {
  const { dir, configPath } = folder('server: { ui: false }\n');
  const message = await refusal(started(join(dir, 'data'), configPath));
  expect(message).toContain('server.ui');
  expect(message).toContain(configPath!);
});

test('without a built UI, the start is refused saying how to build it', async () => {
  const { dir } = folder();
  const app = join(dir, 'app');
  mkdirSync(app);
  symlinkSync(join(root, 'drizzle'), join(app, 'drizzle'));
  const message = await refusal(started(join(dir, 'data'), undefined, { GATEHOUSE_STAND_IN_APP_PATH: app }));
  expect(message).toContain('npm run build');
});

// A second desktop app on the same folder hands over to the first one's window (desktop-main.e2e.ts);
// a headless server is no window to hand over to, so the desktop app refuses its folder.
test('a data folder a headless server holds refuses the start with the refusal status', async () => {
  const { dir } = folder();
  const dataDir = join(dir, 'data');
  const headless = spawn(process.execPath, ['--import', 'tsx', 'src/server/cli.ts'], {
    cwd: root,
    env: { ...process.env, GATEHOUSE_DATA_DIR: dataDir, GATEWAY_PORT: '0', STORE_PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    await new Promise<void>((resolve) =>
      headless.stdout!.on('data', (chunk) => String(chunk).includes('gateway listening') && resolve()),
    );
    expect(await refusal(started(dataDir, undefined))).toContain(dataDir);
  } finally {
    headless.kill('SIGKILL');
  }
});

test('a relative GATEHOUSE_CONFIG and GATEHOUSE_DATA_DIR are read from where npm start was typed', async () => {
  const { dir } = folder();
  writeFileSync(join(dir, 'relative.yaml'), 'server: { shutdown_timeout_ms: 1234 }\n');
  const main = started('data', 'relative.yaml', {
    INIT_CWD: dir,
    npm_package_json: join(root, 'package.json'),
  });
  await windowOpen(main);
  expect(existsSync(join(dir, 'data', 'gatehouse.db'))).toBe(true);
  expect(existsSync(join(root, 'data'))).toBe(false);
});
