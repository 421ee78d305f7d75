import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config/load.js';
import { importLiteLlmConfig } from '../../src/server/config/litellm-import.js';
import { startServers, type RunningServers } from '../../src/server/start.js';
import { startOpenAIUpstream, type OpenAIUpstream } from '../support/upstreams/index.js';
import { TEST_MASTER_KEY, TEST_STORE_TOKEN } from '../support/temp-servers.js';
import { failedStart } from '../support/headless-process.js';
import { parse as parseYaml } from 'yaml';

// A LiteLLM proxy config.yaml loads as GATEHOUSE_CONFIG or converts with `npm run import:litellm`;
// every key without a Gatehouse equivalent is named by its path, never with its value.

const LITERAL_KEY = 'sk-ant-literal-0123456789-do-not-echo';
const MASTER_KEY = 'sk-litellm-master-do-not-echo';
const REDIS_PASSWORD = 'redis-password-do-not-echo';

/** A LiteLLM config as teams write them: several providers, env keys, api_base, timeouts, retries, extras. */
function liteLlmYaml(openaiBase: string): string {
  return `
model_list:
  - model_name: gpt-4o-mini
    litellm_params:
      model: openai/gpt-4o-mini
      api_base: ${openaiBase}
      api_key: os.environ/LOCAL_OPENAI_KEY
      timeout: 30
      max_retries: 1
      rpm: 600
    model_info:
      id: mini-primary
      input_cost_per_token: 0.00000015
      output_cost_per_token: 0.0000006
      cache_read_input_token_cost: 0.000000075
  - model_name: gpt-4o-mini
    litellm_params:
      model: azure/mini-eu
      api_base: https://eu.openai.azure.example/
      api_key: os.environ/AZURE_EU_KEY
      api_version: "2024-10-21"
      tpm: 100000
  - model_name: claude-sonnet
    litellm_params:
      model: anthropic/claude-sonnet-4-5
      api_key: ${LITERAL_KEY}
      vertex_project: not-for-anthropic
    model_info:
      input_cost_per_token: 0.000003
      output_cost_per_token: 0.000015
      cache_creation_input_token_cost: 0.00000375
      cache_creation_input_token_cost_above_1hr: 0.000006
  - model_name: llama
    litellm_params:
      model: ollama/llama3.2
      api_base: http://127.0.0.1:11434
  - model_name: gemini-vertex
    litellm_params:
      model: vertex_ai/gemini-1.5-pro
      vertex_project: my-project
litellm_settings:
  drop_params: true
  request_timeout: 120
  fallbacks: [{"claude-sonnet": ["gpt-4o-mini"]}]
router_settings:
  num_retries: 3
  routing_strategy: simple-shuffle
  model_group_alias: {"mini": "gpt-4o-mini"}
  redis_password: ${REDIS_PASSWORD}
general_settings:
  master_key: ${MASTER_KEY}
environment_variables:
  LOCAL_OPENAI_KEY: sk-set-by-litellm-do-not-echo
`;
}

const EXPECTED_UNMAPPED = [
  'model_list[0].litellm_params.rpm',
  'model_list[1].litellm_params.tpm',
  'model_list[2].litellm_params.vertex_project',
  'model_list[4]',
  'litellm_settings.drop_params',
  'litellm_settings.fallbacks[0].claude-sonnet',
  'router_settings.redis_password',
  'general_settings.master_key',
  'environment_variables.LOCAL_OPENAI_KEY',
];

function tempFile(name: string, text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'gatehouse-litellm-')), name);
  writeFileSync(file, text);
  return file;
}

function runImport(...args: string[]) {
  return runImportWith({}, ...args);
}

/**
 * Runs the command in the package folder, as npm does, with `env` added. A synchronous spawn is out
 * of the test timeout's reach: a child that never ends (once, on a loaded CI machine, a process stuck
 * loading tsx before running any of the command) would hold the whole suite, so it is stopped after
 * 12 s and run once more; a command that hangs every time still fails.
 */
