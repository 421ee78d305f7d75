import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/connection.js';
import { SettingsRepository } from '../../src/server/gateway/model-registry/settings.repository.js';
import { failedStart } from '../support/headless-process.js';
import { gatewayAdmin, startTempServers, type TempServers } from '../support/temp-servers.js';
import { startOpenAIUpstream, type OpenAIUpstream } from '../support/upstreams/index.js';

/** A key as a `.env` file saved with CRLF line ends gives it: a carriage return at its end. */
const CRLF_KEY = 'sk-crlf-0123456789\r';

/**
 * A provider key with a line break, a space or another control character cannot go out in a request
 * header: every call failed before it left, was retried and cooled the deployment down. It is refused
 * where it is set (the configuration check and the admin API), naming where it came from, never the key.
 */
describe('a provider key the gateway could not send', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-opsfix-key-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const env = { GATEHOUSE_DATA_DIR: join(dir, 'data'), GATEHOUSE_CONFIG: '', PROXY_MASTER_KEY: '' };

  it('is refused by --check, exiting 2 and naming the variable or the field, without printing it', async () => {
    const file = join(dir, 'keys.yaml');
    writeFileSync(
      file,
      [
        'deployments:',
        '  - { id: from-env, model: a, provider: openai, base_url: "http://127.0.0.1:9/v1", api_key_env: LOCAL_LLM_KEY }',
        '  - { id: literal, model: b, provider: openai, base_url: "http://127.0.0.1:9/v1", api_key: "sk-literal 0123456789" }',
        '',
      ].join('\n'),
    );
    const failure = await failedStart(
      { ...env, LOCAL_LLM_KEY: CRLF_KEY, OPENAI_API_KEY: 'sk-provider-0123456789\n' },
      20_000,
      ['--check', '--config', file],
    );
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toContain(`invalid configuration in ${file}:`);
    expect(failure?.stderr).toContain(
      'deployments[0].api_key_env LOCAL_LLM_KEY holds a value with a space or another character a provider key cannot hold (it ends in a line break, as a value from a file saved with CRLF line ends does): use only printable ASCII without spaces',
    );
    expect(failure?.stderr).toContain(
      'deployments[1].api_key has a space or another character a provider key cannot hold: use only printable ASCII without spaces',
    );
    expect(failure?.stderr).toContain(
      'OPENAI_API_KEY (providers.openai.api_key): has a space or another character a provider key cannot hold (it ends in a line break',
    );
    expect(failure?.stderr).not.toContain('0123456789');
  });

  describe('over the admin API and at call time', () => {
    let upstream: OpenAIUpstream;
    let servers: TempServers;
    const admin = gatewayAdmin(() => servers);

    beforeAll(async () => {
      upstream = await startOpenAIUpstream({ apiKey: 'sk-crlf-0123456789' });
      // A list saved by a version that did not check keys yet: the gateway still reads it.
      const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-opsfix-key-data-'));
      const database = openDatabase(join(dataDir, 'gatehouse.db'));
      new SettingsRepository(database.db).put(
        'deployments',
        [
          {
            id: 'saved',
            model: 'm',
            provider: 'openai',
            upstream_model: 'gpt-4o-mini',
            base_url: upstream.url,
            api_key: CRLF_KEY,
          },
        ],
        Date.now(),
      );
      database.close();
      servers = await startTempServers(
        { llm: { allowed_models: ['m'] }, gateway: { cooldown_after_failures: 1, max_retries: 2 } },
        { GATEHOUSE_DATA_DIR: dataDir },
      );
    });
    afterAll(async () => {
      await servers?.stop();
      await upstream?.close();
    });

    it('PUT /internal/deployments answers 400 naming the field, and keeps the list', async () => {
      const answer = await admin('PUT', '/internal/deployments', {
        deployments: [
          { id: 'new', model: 'm', provider: 'openai', base_url: upstream.url, api_key: 'sk-new-0123456789\r\n' },
        ],
      });
      expect(answer.status).toBe(400);
      expect(answer.body.error.message).toBe(
        'deployments[0].api_key has a space or another character a provider key cannot hold (it ends in a line break, as a value from a file saved with CRLF line ends does): use only printable ASCII without spaces, which is all an Authorization: Bearer header carries',
      );
      expect(JSON.stringify(answer.body)).not.toContain('0123456789');
      const list = await admin('GET', '/internal/deployments');
      expect(list.body.data.map((d: { id: string }) => d.id)).toEqual(['saved']);
    });

    it('a call with a key saved earlier fails once, saying what was invalid, without cooling the deployment down', async () => {
      const created = await admin('POST', '/internal/api-keys', { name: 'crlf', scopes: ['chat'] });
      const client = new OpenAI({ baseURL: `${servers.gatewayUrl}/v1`, apiKey: created.body.key, maxRetries: 0 });
      const error = await client.chat.completions
        .create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })
        .then(
          () => undefined,
          (thrown: unknown) => thrown as InstanceType<typeof OpenAI.APIError>,
        );
      expect(error).toBeInstanceOf(OpenAI.APIError);
      expect(error!.message).toContain('request not sent');
      expect(error!.message).toContain('invalid authorization header');
      expect(error!.message).not.toContain('connection failed');
      expect(error!.message).not.toContain('after 3 attempts');
      expect(error!.message).not.toContain('0123456789');
      expect(upstream.requests).toHaveLength(0);
      const health = await admin('GET', '/internal/deployments/health');
      const saved = health.body.data.find((d: { id: string }) => d.id === 'saved');
      expect(saved).toMatchObject({ consecutive_failures: 0, cooldown_until: null });
      expect(saved.state).not.toBe('cooling_down');
      expect(saved.last_error).toContain('invalid authorization header');
    });
  });
});
