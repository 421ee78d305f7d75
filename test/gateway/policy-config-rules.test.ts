import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config/load.js';
import { configFiles, configRefusal } from '../support/config-files.js';
import { failedStart } from '../support/headless-process.js';

/**
 * Per-model rules in the configuration file (PII, content policy, cache, limits, RAG) are looked up by
 * the canonical model a request is routed to. A rule written for an alias or a misspelt model used to
 * be accepted and then never applied — a PII `block` for `fast` let every address through — while the
 * admin API refused the same names. The file is now refused, naming each such rule.
 */
describe('per-model rules in the configuration file', () => {
  const files = configFiles('gatehouse-model-rules-');
  const configFile = (text: string): string => files.write(text);
  afterAll(() => files.cleanup());

  const llm = 'llm:\n  allowed_models: [demo/echo, demo/embed]\n  model_aliases: { fast: demo/echo }\n';
  const refusal = configRefusal;

  it('refuses a rule that names an alias, in every section that holds rules per model, naming its target', () => {
    const file = configFile(
      llm +
        'pii: { mode: "off", models: { fast: { mode: block } } }\n' +
        'content_policy: { models: { fast: { blocked_patterns: [secret] } } }\n' +
        'cache: { models: { fast: { enabled: true } } }\n' +
        'limits: { models: { fast: { rpm_limit: 1 } } }\n' +
        'rag: { models: { fast: [handbook] } }\n',
    );
    const alias =
      "'fast' is an alias, and rules apply to the model a request is routed to; name its target 'demo/echo'";
    expect(refusal(file).issues).toEqual([
      `pii.models.fast: ${alias}`,
      `content_policy.models.fast: ${alias}`,
      `cache.models.fast: ${alias}`,
      `limits.models.fast: ${alias}`,
      `rag.models.fast: ${alias}`,
    ]);
  });

  it('refuses a rule for a model outside llm.allowed_models (a typo)', () => {
    const file = configFile(llm + 'pii: { models: { demo/ech0: { mode: block } } }\n');
    expect(refusal(file).issues).toEqual([
      "pii.models.demo/ech0: 'demo/ech0' is not in llm.allowed_models, so this rule would never apply",
    ]);
  });

  it('accepts rules that name allowed models', () => {
    const file = configFile(
      llm +
        'pii: { models: { demo/echo: { mode: block } } }\n' +
        'limits: { models: { demo/echo: { rpm_limit: 1 } } }\n' +
        'cache: { models: { demo/embed: { ttl_seconds: 60 } } }\n',
    );
    expect(loadConfig({ file, env: {} }).config.pii.models).toEqual({ 'demo/echo': { mode: 'block' } });
  });

  it('stops the headless server from starting, exiting 2 with the rule named', async () => {
    const file = configFile(llm + 'pii: { models: { fast: { mode: block } } }\n');
    const dataDir = files.folder();
    const failure = await failedStart({ GATEHOUSE_CONFIG: file, GATEHOUSE_DATA_DIR: dataDir });
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toContain(
      `gatehouse: invalid configuration in ${file}:\n  pii.models.fast: 'fast' is an alias`,
    );
  });
});
