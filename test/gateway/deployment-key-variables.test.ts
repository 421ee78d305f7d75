import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SettingsRepository } from '../../src/server/gateway/model-registry/settings.repository.js';
import {
  gatewayAdmin,
  startTempServers,
  TEST_MASTER_KEY,
  TEST_STORE_TOKEN,
  type TempServers,
} from '../support/temp-servers.js';

// A deployment's api_key_env is sent as the provider key to the deployment's address, which the admin
// API sets: naming the variable of Gatehouse's own master key or store token would hand it to whoever
// runs that address.

const CI_TOKEN = 'st-ci-token-0123456789abcdef';

/** An upstream that records every Authorization header it is sent, and fails. */
async function recordingUpstream(): Promise<{ server: Server; url: string; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((request, response) => {
    seen.push(request.headers.authorization ?? '');
    response.writeHead(500, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, seen };
}

/** Issues a caller key and sends `count` chat requests with it; what they answer does not matter here. */
async function chatAsNewCaller(servers: TempServers, count = 1): Promise<void> {
  const { key } = (await gatewayAdmin(() => servers)('POST', '/internal/api-keys', { name: 'caller' })).body as {
    key: string;
  };
  for (let i = 0; i < count; i++)
    await fetch(`${servers.gatewayUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    });
}

const deployment = (url: string, api_key_env: string) => ({
  id: 'leak',
  model: 'gpt-4o-mini',
  provider: 'openai',
  base_url: url,
  api_key_env,
  max_retries: 0,
});

/**
 * Servers with a recording upstream for one describe block: started before its tests (with the
 * configuration and environment `start` gives for the upstream's address) and stopped after them.
 */
function serversWithUpstream(start: (upstreamUrl: string) => [Record<string, unknown>, NodeJS.ProcessEnv]) {
  const bed = {} as { servers: TempServers; upstream: Awaited<ReturnType<typeof recordingUpstream>> };
  beforeAll(async () => {
    bed.upstream = await recordingUpstream();
    bed.servers = await startTempServers(...start(bed.upstream.url));
  });
  afterAll(async () => {
    await bed.servers.stop();
    bed.upstream.server.close();
  });
  return { bed, admin: gatewayAdmin(() => bed.servers) };
}

describe('deployment api_key_env naming one of Gatehouse’s own credentials', () => {
  const { bed, admin } = serversWithUpstream(() => [
    {
      llm: { allowed_models: ['gpt-4o-mini'] },
      store: { auth: { tokens: [{ name: 'ci', token_env: 'STORE_CI_TOKEN', verbs: ['read'], namespaces: ['*'] }] } },
    },
    { STORE_CI_TOKEN: CI_TOKEN },
  ]);

  it('is refused by the admin API, naming the variable and what it holds, and nothing changes', async () => {
    const before = (await admin('GET', '/internal/deployments')).body;
    const cases = [
      ['PROXY_MASTER_KEY', 'the master key'],
      ['STORE_TOKEN', 'the store token'],
      ['STORE_CI_TOKEN', 'the store token store.auth.tokens[0]'],
    ] as const;
    for (const [variable, holds] of cases) {
      const response = await admin('PUT', '/internal/deployments', {
        deployments: [deployment(bed.upstream.url, variable)],
      });
      expect(response.status, variable).toBe(400);
      expect(response.body.error.message).toBe(
        `deployments[0].api_key_env ${variable} holds ${holds}, which is never sent to a provider: name the variable that holds the provider's key`,
      );
    }
    expect((await admin('GET', '/internal/deployments')).body).toEqual(before);
  });

  it('stops the start when the configuration file names one', async () => {
    await expect(startTempServers({ deployments: [deployment(bed.upstream.url, 'PROXY_MASTER_KEY')] })).rejects.toThrow(
      'deployments[0].api_key_env PROXY_MASTER_KEY holds the master key, which is never sent to a provider',
    );
  });
});

