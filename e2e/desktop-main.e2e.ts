import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startMain } from './desktop/main-process.js';

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
    const masterKey = readFileSync(join(dataDir, 'master.key'), 'utf8').trim();
    const issued = await fetch(`${gatewayUrl}/internal/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${masterKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'desktop-quit', scopes: ['chat'] }),
    });
    const { key } = (await issued.json()) as { key: string };
    const stream = await fetch(`${gatewayUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'slow', stream: true, messages: [{ role: 'user', content: 'go on' }] }),
    });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    await reader.read();
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
    const again = await fetch(`${new URL(nextUrl).origin}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'slow', stream: true, messages: [{ role: 'user', content: 'go on' }] }),
    });
    const againReader = again.body!.getReader();
    await againReader.read();
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
