import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnHeadless } from '../support/headless-process.js';

const MASTER = 'gk-master-pricing-0123456789abcdef';

/**
 * A price under a name no request is priced by (a typo, an alias) made every request cost 0, so a
 * `usd_daily_budget` never filled, without a word. The gateway now names each such entry at start.
 */
describe('pricing entries that price nothing', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-pricing-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('are named in the log at start, with the model most likely meant; upstream names are fine', async () => {
    const file = join(dir, 'gatehouse.json');
    const price = { input_per_mtok: 1, output_per_mtok: 2 };
    writeFileSync(
      file,
      JSON.stringify({
        llm: { allowed_models: ['gpt-4o-mini', 'local-llama'], model_aliases: { fast: 'gpt-4o-mini' } },
        deployments: [
          {
            model: 'local-llama',
            provider: 'ollama',
            upstream_model: 'ollama/llama3.2',
            base_url: 'http://127.0.0.1:9/v1',
          },
        ],
        pricing: { 'gpt-4o-mni': price, fast: price, 'gpt-4o-mini': price, 'llama3.2': price },
      }),
    );
    const server = await spawnHeadless({ GATEHOUSE_CONFIG: file, GATEHOUSE_DATA_DIR: dir, PROXY_MASTER_KEY: MASTER });
    server.child.kill('SIGTERM');
    await server.exited();
    const log = server.output();
    expect(log).toContain(
      "configuration: pricing.gpt-4o-mni: 'gpt-4o-mni' is neither in llm.allowed_models nor a deployment's upstream model, so it prices no request (they cost 0 and reach no cost budget); did you mean 'gpt-4o-mini'?",
    );
    expect(log).toContain(
      "configuration: pricing.fast: 'fast' is an alias, and requests are priced by the model it points at; name its target 'gpt-4o-mini'",
    );
    expect(log).not.toContain('pricing.gpt-4o-mini:');
    expect(log).not.toContain('pricing.llama3.2');
  });
});
