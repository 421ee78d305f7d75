import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { answer, invoke, reportsOf, startMain, windowOpen, type MainProcess } from './desktop/main-process.js';

// The built desktop main process (out/main/index.js), run under Node with a stand-in for Electron
// (e2e/desktop/): the bundle must load, start both servers and open its window on the UI, and a quit
// must end even with a client's stream still running, leaving the data folder free.

const SHUTDOWN_TIMEOUT_MS = 1500;

/** An OpenAI-format upstream whose streams send a chunk every 200 ms and never end by themselves. */
async function endlessStreams(): Promise<Server> {
  const server = createServer((request, response) => {
    request.resume();
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = {
      id: 'c',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'slow',
      choices: [{ index: 0, delta: { content: 'tick ' }, finish_reason: null }],
    };
    const timer = setInterval(() => response.write(`data: ${JSON.stringify(chunk)}\n\n`), 200);
    response.on('close', () => clearInterval(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

test('the built main process opens its window on the UI, and a quit ends a stream still running', async () => {
  test.setTimeout(60_000);
  const upstream = await endlessStreams();
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-desktop-'));
  const configPath = streamingConfig(dataDir, upstream);
  const main = startMain(dataDir, configPath);
  try {
    await expect.poll(() => main.output, { timeout: 30_000 }).toMatch(/gatehouse: desktop window open on (\S+)/);
    const uiUrl = /gatehouse: desktop window open on (\S+)/.exec(main.output)![1]!;
    await expect
      .poll(() => main.reported.find((r) => r.event === 'loadURL'))
      .toEqual({
        event: 'loadURL',
        url: uiUrl,
        status: 200,
      });
    const window = main.reported.find((r) => r.event === 'BrowserWindow')!;
    expect(window.webPreferences).toMatchObject({ sandbox: true, contextIsolation: true, nodeIntegration: false });
    expect(main.reported.map((r) => r.event)).toContain('enableSandbox');

    // A client's stream, still running when the user quits.
    const gatewayUrl = new URL(uiUrl).origin;
    const key = await issueChatKey(gatewayUrl, dataDir);
    const reader = await openStream(gatewayUrl, key);
    const draining = (async () => {
      for (;;) if ((await reader.read().catch(() => ({ done: true }))).done) return;
    })();

    const quitAt = Date.now();
    main.child.send('quit');
    await expect.poll(() => main.reported.some((r) => r.event === 'window.close')).toBe(true);
    // Launched again while quitting: no window onto servers that are closing.
    main.child.send('second-instance');
    const code = await main.exited;
    const took = Date.now() - quitAt;
    expect(code).toBe(1);
    expect(took).toBeGreaterThanOrEqual(SHUTDOWN_TIMEOUT_MS - 100);
    expect(took).toBeLessThan(SHUTDOWN_TIMEOUT_MS + 5000);
    expect(main.output).toContain(`requests still running after ${SHUTDOWN_TIMEOUT_MS} ms`);
    expect(main.reported.filter((r) => r.event === 'BrowserWindow')).toHaveLength(1);
    await draining;

    // The data folder is free: the next start takes it without a word about a held folder.
    const next = startMain(dataDir, configPath);
    await expect.poll(() => next.output, { timeout: 30_000 }).toContain('gatehouse: desktop window open on');
    expect(next.output).not.toMatch(/taken over|in use/);
    // A second quit (Ctrl-C again) ends a stream still running at once, as a second signal does headless.
    const nextUrl = /gatehouse: desktop window open on (\S+)/.exec(next.output)![1]!;
    const againReader = await openStream(new URL(nextUrl).origin, key);
    const secondQuitAt = Date.now();
    next.child.send('quit');
    await expect.poll(() => next.reported.some((r) => r.event === 'window.close')).toBe(true);
    next.child.send('quit');
    expect(await next.exited).toBe(1);
    expect(Date.now() - secondQuitAt).toBeLessThan(SHUTDOWN_TIMEOUT_MS);
    expect(next.output).toContain('quit again; ending the requests still running');
    await againReader.cancel().catch(() => undefined);
  } finally {
    main.child.kill('SIGKILL');
    upstream.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

/** A configuration with the endless-stream model on `upstream`. */
function streamingConfig(dataDir: string, upstream: Server): string {
  const configPath = join(dataDir, 'gatehouse.yaml');
  writeFileSync(
    configPath,
    [
      `server: { shutdown_timeout_ms: ${SHUTDOWN_TIMEOUT_MS} }`,
      'llm: { allowed_models: [slow] }',
      'deployments:',
      `  - { model: slow, provider: openai, api_key: sk-upstream-test, base_url: 'http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1' }`,
      '',
    ].join('\n'),
  );
  return configPath;
}

/** An API key for chat, issued with the app's generated master key. */
async function issueChatKey(gatewayUrl: string, dataDir: string): Promise<string> {
  const masterKey = readFileSync(join(dataDir, 'master.key'), 'utf8').trim();
  const issued = await fetch(`${gatewayUrl}/internal/api-keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${masterKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'desktop-client', scopes: ['chat'] }),
  });
  return ((await issued.json()) as { key: string }).key;
}

/** A client's stream through the gateway, read until its first chunk and left running. */
async function openStream(gatewayUrl: string, key: string): Promise<ReadableStreamDefaultReader<Uint8Array>> {
  const stream = await fetch(`${gatewayUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'slow', stream: true, messages: [{ role: 'user', content: 'go on' }] }),
  });
  expect(stream.status).toBe(200);
  const reader = stream.body!.getReader();
  await reader.read();
  return reader;
}

test('one app per data folder: a second launch on the same folder shows its window, one on another runs beside it', async () => {
  test.setTimeout(90_000);
  const root = mkdtempSync(join(tmpdir(), 'gatehouse-desktop-'));
  // Electron's default user data folder, one for every launch of the app as ~/.config/gatehouse is.
  const env = { GATEHOUSE_STAND_IN_PATHS: join(root, 'electron-default') };
  const folderA = join(root, 'a');
  const folderB = join(root, 'b');
  const first = startMain(folderA, undefined, env);
  const others: MainProcess[] = [];
  try {
    await windowOpen(first);
    expect(reportsOf(first, 'setPath')).toEqual([
      { event: 'setPath', name: 'userData', path: join(folderA, 'desktop') },
    ]);

    const again = startMain(folderA, undefined, env);
    others.push(again);
    expect(await again.exited).toBe(0);
    expect(again.output).toContain('gatehouse: already running: showed its window instead of starting another');
    await expect.poll(() => reportsOf(first, 'window.focus').length).toBe(1);

    const beside = startMain(folderB, undefined, env);
    others.push(beside);
    const besideUrl = await windowOpen(beside);
    expect(besideUrl).not.toBe(await windowOpen(first));
    expect(reportsOf(first, 'window.focus')).toHaveLength(1);
  } finally {
    for (const main of [first, ...others]) main.child.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  }
});

test('closing the window asks first while clients have requests in flight, and quits at once with none', async () => {
  test.setTimeout(90_000);
  const upstream = await endlessStreams();
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-desktop-'));
  const configPath = streamingConfig(dataDir, upstream);
  const main = startMain(dataDir, configPath);
  let idle: MainProcess | undefined;
  try {
    const gatewayUrl = new URL(await windowOpen(main)).origin;
    const reader = await openStream(gatewayUrl, await issueChatKey(gatewayUrl, dataDir));
    const gatewayHost = new URL(gatewayUrl).host;
    main.child.send('closeWindow');
    await expect.poll(() => reportsOf(main, 'messageBox').length).toBe(1);
    expect(reportsOf(main, 'messageBox')[0]!.options).toMatchObject({
      message: `1 request in progress on ${gatewayHost}`,
      buttons: ['Quit', 'Cancel'],
      cancelId: 1,
    });
    // Cancel: the window stays, and so does the client's stream.
    answer(main, 1);
    expect((await reader.read()).done).toBe(false);
    expect(reportsOf(main, 'window.destroy')).toHaveLength(0);
    expect(main.reported.map((r) => r.event)).not.toContain('quit');

    // Quit: as a quit from the menu, the stream ended after the shutdown timeout.
    main.child.send('closeWindow');
    await expect.poll(() => reportsOf(main, 'messageBox').length).toBe(2);
    answer(main, 0);
    expect(await main.exited).toBe(1);
    expect(main.output).toContain(`requests still running after ${SHUTDOWN_TIMEOUT_MS} ms`);
    await reader.cancel().catch(() => undefined);

    // Nothing in flight: closed at once, without a question.
    idle = startMain(dataDir, configPath);
    await windowOpen(idle);
    idle.child.send('closeWindow');
    expect(await idle.exited).toBe(0);
    expect(reportsOf(idle, 'messageBox')).toHaveLength(0);
  } finally {
    main.child.kill('SIGKILL');
    idle?.child.kill('SIGKILL');
    upstream.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('the log file keeps what a launch without a terminal would lose, and Help shows it', async () => {
  test.setTimeout(90_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-desktop-'));
  const logFile = join(dataDir, 'logs', 'gatehouse.log');
  const crashed = startMain(dataDir, undefined);
  let next: MainProcess | undefined;
  try {
    await windowOpen(crashed);
    crashed.child.kill('SIGKILL');
    await crashed.exited;
    next = startMain(dataDir, undefined);
    await windowOpen(next);
    // The takeover warning, said only on stdout before.
    await expect
      .poll(() => existsSync(logFile) && readFileSync(logFile, 'utf8'))
      .toContain('took over the data folder');
    const line = readFileSync(logFile, 'utf8')
      .split('\n')
      .find((l) => l.includes('took over'))!;
    expect(JSON.parse(line)).toMatchObject({ level: 40, name: 'gateway' });

    const menu = reportsOf(next, 'applicationMenu').at(-1)!.items as { label?: string }[];
    expect(menu.find((item) => item.label === 'Help')).toEqual({ label: 'Help', submenu: [{ label: 'Show Logs' }] });
    next.child.send({ type: 'menu', label: 'Show Logs' });
    await expect
      .poll(() => reportsOf(next!, 'showItemInFolder'))
      .toEqual([{ event: 'showItemInFolder', path: logFile }]);
  } finally {
    crashed.child.kill('SIGKILL');
    next?.child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test("arguments an IPC channel refuses are answered in the channel's words, not zod's", async () => {
  test.setTimeout(60_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-desktop-'));
  const main = startMain(dataDir, undefined);
  try {
    const uiUrl = await windowOpen(main);
    await expect(invoke(main, 'external:open', uiUrl, [{ url: 'https://example.com' }])).rejects.toThrow(
      /^external:open: invalid arguments$/,
    );
    await expect(invoke(main, 'connection:get', uiUrl, ['extra'])).rejects.toThrow(
      /^connection:get: invalid arguments$/,
    );
  } finally {
    main.child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
});
