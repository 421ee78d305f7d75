import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config/load.js';
import { startTempServers, TEST_MASTER_KEY, type TempServers } from '../support/temp-servers.js';

const APP = 'http://localhost:3000';

/**
 * A web app on its own dev server calls the model API from the browser; without CORS the browser
 * hides every answer (a preflight was a 404 "no route OPTIONS"). Only listed origins, only /v1.
 */
describe('server.cors_origins', () => {
  let servers: TempServers;
  let key: string;
  beforeAll(async () => {
    servers = await startTempServers({ server: { cors_origins: [APP] } });
    const issued = await fetch(`${servers.gatewayUrl}/internal/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'web app', scopes: ['chat'] }),
    });
    key = ((await issued.json()) as { key: string }).key;
  });
  afterAll(async () => servers.stop());

  /** A browser's preflight for a POST with the SDK's headers. */
  const preflight = (origin: string, path = '/v1/chat/completions') =>
    fetch(`${servers.gatewayUrl}${path}`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, x-stainless-os',
      },
    });

  it('answers the preflight of a listed origin, allowing the headers it asks for', async () => {
    const answer = await preflight(APP);
    expect(answer.status).toBe(204);
    expect(answer.headers.get('access-control-allow-origin')).toBe(APP);
    expect(answer.headers.get('access-control-allow-methods')).toContain('POST');
    expect(answer.headers.get('access-control-allow-headers')).toBe('authorization, content-type, x-stainless-os');
  });

  it('lets the listed origin read an answer and its headers', async () => {
    const answer = await fetch(`${servers.gatewayUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { origin: APP, authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'demo/echo', messages: [{ role: 'user', content: 'from the browser' }] }),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe(APP);
    expect(answer.headers.get('access-control-expose-headers')).toBe('*');
  });

  it('gives no other origin, and no admin route, a way in', async () => {
    const elsewhere = await preflight('http://evil.example');
    expect(elsewhere.headers.get('access-control-allow-origin')).toBeNull();
    const admin = await preflight(APP, '/internal/api-keys');
    expect(admin.headers.get('access-control-allow-origin')).toBeNull();
    const listing = await fetch(`${servers.gatewayUrl}/internal/api-keys`, {
      headers: { origin: APP, authorization: `Bearer ${TEST_MASTER_KEY}` },
    });
    expect(listing.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('is refused at start when an entry is no origin', () => {
    const load = () => loadConfig({ env: {}, overrides: { server: { cors_origins: ['http://localhost:3000/app'] } } });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/server\.cors_origins\[0\]: must be an origin such as http:\/\/localhost:3000/);
  });
});
