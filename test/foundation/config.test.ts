import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config/load.js';

function configFile(name: string, text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'gatehouse-config-')), name);
  writeFileSync(file, text);
  return file;
}

describe('configuration', () => {
  it('works with no file at all: loopback, default ports, the demo models', () => {
    const { config } = loadConfig({ env: { GATEHOUSE_DATA_DIR: '/tmp/x' } });
    expect(config.server).toMatchObject({
      host: '127.0.0.1',
      gateway_port: 8747,
      store_port: 8748,
      data_dir: '/tmp/x',
    });
    expect(config.llm.allowed_models).toEqual(['demo/echo', 'demo/embed']);
    expect(config.responses.default_store).toBe(false);
    expect(config.allow_passthrough_keys).toBe(false);
    expect(config.store.auth.enabled).toBe(true);
  });

  it('loads the shipped example file unchanged', () => {
    const { config } = loadConfig({ file: 'resources/gatehouse.example.yaml', env: {} });
    expect(config.llm.model_aliases).toEqual({});
    expect(config.store.limits.documents_per_apply).toBe(10_000);
  });

  it('accepts both spellings of the interface keys, and dotted keys', () => {
    const camel = configFile(
      'c.json',
      JSON.stringify({
        llm: { allowedModels: ['gpt-4o'], perModelMaxTokens: { 'gpt-4o': 100 }, modelAliases: { fast: 'gpt-4o' } },
      }),
    );
    const { config } = loadConfig({ file: camel, env: {} });
    expect(config.llm).toMatchObject({
      allowed_models: ['gpt-4o'],
      per_model_max_tokens: { 'gpt-4o': 100 },
      model_aliases: { fast: 'gpt-4o' },
    });
    const dotted = configFile(
      'd.yaml',
      'llm.allowed_models: [claude-x, demo/embed]\nllm.default_embedding_model: demo/embed\n',
    );
    expect(loadConfig({ file: dotted, env: {} }).config.llm).toMatchObject({
      allowed_models: ['claude-x', 'demo/embed'],
      default_embedding_model: 'demo/embed',
    });
  });

  it('refuses one setting written twice, in two spellings or two places, naming both (the first was lost)', () => {
    const both = configFile('b.yaml', 'llm:\n  allowed_models: [demo/echo]\n  allowedModels: [demo/embed]\n');
    expect(() => loadConfig({ file: both, env: {} })).toThrow(
      'allowed_models in llm and allowedModels in llm both set llm.allowed_models: keep one',
    );
    const places = configFile('p.yaml', 'llm.allowed_models: [demo/echo]\nllm:\n  allowed_models: [demo/embed]\n');
    expect(() => loadConfig({ file: places, env: {} })).toThrow(
      'llm.allowed_models (one dotted key) and allowed_models in llm both set llm.allowed_models: keep one',
    );
    const passthrough = configFile(
      't.json',
      JSON.stringify({ allowPassthroughKeys: true, allow_passthrough_keys: false }),
    );
    expect(() => loadConfig({ file: passthrough, env: {} })).toThrow(
      'allowPassthroughKeys and allow_passthrough_keys both set allow_passthrough_keys: keep one',
    );
    // Sections written once each, in either spelling, still merge.
    const split = configFile('s.yaml', 'llm.allowed_models: [demo/echo]\nllm:\n  model_aliases: { e: demo/echo }\n');
    expect(loadConfig({ file: split, env: {} }).config.llm).toMatchObject({
      allowed_models: ['demo/echo'],
      model_aliases: { e: 'demo/echo' },
    });
  });

  it('lets the environment override the file', () => {
    const file = configFile('e.yaml', 'server:\n  gateway_port: 9000\n');
    const { config } = loadConfig({
      file,
      env: {
        GATEWAY_PORT: '0',
        STORE_PORT: '9100',
        GATEHOUSE_HOST: '0.0.0.0',
        OPENAI_BASE_URL: 'http://127.0.0.1:1/v1',
        OPENAI_API_KEY: 'sk-x',
      },
    });
    expect(config.server).toMatchObject({ gateway_port: 0, store_port: 9100, host: '0.0.0.0' });
    expect(config.providers.openai).toEqual({ base_url: 'http://127.0.0.1:1/v1', api_key: 'sk-x' });
  });

  it('names the bad key when the file is invalid', () => {
    const file = configFile(
      'bad.yaml',
      'server:\n  gateway_port: "eighty"\nllm:\n  per_model_max_tokens:\n    gpt-4o: -5\n',
    );
    expect(() => loadConfig({ file, env: {} })).toThrowError(ConfigError);
    try {
      loadConfig({ file, env: {} });
    } catch (error) {
      expect((error as Error).message).toContain('server.gateway_port');
      expect((error as Error).message).toContain('llm.per_model_max_tokens.gpt-4o');
      expect((error as Error).message).toContain(file);
    }
  });

  it('refuses a traffic buffer too large to allocate, naming the key', () => {
    const file = configFile('traffic.yaml', 'gateway:\n  traffic_buffer: 1000000000\n');
    expect(() => loadConfig({ file, env: {} })).toThrowError(/gateway\.traffic_buffer/);
  });

  it('rejects unknown top-level keys by name', () => {
    const file = configFile('typo.yaml', 'alowed_models: [x]\n');
    expect(() => loadConfig({ file, env: {} })).toThrowError(/alowed_models/);
  });

  it('rejects an invalid port in the environment by variable name', () => {
    expect(() => loadConfig({ env: { GATEWAY_PORT: 'abc' } })).toThrowError(/GATEWAY_PORT/);
  });

  it('reports unreadable and unparsable files with their path', () => {
    expect(() => loadConfig({ file: '/nonexistent/gatehouse.yaml', env: {} })).toThrowError(
      /cannot read configuration file \/nonexistent/,
    );
    const broken = configFile('broken.json', '{ nope');
    expect(() => loadConfig({ file: broken, env: {} })).toThrowError(/cannot parse configuration file/);
  });
});
