import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTempServers, type TempServers } from '../support/temp-servers.js';

// Bound to one address, the gateway serves the UI under every name it answers (server.allowed_hosts,
// *.localhost), and that UI calls the store: the store refused the page's origin unless it was the
// printed address itself, so the store screens failed under a configured name.

describe('pages of the gateway under the names it answers, on a specific address', () => {
  let servers: TempServers;
  beforeAll(async () => {
    servers = await startTempServers({ server: { allowed_hosts: ['gatehouse.test'] } });
  });
  afterAll(async () => servers.stop());

  const preflight = async (origin: string): Promise<string | null> => {
    const response = await fetch(`${servers.storeUrl}/v1/state`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'GET' },
    });
    return response.headers.get('access-control-allow-origin');
  };

  it('may call the store', async () => {
    const port = new URL(servers.gatewayUrl).port;
    for (const name of ['127.0.0.1', 'localhost', 'gatehouse.test', 'GateHouse.test', 'app.localhost']) {
      const page = `http://${name}:${port}`;
      expect(await preflight(page), page).toBe(page);
    }
  });

  it('while other names, other addresses, other ports and https get no CORS', async () => {
    const gatewayPort = new URL(servers.gatewayUrl).port;
    const storePort = new URL(servers.storeUrl).port;
    for (const origin of [
      `http://attacker.example:${gatewayPort}`,
      `http://10.1.2.3:${gatewayPort}`,
      `http://[::1]:${gatewayPort}`,
      `http://gatehouse.test:${storePort}`,
      `https://gatehouse.test:${gatewayPort}`,
      'null',
    ]) {
      expect(await preflight(origin), origin).toBeNull();
    }
  });
});
