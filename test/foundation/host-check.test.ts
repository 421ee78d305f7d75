import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostAllowList } from '../../src/server/http/host-check.js';
import { startTempServers, TEST_STORE_TOKEN, type TempServers } from '../support/temp-servers.js';
import { addressOf, rawRequest, UUID } from './raw-http.js';

/** A GET with the given Host header, over a real socket (fetch cannot set Host). */
async function getWithHost(url: string, path: string, host: string, headers: Record<string, string> = {}) {
  const extra = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return rawRequest(url, `GET ${path} HTTP/1.1\r\nhost: ${host}\r\n${extra}connection: close\r\n\r\n`);
}

/** A page on another name that rebinds its DNS to 127.0.0.1 sends its own name as Host. */
describe('the Host check against DNS rebinding', () => {
  let servers: TempServers;
  beforeAll(async () => {
    servers = await startTempServers({ server: { allowed_hosts: ['gatehouse.test', 'Box.LAN'] } });
  });
  afterAll(async () => {
    await servers.stop();
  });
  const auth = { authorization: `Bearer ${TEST_STORE_TOKEN}` };

  it('refuses a foreign host on both services, metrics and UI bootstrap included', async () => {
    const targets = [
      { url: servers.gatewayUrl, path: '/metrics' },
      { url: servers.gatewayUrl, path: '/ui/bootstrap.json' },
      { url: servers.gatewayUrl, path: '/healthz' },
      { url: servers.gatewayUrl, path: '/no-such-route' },
      { url: servers.storeUrl, path: '/metrics' },
      { url: servers.storeUrl, path: '/v1/state?namespace=demo' },
      { url: servers.storeUrl, path: '/healthz' },
    ];
    for (const { url, path } of targets) {
      const { port } = addressOf(url);
      for (const host of ['evil.example', `evil.example:${port}`, `127.0.0.1.evil.example:${port}`, 'localhost.evil']) {
        const answer = await getWithHost(url, path, host, auth);
        expect(answer.status, `${path} with host ${host}`).toBe(403);
        expect(answer.headers['x-request-id']).toMatch(UUID);
        const body = JSON.parse(answer.body) as { error: { type: string; message: string; code: number } };
        expect(body.error).toMatchObject({ type: 'permission_error', code: 403 });
        expect(body.error.message).toContain(host);
        expect(body.error.message).toContain('server.allowed_hosts');
        expect(answer.body).not.toContain('gatewayUrl');
      }
    }
  });

  it('answers IP literals, localhost and configured names, with or without a port', async () => {
    const { port } = addressOf(servers.gatewayUrl);
    const hosts = [
      'localhost',
      `localhost:${port}`,
      'app.localhost',
      '127.0.0.1',
      `127.0.0.1:${port}`,
      '[::1]',
      `[::1]:${port}`,
      '192.168.1.20:80',
      'gatehouse.test',
      `GATEHOUSE.TEST:${port}`,
      'box.lan',
    ];
    for (const host of hosts) {
      const gateway = await getWithHost(servers.gatewayUrl, '/ui/bootstrap.json', host);
      expect(gateway.status, host).toBe(200);
      const store = await getWithHost(servers.storeUrl, '/metrics', host, auth);
      expect(store.status, host).toBe(200);
    }
  });

  it('refuses malformed host values', () => {
    const list = new HostAllowList();
    list.replace(['gatehouse.test']);
    for (const host of [
      '',
      '[::1',
      '[::1]x',
      '[evil]',
      '127.0.0.1:',
      '127.0.0.1:123456',
      'localhost:8a',
      '::1',
      'a:b:c',
    ]) {
      expect(list.allows(host), host).toBe(false);
    }
    expect(list.allows('gatehouse.test.:8747')).toBe(true);
    expect(list.allows('localhost.')).toBe(true);
  });
});
