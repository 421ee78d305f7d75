import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnHeadless, waitForLogLine, type HeadlessProcess, issueKey } from '../support/headless-process.js';
import { startOpenAIUpstream, type OpenAIUpstream } from '../support/upstreams/index.js';

const MASTER = 'gk-master-opsfix-log-0123456789';
const PROVIDER_KEY = 'sk-opsfix-provider-0123456789';
const PROMPT = 'opsfix secret prompt text';

/**
 * An upstream failure answered before any byte is one warning in the log; it named the route and the
 * status but not which model or deployment failed, so an operator could not tell which upstream to look at.
 */
describe('the log line of an upstream failure', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-opsfix-log-'));
  let upstream: OpenAIUpstream;
  let server: HeadlessProcess;

  beforeAll(async () => {
    upstream = await startOpenAIUpstream();
    const file = join(dir, 'gatehouse.yaml');
    writeFileSync(
      file,
      [
        'llm:',
        '  allowed_models: [pooled]',
        'gateway:',
        '  max_retries: 0',
        'deployments:',
        `  - { id: primary, model: pooled, provider: openai, upstream_model: gpt-4o-mini, base_url: "${upstream.url}", api_key: ${PROVIDER_KEY} }`,
        '',
      ].join('\n'),
    );
    server = await spawnHeadless({
      GATEHOUSE_DATA_DIR: join(dir, 'data'),
      GATEHOUSE_CONFIG: file,
      PROXY_MASTER_KEY: MASTER,
      GATEHOUSE_LOG_LEVEL: 'info',
    });
  });
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited();
    await upstream?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('names the model and the deployment, never the prompt or the key', async () => {
    const { key } = await issueKey(server.gatewayUrl, MASTER, { name: 'log', scopes: ['chat'] });
    const client = new OpenAI({ baseURL: `${server.gatewayUrl}/v1`, apiKey: key, maxRetries: 0 });
    upstream.setNext({ status: 500 });
    await expect(
      client.chat.completions.create({ model: 'pooled', messages: [{ role: 'user', content: PROMPT }] }),
    ).rejects.toThrow(/openai upstream returned 500/);
    const line = await waitForLogLine(server, (entry) => String(entry.msg).startsWith('upstream failure:'));
    expect(line).toMatchObject({ level: 40, model: 'pooled', deployment: 'primary', status: 502 });
    expect(server.output()).not.toContain(PROMPT);
    expect(server.output()).not.toContain(PROVIDER_KEY);
  });
});
