import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/server/config/load.js';
import { openDatabase, type DatabaseHandle } from '../../../src/server/db/connection.js';
import { DeploymentHealthTracker } from '../../../src/server/gateway/model-registry/deployment-health.js';
import { ModelRegistry } from '../../../src/server/gateway/model-registry/model-registry.js';
import { SettingsRepository } from '../../../src/server/gateway/model-registry/settings.repository.js';
import { ModelFirstSeenRepository } from '../../../src/server/gateway/model-registry/model-first-seen.repository.js';
import { deploymentOrder } from '../../../src/server/gateway/pipeline/stages/deployment-order.js';
import type { Deployment } from '../../../src/server/gateway/providers/index.js';

describe('model registry', () => {
  let dir: string;
  let database: DatabaseHandle;
  const registry = (overrides: Record<string, unknown> = {}) =>
    new ModelRegistry({
      config: loadConfig({
        env: {},
        overrides: {
          llm: {
            allowed_models: ['gpt-4o', 'claude-opus-4-7', 'demo/echo'],
            model_aliases: { best: 'gpt-4o', gone: 'gpt-3' },
            per_model_max_tokens: { 'gpt-4o': 10 },
          },
          providers: { openai: { base_url: 'http://127.0.0.1:1/v1', api_key: 'sk-org' } },
          ...overrides,
        },
      }).config,
      repository: new SettingsRepository(database.db),
      firstSeen: new ModelFirstSeenRepository(database.db),
      env: { TEAM_KEY: 'sk-from-env' },
    });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-registry-'));
    database = openDatabase(join(dir, 'db.sqlite'));
  });
  afterEach(() => {
    database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('rewrites aliases before checking the allow-list', () => {
    const r = registry();
    expect(r.resolve('best')).toEqual({ ok: true, model: 'gpt-4o', aliasOf: 'best' });
    expect(r.resolve('gpt-4o')).toEqual({ ok: true, model: 'gpt-4o' });
    expect(r.resolve('gone')).toEqual({ ok: false, model: 'gpt-3' });
    expect(r.maxTokensCap('gpt-4o')).toBe(10);
  });

  it('lists canonical names with their provider', () => {
    expect(
      registry()
        .modelList()
        .data.map((m) => [m.id, m.owned_by]),
    ).toEqual([
      ['gpt-4o', 'openai'],
      ['claude-opus-4-7', 'anthropic'],
      ['demo/echo', 'demo'],
    ]);
  });

  it('derives a deployment from the name, with the provider-wide address and key', () => {
    expect(registry().deploymentsFor('gpt-4o')).toEqual([
      expect.objectContaining({
        id: 'gpt-4o',
        provider: 'openai',
        upstreamModel: 'gpt-4o',
        baseUrl: 'http://127.0.0.1:1/v1',
        apiKey: 'sk-org',
        explicit: false,
      }),
    ]);
    expect(registry().deploymentsFor('demo/echo')[0]).toMatchObject({ provider: 'demo', upstreamModel: 'echo' });
  });

  it('gives configured deployments stable ids and never sends the provider-wide key to another address', () => {
    const r = registry({
      deployments: [
        { model: 'local', provider: 'ollama', upstream_model: 'llama3.2', base_url: 'http://127.0.0.1:11434/v1' },
        { model: 'local', provider: 'openai', api_key_env: 'TEAM_KEY', upstream_model: 'gpt-4o-mini' },
      ],
    });
    const [a, b] = r.deploymentsFor('local');
    expect(a).toMatchObject({ id: 'local#1', provider: 'ollama', upstreamModel: 'llama3.2' });
    expect(a!.apiKey).toBeUndefined();
    expect(b).toMatchObject({ id: 'local#2', apiKey: 'sk-from-env', baseUrl: 'http://127.0.0.1:1/v1' });
  });

  it('keeps a stored key only for the id it was listed under, at the same address, and clears it on null', () => {
    const r = registry();
    r.replaceDeployments([
      { model: 'm', base_url: 'http://127.0.0.1:2/v1', api_key: 'sk-first' },
      { model: 'm', base_url: 'http://127.0.0.1:3/v1', api_key: 'sk-second' },
    ]);
    expect(r.deploymentsFor('m').map((d) => [d.id, d.apiKey])).toEqual([
      ['m#1', 'sk-first'],
      ['m#2', 'sk-second'],
    ]);
    // The UI sends back what it listed, without secrets: the keys stay.
    r.replaceDeployments([
      { id: 'm#1', model: 'm', base_url: 'http://127.0.0.1:2/v1' },
      { id: 'm#2', model: 'm', base_url: 'http://127.0.0.1:3/v1' },
    ]);
    expect(r.deploymentsFor('m').map((d) => d.apiKey)).toEqual(['sk-first', 'sk-second']);
    // Removing the first must not hand its key to the second, whose positional id would now be m#1.
    r.replaceDeployments([{ model: 'm', base_url: 'http://127.0.0.1:3/v1' }]);
    expect(r.deploymentsFor('m')[0]).toMatchObject({ id: 'm#1', baseUrl: 'http://127.0.0.1:3/v1' });
    expect(r.deploymentsFor('m')[0]!.apiKey).toBeUndefined();
    // A key never follows its id to another address.
    r.replaceDeployments([{ id: 'x', model: 'm', base_url: 'http://127.0.0.1:2/v1', api_key: 'sk-x' }]);
    r.replaceDeployments([{ id: 'x', model: 'm', base_url: 'http://127.0.0.1:9/v1' }]);
    expect(r.deploymentsFor('m')[0]!.apiKey).toBeUndefined();
    r.replaceDeployments([{ id: 'x', model: 'm', base_url: 'http://127.0.0.1:9/v1', api_key: 'sk-y' }]);
    r.replaceDeployments([{ id: 'x', model: 'm', base_url: 'http://127.0.0.1:9/v1', api_key: null }]);
    expect(r.deploymentsFor('m')[0]!.apiKey).toBeUndefined();
  });

  describe("the configuration file's deployments, checked at start as the admin API checks a save", () => {
    /** The registry as the gateway builds it, with the provider layer's check, over a configuration file. */
    const build = (file: string) =>
      new ModelRegistry({
        config: loadConfig({ file, env: {} }).config,
        repository: new SettingsRepository(database.db),
        firstSeen: new ModelFirstSeenRepository(database.db),
        env: {},
      });
    const yamlFile = (lines: readonly string[]) => {
      const file = join(dir, 'gatehouse.yaml');
      writeFileSync(file, `${lines.join('\n')}\n`);
      return file;
    };

    it('refuses an id listed twice, an unknown provider and a provider without any address, naming each key', () => {
      const file = yamlFile([
        'deployments:',
        '  - { id: a, model: m, base_url: "http://127.0.0.1:1/v1" }',
        '  - { id: a, model: other, base_url: "http://127.0.0.1:2/v1" }',
        '  - { model: m, provider: bogus, base_url: "http://127.0.0.1:3/v1" }',
        '  - { model: local, provider: openai_compatible }',
      ]);
      expect(() => build(file)).toThrowError(ConfigError);
      const error = (() => {
        try {
          build(file);
        } catch (caught) {
          return caught as ConfigError;
        }
      })();
      expect(error?.issues).toEqual([
        "deployments[1].id 'a' is already used by deployments[0]; deployment ids must be unique",
        expect.stringMatching(/^deployments\[2\]\.provider must be one of anthropic, demo, openai, .*, got 'bogus'$/),
        expect.stringMatching(
          /^deployments\[3\]\.base_url is required: provider 'openai_compatible' has no default address/,
        ),
      ]);
      expect(error?.message).toMatch(
        /^invalid configuration:\n {2}deployments\[1\]\.id 'a' is already used by deployments\[0\]/,
      );
    });

    it('accepts an address given under providers, and the shipped example file', () => {
      const file = yamlFile([
        'providers:',
        '  openai_compatible: { base_url: "http://127.0.0.1:4/v1" }',
        'deployments:',
        '  - { model: local, provider: openai_compatible }',
      ]);
      expect(build(file).deployments()).toEqual([
        expect.objectContaining({ id: 'local#1', provider: 'openai_compatible', baseUrl: 'http://127.0.0.1:4/v1' }),
      ]);
      expect(() => build('resources/gatehouse.example.yaml')).not.toThrow();
    });
  });

  it('persists admin changes and applies them to a new registry over the same database', () => {
    registry().updateSettings({ model_aliases: { fast: 'demo/echo' } });
    const again = registry();
    expect(again.settings()).toMatchObject({
      source: 'database',
      model_aliases: { fast: 'demo/echo' },
      allowed_models: ['gpt-4o', 'claude-opus-4-7', 'demo/echo'],
    });
    again.updateSettings({ reset: true });
    expect(registry().settings().source).toBe('config');
  });
});

