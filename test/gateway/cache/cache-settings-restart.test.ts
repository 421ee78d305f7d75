import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/server/config/load.js';
import { startServers } from '../../../src/server/start.js';
import { TEST_MASTER_KEY } from '../../support/temp-servers.js';

/** Cache settings changed through the admin API outlive a restart; the file's return only with a reset. */
describe('cache settings across a restart', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-cache-restart-'));
  const env = {
    GATEHOUSE_DATA_DIR: dataDir,
    GATEWAY_PORT: '0',
    STORE_PORT: '0',
    GATEHOUSE_LOG_LEVEL: 'silent',
    PROXY_MASTER_KEY: TEST_MASTER_KEY,
    STORE_TOKEN: 'st-test-token-0123456789abcdef',
  };
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  const start = () => startServers(loadConfig({ env, overrides: { cache: { ttl_seconds: 60 } } }).config, { env });
  const call = async (url: string, method: string, body?: unknown) => {
    const response = await fetch(`${url}/internal/cache`, {
      method,
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await response.json()) as { source: string; settings: Record<string, unknown> };
  };

  it('keeps an admin change, and the reset returns to the file', async () => {
    const first = await start();
    try {
      expect((await call(first.gatewayUrl, 'GET')).settings.ttl_seconds).toBe(60);
      await call(first.gatewayUrl, 'PUT', {
        enabled: true,
        ttl_seconds: 900,
        models: { 'demo/echo': { sampled: true } },
      });
    } finally {
      await first.close();
    }
    const second = await start();
    try {
      const view = await call(second.gatewayUrl, 'GET');
      expect(view).toMatchObject({
        source: 'database',
        settings: { enabled: true, ttl_seconds: 900, models: { 'demo/echo': { sampled: true } } },
      });
      const reset = await call(second.gatewayUrl, 'PUT', { reset: true });
      expect(reset).toMatchObject({ source: 'config', settings: { enabled: false, ttl_seconds: 60, models: {} } });
    } finally {
      await second.close();
    }
  });
});
