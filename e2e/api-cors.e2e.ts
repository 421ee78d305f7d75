import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures.js';
import { waitForAddresses } from './global-setup.js';

const MASTER = 'mk-cors-e2e-0123456789abcdef0123';

/** A web app's page, served from its own origin (another port), as a dev server would. */
let app: Server;
let appOrigin: string;
let child: ChildProcess;
let dataDir: string;
let gateway: string;

test.beforeAll(async () => {
  app = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>web app</title>');
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  appOrigin = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
  dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-cors-e2e-'));
  const config = join(dataDir, 'gatehouse.json');
  writeFileSync(config, JSON.stringify({ server: { cors_origins: [appOrigin] } }));
  child = spawn(process.execPath, ['--import', 'tsx', 'src/server/cli.ts'], {
    env: {
      ...process.env,
      GATEHOUSE_CONFIG: config,
      GATEHOUSE_DATA_DIR: dataDir,
      GATEWAY_PORT: '0',
      STORE_PORT: '0',
      PROXY_MASTER_KEY: MASTER,
      STORE_TOKEN: 'st-cors-e2e-0123456789abcdef0123',
      GATEHOUSE_LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  ({ gateway } = await waitForAddresses(child));
  child.stdout!.resume();
  child.stderr!.resume();
});

test.afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  await new Promise((resolve) => app?.close(resolve));
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test('a web app on a listed origin calls the model API from the browser, and never the admin API', async ({
  page,
  consoleErrors,
}) => {
  const issued = await fetch(`${gateway}/internal/api-keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${MASTER}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'browser app', scopes: ['chat'] }),
  });
  const { key } = (await issued.json()) as { key: string };
  await page.goto(`${appOrigin}/`);

  // The browser's own preflight and CORS checks decide: a fetch the page may not read rejects.
  const answer = await page.evaluate(
    async ({ gateway, key }) => {
      const response = await fetch(`${gateway}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-stainless-os': 'web' },
        body: JSON.stringify({ model: 'demo/echo', messages: [{ role: 'user', content: 'from a web app' }] }),
      });
      const body = (await response.json()) as { choices: Array<{ message: { content: string } }> };
      return {
        status: response.status,
        requestId: response.headers.get('x-request-id'),
        text: body.choices[0]!.message.content,
      };
    },
    { gateway, key },
  );
  expect(answer).toEqual({ status: 200, requestId: expect.any(String), text: 'from a web app' });

  const admin = await page.evaluate(
    async ({ gateway, master }) =>
      fetch(`${gateway}/internal/api-keys`, { headers: { authorization: `Bearer ${master}` } }).then(
        () => 'read',
        (error: Error) => error.name,
      ),
    { gateway, master: MASTER },
  );
  expect(admin).toBe('TypeError');
  // The browser says why it refused the admin call: the one error this page may log.
  expect(consoleErrors.splice(0)).toEqual([
    expect.stringContaining("/internal/api-keys' from origin"),
    expect.stringContaining('net::ERR_FAILED'),
  ]);
});
