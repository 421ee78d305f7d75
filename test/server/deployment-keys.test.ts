import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { failedStart, spawnHeadless } from '../support/headless-process.js';
import { startTempServers, TEST_MASTER_KEY, type TempServers } from '../support/temp-servers.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function configDir(yaml: string): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-keyenv-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'gatehouse.yaml');
  writeFileSync(file, yaml);
  return { dir, file };
}

const DEPLOYMENT = [
  'llm:',
  '  allowed_models: [claude-sonnet-4-5]',
  'deployments:',
  '  - model: claude-sonnet-4-5',
  '    provider: anthropic',
  '    api_key_env: GATEHOUSE_TEST_ANTHROPIC_KEY',
  '',
].join('\n');

describe('a deployment whose api_key_env names a variable that is not set', () => {
  it('stops the headless start, exiting 2, naming the file, the deployment and the variable', async () => {
    const { dir, file } = configDir(DEPLOYMENT);
    const failure = await failedStart({ GATEHOUSE_CONFIG: file, GATEHOUSE_DATA_DIR: join(dir, 'data') });
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toBe(
      `gatehouse: invalid configuration in ${file}:\n` +
        "  deployments[0].api_key_env GATEHOUSE_TEST_ANTHROPIC_KEY is not set in the gateway's environment: set it before starting, or give api_key\n",
    );
  });

  it('starts once the variable is set', async () => {
    const { dir, file } = configDir(DEPLOYMENT);
    const server = await spawnHeadless({
      GATEHOUSE_CONFIG: file,
      GATEHOUSE_DATA_DIR: join(dir, 'data'),
      GATEHOUSE_TEST_ANTHROPIC_KEY: 'sk-ant-test',
    });
    server.child.kill('SIGTERM');
    expect(await server.exited(), server.output()).toBe(0);
  });

  it('is refused by the admin API too, and nothing changes', async () => {
    // A variable the admin API may read (gateway.key_variables), so it is refused for being unset.
    const servers: TempServers = await startTempServers({ gateway: { key_variables: ['GATEHOUSE_TEST_UNSET_KEY'] } });
    cleanups.push(() => servers.stop());
    const put = (body: unknown): Promise<Response> =>
      fetch(`${servers.gatewayUrl}/internal/deployments`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const refused = await put({
      deployments: [{ model: 'claude-sonnet-4-5', provider: 'anthropic', api_key_env: 'GATEHOUSE_TEST_UNSET_KEY' }],
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      error: {
        type: 'invalid_request_error',
        message:
          "deployments[0].api_key_env GATEHOUSE_TEST_UNSET_KEY is not set in the gateway's environment: set it before starting, or give api_key",
        code: 400,
      },
    });
    const listed = await fetch(`${servers.gatewayUrl}/internal/deployments`, {
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}` },
    });
    expect(((await listed.json()) as { data: unknown[] }).data).toEqual([]);
  });

  it('refuses a key pasted into api_key_env in the file without showing it', async () => {
    const { dir, file } = configDir(DEPLOYMENT.replace('GATEHOUSE_TEST_ANTHROPIC_KEY', 'sk-ant-api03-pasted-secret'));
    const failure = await failedStart({ GATEHOUSE_CONFIG: file, GATEHOUSE_DATA_DIR: join(dir, 'data') });
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toContain(
      '  deployments[0].api_key_env: must be an environment variable name, like OPENAI_API_KEY\n',
    );
    expect(failure?.stderr).not.toContain('pasted-secret');
  });
});

describe('a deployment saved through the admin API whose key variable the configuration no longer allows', () => {
  it('is named in the log at start, saying its calls go without that key', async () => {
    const master = 'gk-master-keyvars-0123456789abcdef';
    const allowed = configDir(
      ['llm:', '  allowed_models: [gpt-4o-mini]', 'gateway:', '  key_variables: [GATEHOUSE_TEST_TEAM_KEY]', ''].join(
        '\n',
      ),
    );
    const env = {
      GATEHOUSE_DATA_DIR: join(allowed.dir, 'data'),
      GATEHOUSE_TEST_TEAM_KEY: 'sk-team-0123456789',
      PROXY_MASTER_KEY: master,
    };
    const first = await spawnHeadless({ ...env, GATEHOUSE_CONFIG: allowed.file });
    const saved = await fetch(`${first.gatewayUrl}/internal/deployments`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${master}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        deployments: [
          {
            id: 'team',
            model: 'gpt-4o-mini',
            provider: 'openai',
            base_url: 'http://127.0.0.1:9/v1',
            api_key_env: 'GATEHOUSE_TEST_TEAM_KEY',
          },
        ],
      }),
    });
    expect(saved.status).toBe(200);
    first.child.kill('SIGTERM');
    expect(await first.exited(), first.output()).toBe(0);
    expect(first.output()).not.toContain('GATEHOUSE_TEST_TEAM_KEY');

    const narrower = configDir(['llm:', '  allowed_models: [gpt-4o-mini]', ''].join('\n'));
    const second = await spawnHeadless({ ...env, GATEHOUSE_CONFIG: narrower.file });
    second.child.kill('SIGTERM');
    await second.exited();
    expect(second.output()).toContain(
      "configuration: deployment 'team' (saved through PUT /internal/deployments): api_key_env GATEHOUSE_TEST_TEAM_KEY is not a variable the admin API may read, so its calls go without that key: list it in gateway.key_variables of the startup configuration, or save the deployment with api_key",
    );
    expect(second.output()).not.toContain('sk-team-0123456789');
  });
});
