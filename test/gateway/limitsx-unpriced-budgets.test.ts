import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from '../support/headless-process.js';

/**
 * A dollar budget does nothing for a model without a price: its requests cost 0. `--check` says which
 * models a budget cannot stop, so a budget that silently never applies is seen before it is relied on.
 */
describe('dollar budgets over models without a price', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-limitsx-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const env = { GATEHOUSE_DATA_DIR: join(dir, 'data'), GATEHOUSE_CONFIG: '', PROXY_MASTER_KEY: '' };

  const check = async (lines: readonly string[]): Promise<{ stdout: string; stderr: string }> => {
    const file = join(dir, `config-${Math.random().toString(36).slice(2)}.yaml`);
    writeFileSync(file, [...lines, ''].join('\n'));
    return promisify(execFile)(
      process.execPath,
      [...SERVER_NODE_FLAGS, '--import', 'tsx', 'src/server/cli.ts', '--check', '--config', file],
      { env: { ...process.env, GATEWAY_PORT: '0', STORE_PORT: '0', ...env }, timeout: 25_000 },
    );
  };

  const models = [
    'llm:',
    '  allowed_models: [demo/echo, priced-model, cheap-alias]',
    'deployments:',
    '  - { id: local, model: priced-model, provider: openai, base_url: "http://127.0.0.1:9/v1", api_key: sk-local-0123456789, upstream_model: llama-3 }',
    '  - { id: other, model: cheap-alias, provider: openai, base_url: "http://127.0.0.1:9/v1", api_key: sk-local-0123456789, upstream_model: qwen-2 }',
  ];

  it('--check warns, naming the budgets and the models (by their upstream model where it differs)', async () => {
    const { stdout, stderr } = await check([
      ...models,
      'pricing:',
      '  llama-3: { input_per_mtok: 1, output_per_mtok: 2 }',
      'limits:',
      '  users: { usd_daily_budget: 5 }',
      '  keys: { usd_monthly_budget: 0 }',
    ]);
    expect(stdout).toContain('is valid');
    expect(stderr).toContain(
      "gatehouse: limits.keys.usd_monthly_budget, limits.users.usd_daily_budget: dollar budgets are set, but 'cheap-alias' (upstream 'qwen-2') has no price in pricing, so its requests cost $0 and no dollar budget stops them",
    );
    // priced-model is priced by its upstream model's name; the built-in demo models cost nothing anywhere.
    expect(stderr).not.toContain("'priced-model'");
    expect(stderr).not.toContain("'demo/echo'");
  });

  it('says nothing without a dollar budget, or when every model has a price', async () => {
    const unbudgeted = await check([...models, 'limits:', '  users: { tpd_budget: 1000 }']);
    expect(unbudgeted.stderr).not.toContain('dollar budgets');
    const priced = await check([
      ...models,
      'pricing:',
      '  llama-3: { input_per_mtok: 1, output_per_mtok: 2 }',
      '  cheap-alias: { input_per_mtok: 1, output_per_mtok: 2 }',
      'limits:',
      '  teams: { usd_daily_budget: 5 }',
    ]);
    expect(priced.stdout).toContain('is valid');
    expect(priced.stderr).not.toContain('dollar budgets');
  });
});
