import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config/load.js';
import { configFiles, configRefusal } from '../support/config-files.js';
import { failedStart } from '../support/headless-process.js';

/**
 * Aliases in the configuration file pass the same checks as through the admin API: one that points at
 * itself, at another alias, or is named like an allowed model is an invalid configuration naming it.
 */
describe('model aliases in the configuration file', () => {
  const files = configFiles('gatehouse-aliases-');
  const configFile = (name: string, text: string): string => files.write(text, name);
  afterAll(() => files.cleanup());

  const refusal = configRefusal;

  it('refuses an alias that points at itself, at another alias, or shadows an allowed model, naming it', () => {
    const cases: [string, string][] = [
      ['llm:\n  model_aliases:\n    loop: loop\n', 'llm.model_aliases.loop: points at itself'],
      ['llm:\n  model_aliases:\n    "": demo/echo\n', "llm.model_aliases: '' is not a valid name (must not be empty)"],
      [
        'llm:\n  allowed_models: [gpt-4o]\n  model_aliases:\n    fast: quick\n    quick: gpt-4o\n',
        "llm.model_aliases.fast: 'quick' is itself an alias, and aliases resolve in one step; point 'fast' at 'gpt-4o'",
      ],
      [
        'llm:\n  allowed_models: [gpt-4o, gpt-4o-mini]\n  model_aliases:\n    gpt-4o: gpt-4o-mini\n',
        "llm.model_aliases.gpt-4o: 'gpt-4o' is an allowed model, and an alias of that name would send its requests to 'gpt-4o-mini'; rename the alias or take 'gpt-4o' out of allowed_models",
      ],
    ];
    for (const [text, issue] of cases) {
      const file = configFile('gatehouse.yaml', text);
      const error = refusal(file);
      expect(error.issues).toEqual([issue]);
      expect(error.message).toBe(`invalid configuration in ${file}:\n  ${issue}`);
    }
  });

  it('names every broken alias at once, and never suggests an alias that does not resolve', () => {
    const file = configFile(
      'gatehouse.yaml',
      'llm:\n  allowed_models: [gpt-4o]\n  model_aliases:\n    gpt-4: gpt-4o-alias\n    gpt-4o-alias: gpt-4o-alias\n    fast: cheap\n    cheap: fast\n',
    );
    expect(refusal(file).issues).toEqual([
      "llm.model_aliases.gpt-4: 'gpt-4o-alias' is itself an alias, in a loop of aliases that never resolves; point 'gpt-4' at an allowed model",
      'llm.model_aliases.gpt-4o-alias: points at itself',
      "llm.model_aliases.fast: 'cheap' is itself an alias, in a loop of aliases that never resolves; point 'fast' at an allowed model",
      "llm.model_aliases.cheap: 'fast' is itself an alias, in a loop of aliases that never resolves; point 'cheap' at an allowed model",
    ]);
  });

  it('checks the camelCase spelling and JSON files too', () => {
    const file = configFile('gatehouse.json', JSON.stringify({ llm: { modelAliases: { 'demo/echo': 'demo/embed' } } }));
    expect(refusal(file).issues[0]).toMatch(/^llm\.model_aliases\.demo\/echo: 'demo\/echo' is an allowed model/);
  });

  it('accepts aliases that resolve in one step, warning about one whose target is not (yet) allowed', () => {
    const file = configFile(
      'gatehouse.yaml',
      'llm:\n  allowed_models: [gpt-4o]\n  model_aliases:\n    fast: gpt-4o\n    later: gpt-5\n',
    );
    const loaded = loadConfig({ file, env: {} });
    expect(loaded.config.llm.model_aliases).toEqual({ fast: 'gpt-4o', later: 'gpt-5' });
    expect(loaded.warnings).toEqual([
      "llm.model_aliases.later: its target 'gpt-5' is not in llm.allowed_models, so requests for 'later' are refused (unless model settings saved through the admin API allow it)",
    ]);
  });

  it('stops the server from starting, exiting 2 with the alias named', async () => {
    const file = configFile('gatehouse.yaml', 'llm:\n  model_aliases:\n    loop: loop\n');
    const dataDir = files.folder();
    const failure = await failedStart({ GATEHOUSE_CONFIG: file, GATEHOUSE_DATA_DIR: dataDir });
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toContain(
      `gatehouse: invalid configuration in ${file}:\n  llm.model_aliases.loop: points at itself`,
    );
  });
});