function runImportWith(env: NodeJS.ProcessEnv, ...args: string[]) {
  const run = () =>
    spawnSync(process.execPath, ['--import', 'tsx', 'src/server/config/import-litellm-cli.ts', ...args], {
      encoding: 'utf8',
      env: { ...process.env, NODE_NO_WARNINGS: '1', ...env },
      // It takes well under a second; twice this stays inside the test's own 30 s.
      timeout: 12_000,
    });
  const first = run();
  return first.error !== undefined && first.signal !== null ? run() : first;
}

const DUPLICATE_IDS = `model_list:
  - model_name: a
    litellm_params: {model: openai/gpt-4o-mini, api_base: http://127.0.0.1:9/v1}
    model_info: {id: dup}
  - model_name: b
    litellm_params: {model: openai/gpt-4o, api_base: http://127.0.0.1:9/v1}
    model_info: {id: dup}
`;
const DUPLICATE_MESSAGE =
  "model_list[1].model_info.id 'dup' is already used by model_list[0]; deployment ids must be unique";

describe('LiteLLM config conversion', () => {
  const raw = parseYaml(liteLlmYaml('http://127.0.0.1:9/v1')) as Record<string, unknown>;

  it('maps model_list, retries, timeouts, aliases and prices to Gatehouse keys', () => {
    const { config } = importLiteLlmConfig(raw);
    expect(config).toEqual({
      llm: { allowed_models: ['gpt-4o-mini', 'claude-sonnet', 'llama'], model_aliases: { mini: 'gpt-4o-mini' } },
      deployments: [
        {
          id: 'mini-primary',
          model: 'gpt-4o-mini',
          provider: 'openai',
          upstream_model: 'gpt-4o-mini',
          base_url: 'http://127.0.0.1:9/v1',
          api_key_env: 'LOCAL_OPENAI_KEY',
          timeout_ms: 30_000,
          max_retries: 1,
        },
        {
          model: 'gpt-4o-mini',
          provider: 'azure',
          upstream_model: 'mini-eu',
          base_url: 'https://eu.openai.azure.example/',
          api_key_env: 'AZURE_EU_KEY',
          api_version: '2024-10-21',
          timeout_ms: 120_000,
        },
        {
          model: 'claude-sonnet',
          provider: 'anthropic',
          upstream_model: 'claude-sonnet-4-5',
          api_key: LITERAL_KEY,
          timeout_ms: 120_000,
        },
        // LiteLLM calls Ollama's native API at the origin; Gatehouse its OpenAI API under /v1.
        {
          model: 'llama',
          provider: 'ollama',
          upstream_model: 'llama3.2',
          base_url: 'http://127.0.0.1:11434/v1',
          timeout_ms: 120_000,
        },
      ],
      pricing: {
        'gpt-4o-mini': { input_per_mtok: 0.15, output_per_mtok: 0.6, cached_input_per_mtok: 0.075 },
        'claude-sonnet': {
          input_per_mtok: 3,
          output_per_mtok: 15,
          cache_write_per_mtok: 3.75,
          cache_write_1h_per_mtok: 6,
        },
      },
      gateway: { max_retries: 3 },
    });
  });

  it('names every key it left out, in file order, without any value', () => {
    const { unmapped } = importLiteLlmConfig(raw);
    expect(unmapped.map((u) => u.path)).toEqual(EXPECTED_UNMAPPED);
    const text = JSON.stringify(unmapped);
    for (const secret of [LITERAL_KEY, MASTER_KEY, REDIS_PASSWORD, 'sk-set-by-litellm'])
      expect(text).not.toContain(secret);
    expect(unmapped.find((u) => u.path === 'model_list[4]')!.reason).toMatch(/provider 'vertex_ai'.*left out/);
    expect(unmapped.find((u) => u.path.startsWith('litellm_settings.fallbacks'))!.reason).toMatch(
      /only between deployments of the same model.*\(gpt-4o-mini\)/,
    );
    expect(unmapped.find((u) => u.path.endsWith('.rpm'))!.reason).toMatch(
      /^1 of the 2 deployments of gpt-4o-mini set no rpm, so LiteLLM does not limit the model's requests as a whole/,
    );
  });

  it('keeps a model_info.id YAML reads as a number, and names one it cannot use', () => {
    const { config, unmapped } = importLiteLlmConfig(
      parseYaml(`model_list:
  - model_name: a
    litellm_params: {model: openai/gpt-4o-mini}
    model_info: {id: 7}
  - model_name: b
    litellm_params: {model: openai/gpt-4o-mini}
    model_info: {id: [1, 2]}
  - model_name: c
    litellm_params: {model: openai/gpt-4o-mini}
    model_info: {id: "my deployment"}
`) as Record<string, unknown>,
    );
    const deployments = (config as { deployments: Array<{ id?: string; model: string }> }).deployments;
    expect(deployments.map((d) => d.id)).toEqual(['7', undefined, undefined]);
    for (const at of [1, 2])
      expect(unmapped).toContainEqual({
        path: `model_list[${at}].model_info.id`,
        reason:
          'not an id Gatehouse takes (letters, digits and . _ : / # -) or a whole number; the deployment gets an id of its own',
      });
  });

  it('refuses to start from a LiteLLM file none of whose models could be converted, saying why', () => {
    const file = tempFile(
      'bedrock-only.yaml',
      'model_list:\n  - model_name: claude\n    litellm_params: {model: bedrock/anthropic.claude-3-sonnet}\n',
    );
    let message = '';
    try {
      loadConfig({ env: {}, file });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    expect(message.split('\n')[0]).toBe(
      `nothing in ${file} (a LiteLLM proxy config) could be converted into a deployment:`,
    );
    expect(message.split('\n')[1]).toMatch(/^ {2}not mapped: model_list\[0\]/);
    // The importer refuses the same file, a setting it could convert beside it notwithstanding.
    const withRetries = tempFile(
      'bedrock-and-retries.yaml',
      'model_list:\n  - model_name: claude\n    litellm_params: {model: bedrock/anthropic.claude-3-sonnet}\nrouter_settings: {num_retries: 3}\n',
    );
    const imported = runImport(withRetries);
    expect(imported.status).toBe(1);
    expect(imported.stderr).toContain(
      `nothing in ${withRetries} (a LiteLLM proxy config) could be converted into a deployment:\n  not mapped: model_list[0]`,
    );
  });

  it("drops an alias naming its own model, as LiteLLM's does nothing, so the output starts", () => {
    const { config, unmapped } = importLiteLlmConfig(
      parseYaml(`model_list:
  - model_name: gpt-4o
    litellm_params: {model: openai/gpt-4o}
router_settings:
  model_group_alias: {gpt-4: {model: gpt-4o}, gpt-4o: gpt-4o}
`) as Record<string, unknown>,
    );
    expect((config as { llm: { model_aliases: unknown } }).llm.model_aliases).toEqual({ 'gpt-4': 'gpt-4o' });
    expect(unmapped).toContainEqual({
      path: 'router_settings.model_group_alias.gpt-4o',
      reason: 'names its own model: there is nothing to alias',
    });
    expect(() => loadConfig({ env: {}, overrides: config as never })).not.toThrow();
  });

  it('takes a master key from PROXY_MASTER_KEY as already mapped, and reports a missing azure api_version', () => {
    const { unmapped, config } = importLiteLlmConfig({
      general_settings: { master_key: 'os.environ/PROXY_MASTER_KEY' },
      model_list: [{ model_name: 'az', litellm_params: { model: 'azure/dep', api_base: 'os.environ/AZURE_API_BASE' } }],
    });
    // Gatehouse reads AZURE_API_BASE for azure itself, so no base_url is needed.
    expect(config.deployments).toEqual([{ model: 'az', provider: 'azure', upstream_model: 'dep' }]);
    expect(unmapped.map((u) => u.path)).toEqual(['model_list[0].litellm_params.api_version']);
  });

  it('leaves out an Azure deployment at its resource address without a written api_version: every call would be a 404', () => {
    const entry = (name: string, params: Record<string, unknown>) => ({
      model_name: name,
      litellm_params: { model: `azure/${name}-dep`, ...params },
    });
    const resource = 'https://my-resource.openai.azure.com';
    const { unmapped, config } = importLiteLlmConfig({
      model_list: [
        entry('no-version', { api_base: resource }),
        entry('env-version', { api_base: resource, api_version: 'os.environ/AZURE_API_VERSION' }),
        entry('classic', { api_base: resource, api_version: '2024-10-21' }),
        entry('v1', { api_base: `${resource}/openai/v1` }),
      ],
    });
    expect((config.deployments as Array<{ model: string }>).map((d) => d.model)).toEqual(['classic', 'v1']);
    expect(unmapped).toContainEqual({
      path: 'model_list[0]',
      reason: `litellm_params.api_version is missing, and calls to ${resource} without one go to its /chat/completions, which Azure answers 404; write the version (as 2024-10-21), or an address ending in /openai/v1; this deployment is left out`,
    });
    expect(unmapped.find((u) => u.path === 'model_list[1]')?.reason).toContain('api_version is not written out');
  });

  it('keeps a local server whose address is in the variable Gatehouse reads for it (OLLAMA_BASE_URL, ...)', () => {
    const { unmapped, config } = importLiteLlmConfig({
      model_list: [
        { model_name: 'llama', litellm_params: { model: 'ollama/llama3.2', api_base: 'os.environ/OLLAMA_BASE_URL' } },
        { model_name: 'qwen', litellm_params: { model: 'hosted_vllm/qwen', api_base: 'os.environ/VLLM_API_BASE' } },
      ],
    });
    expect(config.deployments).toEqual([
      { model: 'llama', provider: 'ollama', upstream_model: 'llama3.2' },
      { model: 'qwen', provider: 'vllm', upstream_model: 'qwen' },
    ]);
    expect(unmapped).toEqual([]);
  });

  it('leaves out a deployment whose address is in a variable Gatehouse does not read, rather than send it to the public one', () => {
    const { unmapped, config } = importLiteLlmConfig({
      model_list: [
        {
          model_name: 'local',
          litellm_params: { model: 'openai/gpt-4o', api_base: 'os.environ/MY_LOCAL_BASE', api_key: 'os.environ/K' },
        },
        { model_name: 'kept', litellm_params: { model: 'openai/gpt-4o', api_base: 'http://127.0.0.1:9/v1' } },
      ],
    });
    expect((config.deployments as Array<{ model: string }>).map((d) => d.model)).toEqual(['kept']);
    expect(unmapped).toContainEqual({
      path: 'model_list[0]',
      reason:
        'litellm_params.api_base reads the address from MY_LOCAL_BASE, which Gatehouse does not; write the address instead; this deployment is left out',
    });
  });
});

describe('a LiteLLM config with mistakes', () => {
  const file = (text: string): string => {
    const path = join(mkdtempSync(join(tmpdir(), 'gatehouse-litellm-bad-')), 'config.yaml');
    writeFileSync(path, text);
    return path;
  };
  // The first entry is left out (a wildcard), so the converted deployments' indexes are shifted.
  const entries = (second: string) =>
    [
      'model_list:',
      '  - model_name: "*"',
      '    litellm_params: { model: "openai/*" }',
      '  - model_name: local',
      `    litellm_params: { model: openai/gpt-4o, ${second} }`,
      '',
    ].join('\n');

  it("names the file's own entry and key for a schema problem, with the converted name beside it", () => {
    const path = file(entries('api_base: "ftp://127.0.0.1/v1"'));
    expect(() => loadConfig({ env: { GATEHOUSE_CONFIG: path } })).toThrow(
      /\n {2}model_list\[1\]\.litellm_params\.api_base \(deployments\[0\]\.base_url once converted\): /,
    );
  });

  it('names them for a problem found at start too', async () => {
    const path = file(entries('api_base: "http://127.0.0.1:9/v1", api_key: os.environ/GATEHOUSE_TEST_UNSET_VAR'));
    const failure = await failedStart({ GATEHOUSE_CONFIG: path, GATEHOUSE_DATA_DIR: join(path, '..', 'data') });
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toContain(
      '  model_list[1].litellm_params.api_key (deployments[0].api_key_env once converted) GATEHOUSE_TEST_UNSET_VAR is not set',
    );
  });
});

describe('configuration files as editors and other tools write them', () => {
  const file = (name: string, text: string): string => {
    const path = join(mkdtempSync(join(tmpdir(), 'gatehouse-file-')), name);
    writeFileSync(path, text);
    return path;
  };

  it('applies YAML merge keys, as LiteLLM does', () => {
    const path = file(
      'config.yaml',
      [
        'x-local: &local',
        '  api_base: http://127.0.0.1:9/v1',
        '  api_key: os.environ/LOCAL_KEY',
        'model_list:',
        '  - model_name: local-gpt',
        '    litellm_params:',
        '      <<: *local',
        '      model: openai/gpt-4o',
        '',
      ].join('\n'),
    );
    const { config } = loadConfig({ env: { GATEHOUSE_CONFIG: path } });
    expect(config.deployments).toMatchObject([
      { model: 'local-gpt', base_url: 'http://127.0.0.1:9/v1', api_key_env: 'LOCAL_KEY' },
    ]);
  });

  it('reads a JSON file that starts with a byte-order mark', () => {
    const path = file('config.json', '\uFEFF{"llm": {"allowed_models": ["demo/echo"]}}');
    expect(loadConfig({ env: { GATEHOUSE_CONFIG: path } }).config.llm.allowed_models).toEqual(['demo/echo']);
  });

  it('refuses a key written as a reference to a variable, which would be sent as that text', () => {
    for (const written of ['os.environ/MYKEY', '${MYKEY}', '$MYKEY']) {
      const overrides = {
        deployments: [{ model: 'm', provider: 'openai', base_url: 'http://127.0.0.1:9/v1', api_key: written }],
      };
      expect(() => loadConfig({ env: {}, overrides })).toThrow(
        'deployments[0].api_key: names the variable MYKEY, but api_key is sent as written; put the name in api_key_env: MYKEY',
      );
    }
    expect(() => loadConfig({ env: {}, overrides: { providers: { openai: { api_key: '${OPENAI_KEY}' } } } })).toThrow(
      'providers.openai.api_key: names the variable OPENAI_KEY',
    );
  });
});

describe('loading a LiteLLM config as GATEHOUSE_CONFIG', () => {
  let upstream: OpenAIUpstream;
  let servers: RunningServers | undefined;
  const env: NodeJS.ProcessEnv = {
    GATEWAY_PORT: '0',
    STORE_PORT: '0',
    GATEHOUSE_LOG_LEVEL: 'silent',
    PROXY_MASTER_KEY: TEST_MASTER_KEY,
    STORE_TOKEN: TEST_STORE_TOKEN,
    LOCAL_OPENAI_KEY: 'sk-local-upstream-0123456789',
    AZURE_EU_KEY: 'azure-key-unused-here',
  };
  beforeAll(async () => {
    upstream = await startOpenAIUpstream({ apiKey: env.LOCAL_OPENAI_KEY });
    env.GATEHOUSE_DATA_DIR = mkdtempSync(join(tmpdir(), 'gatehouse-litellm-data-'));
    // The gateway reads api_key_env from the process environment, not from startServers' env.
    vi.stubEnv('LOCAL_OPENAI_KEY', env.LOCAL_OPENAI_KEY);
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await servers?.close();
    await upstream.close();
    rmSync(env.GATEHOUSE_DATA_DIR!, { recursive: true, force: true });
  });

  it('starts with the converted deployments and warns once per unmapped key', async () => {
    const file = tempFile('config.yaml', liteLlmYaml(upstream.url));
    const loaded = loadConfig({ file, env });
    expect(loaded.source).toBe(`${file} (a LiteLLM proxy config, converted)`);
    expect(loaded.warnings).toHaveLength(EXPECTED_UNMAPPED.length);
    EXPECTED_UNMAPPED.forEach((path, i) => expect(loaded.warnings[i]).toMatch(`not mapped: ${path}: `));
    expect(loaded.config.gateway.max_retries).toBe(3);

    // Only the openai deployment is reachable here: route every request of the model to it.
    const config = { ...loaded.config, deployments: loaded.config.deployments.filter((d) => d.provider === 'openai') };
    servers = await startServers(config, { env });
    const issued = await fetch(`${servers.gatewayUrl}/internal/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'litellm', scopes: ['chat'] }),
    });
    const { key } = (await issued.json()) as { key: string };
    const client = new OpenAI({ baseURL: `${servers.gatewayUrl}/v1`, apiKey: key, maxRetries: 0 });
    // Through the alias LiteLLM's model_group_alias defined.
    const completion = await client.chat.completions.create({
      model: 'mini',
      messages: [{ role: 'user', content: 'hello from litellm' }],
    });
    expect(completion.choices[0]!.message.content).toBe('You said: hello from litellm');
    const sent = upstream.lastRequest()!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe(`Bearer ${env.LOCAL_OPENAI_KEY}`);
    expect(sent.body.model).toBe('gpt-4o-mini');
  });

  it('refuses a file mixing LiteLLM and Gatehouse keys, naming which is which', () => {
    const file = tempFile(
      'mixed.yaml',
      'model_list: []\nrouter_settings: {num_retries: 1}\nserver: {gateway_port: 0}\n',
    );
    const error = (() => {
      try {
        loadConfig({ file, env });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(
      /mixes a LiteLLM proxy config \(model_list, router_settings\) with Gatehouse keys \(server\)/,
    );
  });

  it('refuses two entries with one model_info.id, naming them as the LiteLLM file does', () => {
    const file = tempFile('dup.yaml', DUPLICATE_IDS);
    expect(() => loadConfig({ file, env })).toThrow(DUPLICATE_MESSAGE);
  });
});

describe('npm run import:litellm', () => {
  it('reads and writes relative paths in the folder the command was typed in, as npm names it', () => {
    const typedIn = mkdtempSync(join(tmpdir(), 'gatehouse-litellm-cwd-'));
    writeFileSync(join(typedIn, 'litellm.yaml'), liteLlmYaml('http://127.0.0.1:9/v1'));
    // npm runs the script in the package folder and says where it was typed in INIT_CWD.
    const npm = { INIT_CWD: typedIn, npm_package_json: join(process.cwd(), 'package.json') };
    const result = runImportWith(npm, 'litellm.yaml', '--out', 'gatehouse.yaml');
    expect(result.status, result.stderr).toBe(0);
    expect(readFileSync(join(typedIn, 'gatehouse.yaml'), 'utf8')).toContain('deployments:');
    rmSync(typedIn, { recursive: true, force: true });
  });

  it('prints YAML that loads, and names the unmapped keys on stderr', () => {
    const input = tempFile('config.yaml', liteLlmYaml('http://127.0.0.1:9/v1'));
    const result = runImport(input);
    expect(result.status).toBe(0);
    for (const path of EXPECTED_UNMAPPED) expect(result.stderr).toContain(`not mapped: ${path}: `);
    for (const secret of [MASTER_KEY, REDIS_PASSWORD]) expect(result.stderr + result.stdout).not.toContain(secret);
    const converted = tempFile('gatehouse.yaml', result.stdout);
    const { config, warnings } = loadConfig({ file: converted, env: {} });
    expect(warnings).toEqual([]);
    expect(config.deployments.map((d) => d.model)).toEqual(['gpt-4o-mini', 'gpt-4o-mini', 'claude-sonnet', 'llama']);
    expect(config.deployments[1]!.api_version).toBe('2024-10-21');
    expect(config.llm.model_aliases).toEqual({ mini: 'gpt-4o-mini' });
  });

  it('writes --out with mode 0600 (it may hold keys written literally)', () => {
    const input = tempFile('config.yaml', liteLlmYaml('http://127.0.0.1:9/v1'));
    const out = join(mkdtempSync(join(tmpdir(), 'gatehouse-litellm-out-')), 'gatehouse.yaml');
    const result = runImport(input, '--out', out);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('');
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(readFileSync(out, 'utf8')).toMatch(/^# Converted from the LiteLLM proxy config/);
    // The variables its keys are read from, those missing here, and how to check the file first.
    expect(result.stderr).toContain('its keys are read from LOCAL_OPENAI_KEY, AZURE_EU_KEY');
    expect(result.stderr).toMatch(/\(not set here: LOCAL_OPENAI_KEY, AZURE_EU_KEY.*\)/);
    expect(result.stderr).toContain(`check it with npm run serve -- --check --config ${out}`);
  });

  it('narrows an existing --out file to 0600 too (writing keeps the mode of a file that exists)', () => {
    const input = tempFile('config.yaml', liteLlmYaml('http://127.0.0.1:9/v1'));
    const out = tempFile('existing.yaml', 'old\n');
    chmodSync(out, 0o644);
    expect(runImport(input, '--out', out, '--force').status).toBe(0);
    expect(statSync(out).mode & 0o777).toBe(0o600);
  });

  it('replaces an existing --out file only with --force, and never the file it reads', () => {
    const input = tempFile('config.yaml', liteLlmYaml('http://127.0.0.1:9/v1'));
    const out = tempFile('gatehouse.yaml', 'edited by hand\n');
    const kept = runImport(input, '--out', out);
    expect(kept.status).toBe(2);
    expect(kept.stderr).toBe(`import:litellm: ${out} exists: pass --force to replace it\n`);
    expect(readFileSync(out, 'utf8')).toBe('edited by hand\n');
    const link = join(mkdtempSync(join(tmpdir(), 'gatehouse-litellm-link-')), 'link.yaml');
    symlinkSync(input, link);
    expect(runImport(input, '--out', link, '--force').stderr).toContain('is the LiteLLM config being read');
    const itself = runImport(input, '--out', input, '--force');
    expect(itself.status).toBe(2);
    expect(itself.stderr).toContain('is the LiteLLM config being read');
    expect(readFileSync(input, 'utf8')).toBe(liteLlmYaml('http://127.0.0.1:9/v1'));
  });

  it('exits 2 on unreadable or non-LiteLLM input', () => {
    const missing = runImport('/nonexistent/config.yaml');
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/cannot read configuration file/);
    expect(runImport(tempFile('g.yaml', 'server: {gateway_port: 0}\n')).status).toBe(2);
    expect(runImport(tempFile('bad.yaml', 'model_list: [unclosed\n')).status).toBe(2);
    expect(runImport().status).toBe(2);
  });

  it('exits 2 on two entries with one model_info.id, naming them', () => {
    const result = runImport(tempFile('dup.yaml', DUPLICATE_IDS));
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(DUPLICATE_MESSAGE);
    expect(result.stdout).toBe('');
  });
});
