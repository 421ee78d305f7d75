import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTempServers, TEST_STORE_TOKEN, type TempServers } from '../support/temp-servers.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('both servers over one database', () => {
  let servers: TempServers;
  beforeAll(async () => {
    servers = await startTempServers();
  });
  afterAll(async () => {
    await servers.stop();
  });

  it('listen on loopback at the printed addresses', () => {
    expect(servers.gatewayUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(servers.storeUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(servers.gatewayUrl).not.toBe(servers.storeUrl);
  });

  it('answer liveness: the gateway in JSON, the store as plain ok', async () => {
    const gateway = await fetch(`${servers.gatewayUrl}/healthz`);
    expect(gateway.status).toBe(200);
    expect(await gateway.json()).toEqual({ status: 'ok' });
    const store = await fetch(`${servers.storeUrl}/healthz`);
    expect(store.status).toBe(200);
    expect(await store.text()).toBe('ok');
  });

  it('answer readiness with the database check (and the gateway with its RAG index)', async () => {
    const expected = {
      [servers.gatewayUrl]: { database: 'ok', rag_index: 'ok', usage_log: 'ok' },
      [servers.storeUrl]: { database: 'ok' },
    };
    for (const [url, checks] of Object.entries(expected)) {
      const response = await fetch(`${url}/readyz`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: 'ok', checks });
    }
  });

  it('put a UUID x-request-id on every response, echoing a well-formed one and replacing a malformed one', async () => {
    const fresh = await fetch(`${servers.gatewayUrl}/healthz`);
    expect(fresh.headers.get('x-request-id')).toMatch(UUID);
    const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
    const echoed = await fetch(`${servers.storeUrl}/nope`, { headers: { 'x-request-id': id } });
    expect(echoed.headers.get('x-request-id')).toBe(id);
    // As sent: a client matching the exact string must find it.
    const upper = id.toUpperCase();
    const echoedUpper = await fetch(`${servers.gatewayUrl}/healthz`, { headers: { 'x-request-id': upper } });
    expect(echoedUpper.headers.get('x-request-id')).toBe(upper);
    const replaced = await fetch(`${servers.gatewayUrl}/healthz`, { headers: { 'x-request-id': 'not-a-uuid' } });
    expect(replaced.headers.get('x-request-id')).toMatch(UUID);
    expect(replaced.headers.get('x-request-id')).not.toBe('not-a-uuid');
  });

  it('answer unknown routes with the shared error shape', async () => {
    const response = await fetch(`${servers.gatewayUrl}/v1/nothing-here`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: { type: 'not_found_error', message: 'no route GET /v1/nothing-here', code: 404 },
    });
  });

  it('serve Prometheus text with process metrics: the gateway publicly, the store behind its token', async () => {
    const gateway = await fetch(`${servers.gatewayUrl}/metrics`);
    expect(gateway.status).toBe(200);
    expect(gateway.headers.get('content-type')).toContain('text/plain');
    expect(await gateway.text()).toContain('process_cpu_user_seconds_total');

    const anonymous = await fetch(`${servers.storeUrl}/metrics`);
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { error: { type: string } }).error.type).toBe('authentication_error');
    const wrong = await fetch(`${servers.storeUrl}/metrics`, {
      headers: { authorization: 'Bearer st-wrong-token-000000000000' },
    });
    expect(wrong.status).toBe(401);
    const store = await fetch(`${servers.storeUrl}/metrics`, {
      headers: { authorization: `Bearer ${TEST_STORE_TOKEN}` },
    });
    expect(store.status).toBe(200);
    const text = await store.text();
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('svc_http_requests_total');
    expect(text).not.toContain(TEST_STORE_TOKEN);
  });

  it('let only the UI origin call the store from a browser', async () => {
    const allowed = await fetch(`${servers.storeUrl}/v1/state`, {
      method: 'OPTIONS',
      headers: { origin: servers.gatewayUrl, 'access-control-request-method': 'GET' },
    });
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(servers.gatewayUrl);
    // Only the methods the store's routes answer.
    expect(allowed.headers.get('access-control-allow-methods')).toBe('GET, POST, DELETE, OPTIONS');
    const foreign = await fetch(`${servers.storeUrl}/healthz`, { headers: { origin: 'https://evil.example' } });
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    // A preflight from elsewhere is told why, in the error shape, rather than "no route OPTIONS".
    const refused = await fetch(`${servers.storeUrl}/v1/apply`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    expect(refused.headers.get('x-request-id')).toBeTruthy();
    expect(await refused.json()).toMatchObject({
      error: { type: 'permission_error', message: expect.stringContaining("origin 'https://evil.example'"), code: 403 },
    });
  });

  it('tell the UI where the store is, without any credential', async () => {
    const response = await fetch(`${servers.gatewayUrl}/ui/bootstrap.json`);
    const body = await response.json();
    expect(body).toMatchObject({ gatewayUrl: servers.gatewayUrl, storeUrl: servers.storeUrl });
    expect(JSON.stringify(body)).not.toContain(TEST_STORE_TOKEN);
  });
});

describe('first start without configured secrets', () => {
  it('generates the master key and store token into the data directory with mode 0600', async () => {
    const servers = await startTempServers({}, { PROXY_MASTER_KEY: '', STORE_TOKEN: '' });
    try {
      expect(servers.masterKey.source).toBe('generated');
      const keyFile = join(servers.dataDir, 'master.key');
      const tokenFile = join(servers.dataDir, 'store.token');
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
      const token = readFileSync(tokenFile, 'utf8').trim();
      const response = await fetch(`${servers.storeUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } });
      expect(response.status).toBe(200);
    } finally {
      await servers.stop();
    }
  });
});

describe('readiness when the database is gone', () => {
  it('answers 503 naming the failing dependency', async () => {
    const servers = await startTempServers();
    try {
      servers.database.sqlite.close();
      for (const url of [servers.gatewayUrl, servers.storeUrl]) {
        const response = await fetch(`${url}/readyz`);
        expect(response.status).toBe(503);
        const body = (await response.json()) as { error: unknown };
        expect(body).toMatchObject({ status: 'unavailable', checks: { database: 'unavailable' } });
        expect(body.error).toMatchObject({ type: 'service_unavailable', code: 503 });
      }
    } finally {
      await servers.stop();
    }
  });
});
