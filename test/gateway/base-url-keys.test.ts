import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SettingsRepository } from '../../src/server/gateway/model-registry/settings.repository.js';
import { startTempServers, TEST_MASTER_KEY } from '../support/temp-servers.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

// A key pasted into a base_url's path or query under any name is refused, and never shown.

const OPENAI_KEY = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123';
const ANTHROPIC_KEY = 'sk-ant-api03-abcdefghijklmnop0123456789';
const GOOGLE_KEY = 'AIzaSyA1234567890abcdefghijklmn';

describe('key-shaped values in a deployment base_url', () => {
  let harness: GatewayHarness;
  beforeAll(async () => {
    harness = await startGatewayHarness();
  });
  afterAll(async () => harness.close());
  const put = (base_url: string) =>
    harness.admin('PUT', '/internal/deployments', {
      deployments: [{ id: 'local', model: 'gpt-4o-mini', provider: 'openai', base_url }],
    });

  it('refuses a key in the query under a name that is no credential, without echoing it', async () => {
    for (const key of [OPENAI_KEY, ANTHROPIC_KEY, GOOGLE_KEY]) {
      const response = await put(`http://127.0.0.1:19510/v1?x=${key}`);
      expect(response.status, key).toBe(400);
      expect(response.body.error.message).toBe(
        'deployments[0].base_url must not carry a credential in its query (x=**** looks like a key), ' +
          'got http://127.0.0.1:19510/v1; put the key in api_key',
      );
      expect(JSON.stringify(response.body)).not.toContain(key.slice(8));
    }
  });

  it('refuses a key in the path, percent-encoded too, showing the path masked', async () => {
    for (const path of [`/${OPENAI_KEY}/v1`, `/${OPENAI_KEY.replace('s', '%73')}/v1`]) {
      const response = await put(`http://127.0.0.1:19510${path}`);
      expect(response.status, path).toBe(400);
      expect(response.body.error.message).toBe(
        'deployments[0].base_url must not carry a credential in its path (**** looks like a key), ' +
          'got http://127.0.0.1:19510/****/v1; put the key in api_key',
      );
      expect(JSON.stringify(response.body)).not.toContain(OPENAI_KEY.slice(8));
    }
  });

  it('keeps ordinary provider addresses', async () => {
    for (const address of [
      'https://x.openai.azure.com/openai/deployments/gpt-4o-2024-08-06?api-version=2024-08-01-preview',
      'https://gateway.ai.cloudflare.com/v1/0123456789abcdef0123456789abcdef/gw/openai',
      'https://generativelanguage.googleapis.com/v1beta/openai',
      'http://127.0.0.1:11434/sk-learn/v1',
    ]) {
      const response = await put(address);
      expect(response.status, address).toBe(200);
      expect(response.body.data[0].base_url).toBe(address);
    }
  });

  it('quotes a host-less scheme as it was sent', async () => {
    const response = await put('JavaScript:alert(1)');
    expect(response.status).toBe(400);
    expect(response.body.error.message).toBe(
      "deployments[0].base_url must be an http:// or https:// URL, got the scheme 'JavaScript:'",
    );
  });
});

describe('key-shaped values in a base_url saved before they were refused', () => {
  it('are shown masked by the admin API', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-keyed-url-'));
    try {
      const first = await startTempServers({}, { GATEHOUSE_DATA_DIR: dataDir });
      new SettingsRepository(first.database.db).put(
        'deployments',
        [
          {
            id: 'in-query',
            model: 'gpt-4o-mini',
            provider: 'openai',
            base_url: `https://q.example.test/v1?x=${OPENAI_KEY}&v=2`,
          },
          { id: 'in-path', model: 'gpt-4o', provider: 'openai', base_url: `https://p.example.test/${GOOGLE_KEY}/v1` },
        ],
        Date.now(),
      );
      await first.close();
      const second = await startTempServers({}, { GATEHOUSE_DATA_DIR: dataDir });
      try {
        const response = await fetch(`${second.gatewayUrl}/internal/deployments`, {
          headers: { authorization: `Bearer ${TEST_MASTER_KEY}` },
        });
        const text = await response.text();
        expect(response.status).toBe(200);
        expect(text).not.toContain(OPENAI_KEY.slice(8));
        expect(text).not.toContain(GOOGLE_KEY.slice(6));
        const shown = Object.fromEntries(
          (JSON.parse(text).data as Array<{ id: string; base_url: string }>).map((d) => [d.id, d.base_url]),
        );
        expect(shown['in-query']).toBe('https://q.example.test/v1?x=****&v=2');
        expect(shown['in-path']).toBe('https://p.example.test/****/v1');
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