describe('a deployment list saved before such names were refused', () => {
  it('never reads the variable: the upstream gets no credential of Gatehouse', async () => {
    const upstream = await recordingUpstream();
    const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-key-variable-'));
    const config = { llm: { allowed_models: ['gpt-4o-mini'] } };
    try {
      const first = await startTempServers(config, { GATEHOUSE_DATA_DIR: dataDir });
      new SettingsRepository(first.database.db).put(
        'deployments',
        [deployment(upstream.url, 'PROXY_MASTER_KEY'), { ...deployment(upstream.url, 'STORE_TOKEN'), id: 'leak-2' }],
        Date.now(),
      );
      await first.close();
      const second = await startTempServers(config, { GATEHOUSE_DATA_DIR: dataDir });
      try {
        await chatAsNewCaller(second, 4);
        expect(upstream.seen.length).toBeGreaterThan(0);
        for (const header of upstream.seen) {
          expect(header).not.toContain(TEST_MASTER_KEY);
          expect(header).not.toContain(TEST_STORE_TOKEN);
        }
      } finally {
        await second.close();
      }
    } finally {
      upstream.server.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the variables a deployment set through the admin API may read its key from', () => {
  const HOST_SECRET = 'host-secret-0123456789';
  const TEAM_KEY = 'sk-team-0123456789';
  const FILE_KEY = 'sk-file-0123456789';
  const { bed, admin } = serversWithUpstream((upstreamUrl) => [
    {
      llm: { allowed_models: ['gpt-4o-mini', 'file-model'] },
      gateway: { key_variables: ['GATEHOUSE_TEAM_KEY'] },
      deployments: [
        { model: 'file-model', provider: 'openai', base_url: upstreamUrl, api_key_env: 'GATEHOUSE_FILE_KEY' },
      ],
    },
    { GATEHOUSE_HOST_SECRET: HOST_SECRET, GATEHOUSE_TEAM_KEY: TEAM_KEY, GATEHOUSE_FILE_KEY: FILE_KEY },
  ]);

  it('are not every variable of the gateway: another one is refused, naming it, and nothing is sent', async () => {
    const before = (await admin('GET', '/internal/deployments')).body;
    const refused = await admin('PUT', '/internal/deployments', {
      deployments: [deployment(bed.upstream.url, 'GATEHOUSE_HOST_SECRET')],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe(
      'deployments[0].api_key_env GATEHOUSE_HOST_SECRET is not a variable the admin API may read: list it in gateway.key_variables of the startup configuration, or give api_key',
    );
    expect(JSON.stringify(refused.body)).not.toContain(HOST_SECRET);
    expect((await admin('GET', '/internal/deployments')).body).toEqual(before);
    await chatAsNewCaller(bed.servers);
    expect(bed.upstream.seen.join(' ')).not.toContain(HOST_SECRET);
  });

  it('are those in gateway.key_variables and those the file’s deployments name, sent as the key', async () => {
    for (const [variable, value] of [
      ['GATEHOUSE_TEAM_KEY', TEAM_KEY],
      ['GATEHOUSE_FILE_KEY', FILE_KEY],
    ] as const) {
      const saved = await admin('PUT', '/internal/deployments', {
        deployments: [deployment(bed.upstream.url, variable)],
      });
      expect(saved.status, variable).toBe(200);
      bed.upstream.seen.length = 0;
      await chatAsNewCaller(bed.servers);
      expect(bed.upstream.seen[0], variable).toBe(`Bearer ${value}`);
    }
  });
});

describe('a deployment list saved through the admin API before its variable was allowed no longer', () => {
  it('never reads the variable once the startup configuration stops allowing it', async () => {
    const upstream = await recordingUpstream();
    const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-key-variable-'));
    const env = { GATEHOUSE_DATA_DIR: dataDir, GATEHOUSE_TEAM_KEY: 'sk-team-0123456789' };
    const config = { llm: { allowed_models: ['gpt-4o-mini'] } };
    try {
      const first = await startTempServers({ ...config, gateway: { key_variables: ['GATEHOUSE_TEAM_KEY'] } }, env);
      const saved = await fetch(`${first.gatewayUrl}/internal/deployments`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ deployments: [deployment(upstream.url, 'GATEHOUSE_TEAM_KEY')] }),
      });
      expect(saved.status).toBe(200);
      await first.close();
      const second = await startTempServers(config, env);
      try {
        await chatAsNewCaller(second);
        expect(upstream.seen.length).toBeGreaterThan(0);
        expect(upstream.seen.join(' ')).not.toContain('sk-team-0123456789');
      } finally {
        await second.close();
      }
    } finally {
      upstream.server.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
