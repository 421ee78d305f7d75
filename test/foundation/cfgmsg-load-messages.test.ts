import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config/load.js';
import { configFiles, configRefusal } from '../support/config-files.js';

describe('messages of a configuration file as it loads', () => {
  const files = configFiles('gatehouse-cfgmsg-load-');
  afterAll(() => files.cleanup());

  it('an alias whose target is not an allowed model is a warning with the allowed model it most likely meant', () => {
    const file = files.write(
      'llm:\n  allowed_models: [demo/echo, gpt-4o, gpt-4o-mini]\n  model_aliases:\n    fast: demo/ecoh\n    small: gpt-4o-mni\n    later: gpt-5\n',
    );
    const { warnings } = loadConfig({ file, env: {} });
    expect(warnings).toEqual([
      "llm.model_aliases.fast: its target 'demo/ecoh' is not in llm.allowed_models, so requests for 'fast' are refused (unless model settings saved through the admin API allow it); did you mean 'demo/echo'?",
      "llm.model_aliases.small: its target 'gpt-4o-mni' is not in llm.allowed_models, so requests for 'small' are refused (unless model settings saved through the admin API allow it); did you mean 'gpt-4o-mini'?",
      "llm.model_aliases.later: its target 'gpt-5' is not in llm.allowed_models, so requests for 'later' are refused (unless model settings saved through the admin API allow it)",
    ]);
  });

  it('a setting written both as a dotted key and inside its section is refused naming the file, as every other mistake is', () => {
    const file = files.write('server.gateway_port: 19243\nserver:\n  gateway_port: 19244\n');
    const refusal = configRefusal(file);
    expect(refusal.message).toBe(
      `invalid configuration in ${file}:\n  server.gateway_port (one dotted key) and gateway_port in server both set server.gateway_port: keep one`,
    );
    const spellings = files.write('{"llm": {"allowedModels": ["a"], "allowed_models": ["b"]}}', 'twice.json');
    expect(configRefusal(spellings).message).toMatch(
      new RegExp(`^invalid configuration in ${spellings.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\n`),
    );
  });
});
