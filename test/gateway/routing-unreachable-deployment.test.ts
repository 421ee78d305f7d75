import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnHeadless } from '../support/headless-process.js';

const MASTER = 'gk-master-unreachable-0123456789abcdef';

/**
 * A deployment whose `model` no request is routed by: a typo of an allowed model (whose requests then
 * go to the deployment derived from its name, the provider's public address, instead of the local
 * one meant), or an alias (rewritten to its target before routing). Nothing refuses the file for it,
 * since a deployment may serve only `rag.embedding_model` or passthrough embeddings; the gateway now
 * names each one in its log at start.
 */
describe('deployments no request reaches', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-unreachable-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('are named in the log at start, with the model they were most likely meant for', async () => {
    const file = join(dir, 'gatehouse.json');
    const local = { provider: 'openai_compatible', base_url: 'http://127.0.0.1:9/v1' };
    writeFileSync(
      file,
      JSON.stringify({
        llm: { allowed_models: ['gpt-4o-mini', 'local-llama'], model_aliases: { fast: 'gpt-4o-mini' } },
        rag: { embedding_model: 'local-embed' },
        deployments: [
          { ...local, model: 'gpt-4o-mni' },
          { ...local, model: 'fast' },
          { ...local, model: 'local-llama' },
          { ...local, model: 'local-embed' },
        ],
      }),
    );
    const server = await spawnHeadless({ GATEHOUSE_CONFIG: file, GATEHOUSE_DATA_DIR: dir, PROXY_MASTER_KEY: MASTER });
    // Read once the process has ended: its stdout and stderr arrive through separate pipes, in no set order.
    server.child.kill('SIGTERM');
    await server.exited();
    const log = server.output();
    expect(log).toContain(
      "configuration: deployments[0].model: 'gpt-4o-mni' is not in llm.allowed_models, so no request is routed to this deployment (did you mean 'gpt-4o-mini'?)",
    );
    expect(log).toContain(
      "configuration: deployments[1].model: 'fast' is an alias, and requests are routed by the model it points at; name its target 'gpt-4o-mini'",
    );
    expect(log).not.toContain('deployments[2]');
    expect(log).not.toContain('deployments[3]');
  });
});
