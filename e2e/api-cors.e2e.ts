import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from './fixtures.js';
import { startOwnServer, type OwnServer } from './own-server.js';

const MASTER = 'mk-cors-e2e-0123456789abcdef0123';

/** A web app's page, served from its own origin (another port), as a dev server would. */
let app: Server;
let appOrigin: string;
let server: OwnServer;
let gateway: string;

test.beforeAll(async () => {
  app = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>web app</title>');
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  appOrigin = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
  server = await startOwnServer(
    'cors',
    { server: { cors_origins: [appOrigin] } },
    { PROXY_MASTER_KEY: MASTER, STORE_TOKEN: 'st-cors-e2e-0123456789abcdef0123' },
  );
  gateway = server.urls.gateway;
});

test.afterAll(async () => {
  await server?.stop();
  await new Promise((resolve) => app?.close(resolve));
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
