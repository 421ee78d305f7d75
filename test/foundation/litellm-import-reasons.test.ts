import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { loadConfig } from '../../src/server/config/load.js';
import { importLiteLlmConfig } from '../../src/server/config/litellm-import.js';
import { failedStart } from '../support/headless-process.js';

// What the LiteLLM import converts, and the reasons it gives for what it does not: each one says
// what Gatehouse does instead and which of its settings comes closest.

const MODEL = `model_list:
  - model_name: gpt-4o-mini
    litellm_params: {model: openai/gpt-4o-mini, api_base: "http://127.0.0.1:9/v1", api_key: os.environ/OPENAI_API_KEY}
`;

const imported = (yaml: string) => importLiteLlmConfig(parseYaml(yaml) as Record<string, unknown>);
const reasonOf = (unmapped: ReadonlyArray<{ path: string; reason: string }>, path: string): string | undefined =>
  unmapped.find((key) => key.path === path)?.reason;
/** The converted config as a start reads it. */
const loaded = (config: Record<string, unknown>) =>
  loadConfig({ env: { OPENAI_API_KEY: 'sk-test' }, overrides: config as never }).config;

function tempFile(name: string, text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'gatehouse-litellm-reasons-')), name);
  writeFileSync(file, text);
  return file;
}

