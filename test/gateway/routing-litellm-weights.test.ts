import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnHeadless, type HeadlessProcess, issueKey } from '../support/headless-process.js';
import { startOpenAIUpstream, type OpenAIUpstream } from '../support/upstreams/index.js';

const MASTER = 'gk-master-litellm-weights-0123456789';

/**
 * A LiteLLM deployment of `weight: 0` gets no traffic there (its weighted shuffle never picks it).
 * Gatehouse has no weight 0; converted with its default weight of 1 it received an equal share, so it
 * is now left out, and the conversion says so.
 */
describe('a LiteLLM config with a deployment of weight 0', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-litellm-weights-'));
  let live: OpenAIUpstream;
  let parked: OpenAIUpstream;
  let server: HeadlessProcess;

  beforeAll(async () => {
    [live, parked] = await Promise.all([startOpenAIUpstream(), startOpenAIUpstream()]);
    const file = join(dir, 'litellm.yaml');
    writeFileSync(
      file,
      [
        'model_list:',
        '  - model_name: team-model',
        `    litellm_params: { model: openai/gpt-4o-mini, api_base: "${live.url}", api_key: sk-live-0123456789, weight: 2 }`,
        '  - model_name: team-model',
        `    litellm_params: { model: openai/gpt-4o-mini, api_base: "${parked.url}", api_key: sk-parked-0123456789, weight: 0 }`,
        '',
      ].join('\n'),
    );
    server = await spawnHeadless({ GATEHOUSE_CONFIG: file, GATEHOUSE_DATA_DIR: dir, PROXY_MASTER_KEY: MASTER });
  });
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited();
    await Promise.all([live?.close(), parked?.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('leaves that deployment out, says so, and sends it nothing', async () => {
    const { key } = await issueKey(server.gatewayUrl, MASTER, { name: 'weights' });
    for (let i = 0; i < 40; i += 1) {
      const response = await fetch(`${server.gatewayUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'team-model', messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(response.status).toBe(200);
      await response.text();
    }
    expect(live.requests).toHaveLength(40);
    expect(parked.requests).toHaveLength(0);
    expect(server.output()).toContain(
      'not mapped: model_list[1].litellm_params.weight: 0, so LiteLLM never routes to it; this deployment is left out',
    );
  });
});
