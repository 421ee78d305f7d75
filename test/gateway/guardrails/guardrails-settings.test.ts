import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/server/config/load.js';
import { openDatabase, type DatabaseHandle } from '../../../src/server/db/connection.js';
import { GuardrailsSettings } from '../../../src/server/gateway/guardrails/guardrails-settings.js';
import { SettingsRepository } from '../../../src/server/gateway/model-registry/settings.repository.js';

describe('PII and content-policy settings', () => {
  let dir: string;
  let database: DatabaseHandle;
  const config = loadConfig({
    env: {},
    overrides: {
      llm: { allowed_models: ['gpt-4o-mini', 'claude'] },
      pii: { mode: 'mask', models: { 'gpt-4o-mini': { mode: 'redact' } }, keys: { k1: { mode: 'off' } } },
      content_policy: {
        blocked_patterns: ['alpha'],
        max_input_tokens: 100,
        models: { 'gpt-4o-mini': { max_input_tokens: 1000, blocked_patterns: ['beta'] } },
        keys: { k2: { max_input_tokens: 0 } },
      },
    },
  }).config;
  const settings = () => new GuardrailsSettings(config, new SettingsRepository(database.db));

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-guardrails-'));
    database = openDatabase(join(dir, 'gatehouse.db'));
  });
  afterEach(() => {
    database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('merges field by field: key over model over gateway', () => {
    const s = settings();
    const base = s.forRequest(undefined, 'claude');
    expect(base.pii?.mode).toBe('mask');
    expect(base.policy?.patterns.map((p) => p.source)).toEqual(['alpha']);
    const model = s.forRequest('other', 'gpt-4o-mini');
    expect(model.pii?.mode).toBe('redact');
    expect(model.policy).toMatchObject({ maxInputTokens: 1000 });
    expect(model.policy?.patterns.map((p) => p.source)).toEqual(['beta']);
    // The key turns PII off; the model's policy still applies to it.
    const keyed = s.forRequest('k1', 'gpt-4o-mini');
    expect(keyed.pii).toBeUndefined();
    expect(keyed.policy?.maxInputTokens).toBe(1000);
    // 0 lifts the inherited limit; the patterns stay.
    expect(s.forRequest('k2', 'claude').policy).toMatchObject({ maxInputTokens: null });
    // Names an override does not list, or that only Object.prototype has, get the gateway's rules.
    expect(s.forRequest('constructor', 'toString')).toBe(s.forRequest(undefined, undefined));
  });

  it('compiles each pattern once, shared by every scope and request', () => {
    const s = settings();
    expect(s.forRequest(undefined, 'a').policy!.patterns[0]!.regex).toBe(
      s.forRequest('k2', 'a').policy!.patterns[0]!.regex,
    );
    expect(s.forRequest('x', 'gpt-4o-mini')).toBe(s.forRequest('y', 'gpt-4o-mini'));
  });

  it('keeps admin changes across restarts until reset; the policy version follows', () => {
    const first = settings();
    const before = first.policyVersion('routing');
    first.updatePii({ mode: 'block', entities: ['secret'] });
    expect(first.policyVersion('routing')).not.toBe(before);
    const restarted = settings();
    expect(restarted.pii()).toMatchObject({ mode: 'block', entities: ['secret'], source: 'database' });
    // Only secrets are looked for (by several detectors: keys, labelled values, URL passwords).
    const types = restarted.forRequest(undefined, 'claude').pii?.detectors.map((d) => d.type);
    expect([...new Set(types)]).toEqual(['secret']);
    // Fields left out keep their value.
    expect(restarted.pii().keys).toEqual({ k1: { mode: 'off' } });
    restarted.updatePii('reset');
    expect(settings().pii()).toMatchObject({ mode: 'mask', source: 'config', updatedAt: null });
    expect(settings().policyVersion('routing')).toBe(before);
  });

  it('adds nothing to the policy version while both documents are the defaults', () => {
    const plain = new GuardrailsSettings(loadConfig({ env: {} }).config, new SettingsRepository(database.db));
    expect(plain.policyVersion('abc')).toBe('abc');
    expect(plain.forRequest('k', 'm')).toEqual({ pii: undefined, policy: undefined });
  });
});