describe('deployment order', () => {
  const deployment = (id: string, weight: number): Deployment => ({
    id,
    model: 'm',
    provider: 'openai',
    upstreamModel: 'm',
    weight,
    timeoutMs: 1000,
    maxRetries: 0,
    explicit: true,
  });

  it('follows the weights', () => {
    const health = new DeploymentHealthTracker();
    const list = [deployment('heavy', 3), deployment('light', 1)];
    let seed = 0;
    const random = () => (seed = (seed * 9301 + 49297) % 233280) / 233280;
    let heavyFirst = 0;
    for (let i = 0; i < 4000; i += 1) if (deploymentOrder(list, health, random)[0]!.id === 'heavy') heavyFirst += 1;
    expect(heavyFirst / 4000).toBeGreaterThan(0.7);
    expect(heavyFirst / 4000).toBeLessThan(0.8);
  });

  it('tries every deployment once and puts those cooling down last', () => {
    let now = 0;
    const health = new DeploymentHealthTracker(() => now);
    const list = [deployment('a', 1000), deployment('b', 1)];
    for (let i = 0; i < 3; i += 1) health.failure(list[0]!, 1, 503, 'down');
    expect(deploymentOrder(list, health).map((d) => d.id)).toEqual(['b', 'a']);
    now += 31_000;
    expect(deploymentOrder(list, health, () => 0).map((d) => d.id)).toEqual(['a', 'b']);
  });
});
