import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFiles, configRefusal } from '../support/config-files.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

// LiteLLM writes `ollama/*`; Gatehouse has no wildcard models, so such a name would allow nothing.
const WHY = "'*' is not a wildcard here: list each model (ollama/llama3.2), or route one public name";

describe('a wildcard in the allow-list', () => {
  const files = configFiles('gatehouse-wildcard-');
  let h: GatewayHarness;
  beforeAll(async () => {
    h = await startGatewayHarness();
  });
  afterAll(async () => {
    files.cleanup();
    await h.close();
  });

  it('stops a configuration file, naming the entry', () => {
    const file = files.write('llm:\n  allowed_models: [demo/echo, "ollama/*"]\n');
    expect(configRefusal(file).message).toContain(`llm.allowed_models[1]: ${WHY}`);
  });

  it('is refused by the admin API, and the settings in force stay', async () => {
    const before = (await h.admin('GET', '/internal/models')).body;
    const answer = await h.admin('PUT', '/internal/models', { allowed_models: ['demo/echo', 'ollama/*'] });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toContain('allowed_models[1]');
    expect(answer.body.error.message).toContain(WHY);
    expect((await h.admin('GET', '/internal/models')).body).toEqual(before);
  });
});