describe('LiteLLM import: reasons that say what to do', () => {
  it('takes a fallback to the same model group as what Gatehouse does, and reports only other models', () => {
    const { unmapped, config } = imported(
      `${MODEL}router_settings:\n  fallbacks: [{"gpt-4o-mini": ["gpt-4o-mini"]}, {"gpt-4o-mini": ["gpt-4o-mini", "claude"]}]\n`,
    );
    expect(unmapped.map((key) => key.path)).toEqual(['router_settings.fallbacks[1].gpt-4o-mini']);
    expect(reasonOf(unmapped, 'router_settings.fallbacks[1].gpt-4o-mini')).toBe(
      'Gatehouse falls back only between deployments of the same model, never to another model (claude)',
    );
    expect(() => loaded(config)).not.toThrow();
  });

  it("turns LiteLLM's cache into the cache section, kept in process rather than in redis", () => {
    const { unmapped, notes, config } = imported(
      `${MODEL}litellm_settings:\n  cache: true\n  cache_params: {type: redis, ttl: 600, host: os.environ/REDIS_HOST}\n`,
    );
    expect(config.cache).toEqual({ enabled: true, sampled: true, ttl_seconds: 600 });
    expect(notes).toContain(
      'litellm_settings.cache: became cache.enabled: true with cache.ttl_seconds: 600 and cache.sampled: true (LiteLLM caches sampled answers too); answers are kept in process, not in redis, and a restart empties the cache',
    );
    expect(unmapped.map((key) => key.path)).toEqual(['litellm_settings.cache_params.host']);
    expect(reasonOf(unmapped, 'litellm_settings.cache_params.host')).toContain("in the gateway's memory");
    expect(loaded(config).cache).toMatchObject({ enabled: true, sampled: true, ttl_seconds: 600 });
  });

  it('reports cache_params without cache: true, which LiteLLM does not read either', () => {
    const { unmapped, config } = imported(`${MODEL}litellm_settings:\n  cache_params: {type: local, ttl: 60}\n`);
    expect(config.cache).toBeUndefined();
    expect(reasonOf(unmapped, 'litellm_settings.cache_params')).toBe(
      'LiteLLM reads it only with litellm_settings.cache: true, which this file does not set',
    );
  });

  it('says the models of an included file were not read, and to convert it too', () => {
    const { unmapped } = imported(`include:\n  - more_models.yaml\n${MODEL}`);
    expect(reasonOf(unmapped, 'include[0]')).toBe(
      'the models and settings of more_models.yaml were not read: convert that file too (npm run import:litellm -- more_models.yaml) and merge the result into this one',
    );
  });

  it('names the closest Gatehouse setting for stream_timeout, presidio guardrails, max_budget and routing_strategy', () => {
    const { unmapped, config } = imported(`model_list:
  - model_name: gpt-4o-mini
    litellm_params: {model: openai/gpt-4o-mini, api_base: "http://127.0.0.1:9/v1", api_key: os.environ/OPENAI_API_KEY, stream_timeout: 30}
router_settings:
  routing_strategy: usage-based-routing-v2
  stream_timeout: 20
litellm_settings:
  max_budget: 100
  budget_duration: 30d
guardrails:
  - guardrail_name: pii
    litellm_params: {guardrail: presidio, mode: pre_call}
  - guardrail_name: other
    litellm_params: {guardrail: lakera_prompt_injection, mode: pre_call}
`);
    const reasons = Object.fromEntries(unmapped.map(({ path, reason }) => [path, reason]));
    expect(reasons['model_list[0].litellm_params.stream_timeout']).toContain('timeout_ms');
    expect(reasons['router_settings.stream_timeout']).toContain('timeout_ms');
    expect(reasons['router_settings.routing_strategy']).toBe(
      "Gatehouse has no usage-based-routing-v2: it tries a model's deployments in weighted random order (simple-shuffle), skipping those cooling down; steer traffic with each deployment's weight",
    );
    expect(reasons['litellm_settings.max_budget']).toContain('usd_monthly_budget');
    expect(reasons['litellm_settings.budget_duration']).toContain('usd_daily_budget');
    expect(reasons['guardrails[0]']).toContain('set pii.mode: mask');
    expect(reasons['guardrails[1]']).toContain('pii and content_policy');
    expect(Object.values(reasons)).not.toContain('no Gatehouse equivalent');
    expect(() => loaded(config)).not.toThrow();
  });

  it('names PROXY_MASTER_KEY and the variable the file read its master key from', () => {
    const { unmapped } = imported(`${MODEL}general_settings:\n  master_key: os.environ/LITELLM_MASTER_KEY\n`);
    expect(reasonOf(unmapped, 'general_settings.master_key')).toBe(
      'Gatehouse reads the master key from PROXY_MASTER_KEY (or generates one): set PROXY_MASTER_KEY to the value of LITELLM_MASTER_KEY',
    );
  });

  it('heads what it left out without claiming there is no equivalent, and the output loads', () => {
    const input = tempFile(
      'config.yaml',
      `${MODEL}general_settings:\n  master_key: os.environ/LITELLM_MASTER_KEY\nlitellm_settings:\n  cache: true\n`,
    );
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/config/import-litellm-cli.ts', input], {
      encoding: 'utf8',
      env: { ...process.env, NODE_NO_WARNINGS: '1' },
      timeout: 12_000,
    });
    expect(run.status).toBe(0);
    expect(run.stdout).not.toContain('no Gatehouse equivalent yet');
    expect(run.stdout).toContain(
      '# Not converted (each line says why, and what to set instead where Gatehouse has something close):\n#   not mapped: general_settings.master_key: Gatehouse reads the master key from PROXY_MASTER_KEY',
    );
    const output = tempFile('gatehouse.yaml', run.stdout);
    const { config } = loadConfig({ env: { OPENAI_API_KEY: 'sk-test' }, file: output });
    expect(config.cache.enabled).toBe(true);
  });

  it('names AZURE_API_BASE when an Azure entry reads its address from it and it is not set', async () => {
    const file = tempFile(
      'azure.yaml',
      `model_list:
  - model_name: gpt-4o
    litellm_params: {model: azure/gpt-4o-eu, api_base: os.environ/AZURE_API_BASE, api_key: os.environ/AZURE_API_KEY, api_version: "2024-10-21"}
`,
    );
    // AZURE_API_BASE is not set here (nor in the test environment).
    const failure = await failedStart(
      { AZURE_API_KEY: 'azure-test-key', GATEHOUSE_CONFIG: file, GATEHOUSE_DATA_DIR: join(file, '..', 'data') },
      25_000,
      ['--check'],
    );
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toContain(
      'model_list[0].litellm_params.api_base (deployments[0].base_url once converted) is required',
    );
    expect(failure?.stderr).toContain(
      'this entry reads its address from AZURE_API_BASE, which Gatehouse reads too: set AZURE_API_BASE in the environment Gatehouse starts in',
    );
  });
});
