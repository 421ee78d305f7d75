import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config/load.js';
import { deploymentProblem } from '../../src/server/gateway/providers/deployment-problem.js';
import type { Deployment } from '../../src/server/gateway/providers/types.js';
import { failedStart } from '../support/headless-process.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function configFile(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-keys-'));
  dirs.push(dir);
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

/** An SSO provider's required settings. */
const SSO_PROVIDER = { issuer: 'https://idp.example', client_id: 'gatehouse', client_secret_env: 'CORP_OIDC_SECRET' };

/** The message loading `overrides` stops with. */
function refusal(overrides: Record<string, unknown>): string {
  try {
    loadConfig({ env: {}, overrides });
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(overrides)}`);
}

describe('a misspelt key inside a section', () => {
  it('stops the headless start, exiting 2, naming the file, the key and what was meant', async () => {
    const file = configFile('gatehouse.yaml', 'server:\n  gatway_port: 9310\nllm:\n  allowed_modles: [demo/echo]\n');
    const failure = await failedStart({ GATEHOUSE_CONFIG: file, GATEHOUSE_DATA_DIR: join(file, '..', 'data') });
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toBe(
      `gatehouse: invalid configuration in ${file}:\n` +
        '  server.gatway_port: unknown key (did you mean gateway_port?)\n' +
        '  llm.allowed_modles: unknown key (did you mean allowed_models?)\n',
    );
  });

  it.each([
    [{ responses: { default_stroe: true } }, 'responses.default_stroe: unknown key (did you mean default_store?)'],
    [
      { providers: { openai: { base_ulr: 'http://x' } } },
      'providers.openai.base_ulr: unknown key (did you mean base_url?)',
    ],
    [
      {
        deployments: [
          { model: 'm', provider: 'demo' },
          { model: 'm', provider: 'demo', api_key_evn: 'X' },
        ],
      },
      'deployments[1].api_key_evn: unknown key (did you mean api_key_env?)',
    ],
    [
      { pricing: { m: { input_per_mtok: 1, output_per_mtok: 1, output_per_mtoken: 2 } } },
      'pricing.m.output_per_mtoken: unknown key (did you mean output_per_mtok?)',
    ],
    [{ gateway: { max_retires: 1 } }, 'gateway.max_retires: unknown key (did you mean max_retries?)'],
    [{ rag: { topK: 3 } }, 'rag.topK: unknown key (did you mean top_k?)'],
    [{ store: { metric_public: true } }, 'store.metric_public: unknown key (did you mean metrics_public?)'],
    [{ store: { auth: { enabeld: false } } }, 'store.auth.enabeld: unknown key (did you mean enabled?)'],
    [{ store: { limits: { body_byte: 1 } } }, 'store.limits.body_byte: unknown key (did you mean body_bytes?)'],
    [
      { store: { auth: { tokens: [{ token: 'x'.repeat(20), verb: ['read'], verbs: ['read'], namespaces: ['*'] }] } } },
      'store.auth.tokens[0].verb: unknown key (did you mean verbs?)',
    ],
    [
      { sso: { providers: { corp: { ...SSO_PROVIDER, mappings: [{ value: 'ml', tem: 'ml' }] } } } },
      'sso.providers.corp.mappings[0].tem: unknown key (did you mean team?)',
    ],
    [
      { sso: { providers: { corp: { ...SSO_PROVIDER, default_grant: { scopes: ['chat'], model: ['demo/echo'] } } } } },
      'sso.providers.corp.default_grant.model: unknown key (did you mean models?)',
    ],
    [{ server: { port: 8747 } }, 'server.port: unknown key (did you mean gateway_port or store_port?)'],
    [
      { llm: { allowed_models: ['m'] }, deployments: [{ model: 'm', provider: 'demo', api_base: 'http://x' }] },
      'deployments[0].api_base: unknown key (did you mean base_url?)',
    ],
    [{ gateway: { num_retries: 2 } }, 'gateway.num_retries: unknown key (did you mean max_retries?)'],
  ])('is refused by name in every section: %j', (overrides, line) => {
    expect(refusal(overrides)).toContain(`\n  ${line}`);
  });

  it('refuses a deployment id the admin API would refuse, so the UI can save the list back', () => {
    expect(
      refusal({ llm: { allowed_models: ['m'] }, deployments: [{ id: 'my dep', model: 'm', provider: 'demo' }] }),
    ).toContain('\n  deployments[0].id: id may hold letters, digits and . _ : / # -');
  });

  it("says what a value of the wrong type should be, in a file's words, never showing a secret", () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ server: { gateway_port: 8747.5 } }, 'server.gateway_port: must be a whole number, got 8747.5'],
      [{ server: { gateway_port: 'eighty' } }, "server.gateway_port: must be a number, got 'eighty'"],
      [{ llm: { allowed_models: ['m'] }, deployments: [{ provider: 'demo' }] }, 'deployments[0].model: is required'],
      [
        { server: { ui: 'yes' } },
        "server.ui: must be true or false, got 'yes' (text here: write true or false without quotes)",
      ],
      [{ llm: { allowed_models: 'gpt-4o' } }, "llm.allowed_models: must be a list, got 'gpt-4o'"],
      [{ providers: { openai: { api_key: 123456789012 } } }, 'providers.openai.api_key: must be text, got a number'],
    ];
    for (const [overrides, line] of cases) expect(refusal(overrides)).toContain(`\n  ${line}`);
    expect(refusal({ providers: { openai: { api_key: 123456789012 } } })).not.toContain('123456789012');
  });

  it('lists the accepted keys when nothing is close, and names a misspelt top-level key once', () => {
    expect(refusal({ server: { colour: 'blue' } })).toMatch(
      /\n {2}server\.colour: unknown key \(accepted here: host, gateway_port, store_port, data_dir, /,
    );
    expect(refusal({ sever: { host: '127.0.0.1' } })).toBe(
      'invalid configuration in defaults and environment:\n  sever: unknown key (did you mean server?)',
    );
  });

  it('refuses a provider name no deployment could read, naming the one meant', () => {
    expect(refusal({ providers: { opneai: { base_url: 'http://127.0.0.1:9/v1' } } })).toContain(
      '\n  providers.opneai: unknown provider (did you mean openai?)',
    );
    expect(refusal({ providers: { acme: { base_url: 'http://127.0.0.1:9/v1' } } })).toMatch(
      /\n {2}providers\.acme: unknown provider \(accepted: anthropic, demo, openai, /,
    );
    expect(deploymentProblem({ id: 'x', model: 'm', provider: 'antropic' } as Deployment)).toContain(
      "got 'antropic' (did you mean anthropic?)",
    );
    const { config } = loadConfig({
      env: {},
      overrides: { providers: { openai: { base_url: 'http://127.0.0.1:9/v1' } } },
    });
    expect(config.providers.openai?.base_url).toBe('http://127.0.0.1:9/v1');
  });

  it('refuses a key pasted where a variable is named, never showing it', () => {
    const secret = 'sk_live_51HabcDEF123ghiJKL456';
    for (const overrides of [
      {
        deployments: [
          { model: 'demo/echo', provider: 'openai', base_url: 'http://127.0.0.1:9/v1', api_key_env: secret },
        ],
      },
      { store: { auth: { tokens: [{ token_env: secret, verbs: ['read'], namespaces: ['*'] }] } } },
    ]) {
      const message = refusal(overrides);
      expect(message).toContain('looks like a key rather than the name of a variable (not shown)');
      expect(message).not.toContain(secret);
    }
    // Names as they are written stay names, however long.
    const { config } = loadConfig({
      env: {},
      overrides: {
        deployments: [
          {
            model: 'demo/echo',
            provider: 'openai',
            base_url: 'http://127.0.0.1:9/v1',
            api_key_env: 'AZURE_OPENAI_API_KEY_WESTEUROPE_2',
          },
        ],
      },
    });
    expect(config.deployments[0]!.api_key_env).toBe('AZURE_OPENAI_API_KEY_WESTEUROPE_2');
  });

  it('still accepts the camelCase spellings the interface documents', () => {
    const { config } = loadConfig({
      env: {},
      overrides: {
        llm: { allowedModels: ['demo/echo', 'demo/embed'], defaultEmbeddingModel: 'demo/embed' },
        responses: { defaultStore: true },
      },
    });
    expect(config.llm.allowed_models).toEqual(['demo/echo', 'demo/embed']);
    expect(config.llm.default_embedding_model).toBe('demo/embed');
    expect(config.responses.default_store).toBe(true);
  });
});
