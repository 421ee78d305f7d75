import { describe, expect, it } from 'vitest';
import {
  deploymentsUpdateSchema,
  type DeploymentDefaults,
  type DeploymentList,
  type DeploymentView,
} from '../../src/shared/gateway-api.js';
import {
  deploymentsChanged,
  draftOf as draftWithDefaults,
  emptyDraft,
  toDeploymentInput,
} from '../../src/renderer/src/features/gateway/deployment-form.js';

const saved: DeploymentView = {
  id: 'team-gpt#0',
  model: 'team-gpt',
  provider: 'openai',
  upstream_model: 'gpt-4o-mini',
  base_url: 'http://127.0.0.1:9000/v1',
  api_key_set: true,
  api_key_env: null,
  weight: 2,
  timeout_ms: 30000,
  max_retries: 2,
  capabilities: null,
};
const defaults: DeploymentDefaults = { timeout_ms: 600_000, max_retries: 2 };
const draftOf = (view: DeploymentView) => draftWithDefaults(view, defaults);
const listOf = (...data: DeploymentView[]): DeploymentList => ({
  source: 'database',
  updated_at: null,
  defaults,
  data,
});

describe('deployment form', () => {
  it('turns a filled row into an entry the deployments route accepts', () => {
    const draft = {
      ...emptyDraft(),
      model: 'team-gpt',
      provider: 'openai',
      upstreamModel: 'gpt-4o-mini',
      baseUrl: 'http://127.0.0.1:9000/v1',
      apiKeyEnv: 'TEAM_KEY',
      weight: '3',
      timeoutMs: '20000',
      maxRetries: '4',
      apiVersion: '2024-10-21',
    };
    const { input, errors } = toDeploymentInput(draft);
    expect(errors).toEqual({});
    expect(input).toMatchObject({
      model: 'team-gpt',
      provider: 'openai',
      upstream_model: 'gpt-4o-mini',
      base_url: 'http://127.0.0.1:9000/v1',
      api_key_env: 'TEAM_KEY',
      weight: 3,
      timeout_ms: 20000,
      max_retries: 4,
      api_version: '2024-10-21',
    });
    expect(deploymentsUpdateSchema.safeParse({ deployments: [input] }).success).toBe(true);
  });

  it("keeps an Azure deployment's api version through an edit", () => {
    const draft = draftOf({ ...saved, provider: 'azure', api_version: '2024-10-21' });
    expect(toDeploymentInput(draft).input?.api_version).toBe('2024-10-21');
    expect(toDeploymentInput(draftOf(saved)).input?.api_version).toBeUndefined();
    expect(toDeploymentInput(draftOf({ ...saved, responses_api: 'native' })).input?.responses_api).toBe('native');
  });

  it('edits capabilities as a comma-separated list, empty for not restricted, and names a bad one', () => {
    const draft = draftOf({ ...saved, capabilities: ['streaming', 'tools'] });
    expect(draft.capabilities).toBe('streaming, tools');
    expect(toDeploymentInput({ ...draft, capabilities: 'streaming, vision ,' }).input?.capabilities).toEqual([
      'streaming',
      'vision',
    ]);
    expect(toDeploymentInput({ ...draft, capabilities: '' }).input?.capabilities).toBeUndefined();
    expect(toDeploymentInput({ ...draft, capabilities: 'stream' }).errors.capabilities).toContain('must be one of');
    expect(toDeploymentInput({ ...draft, responsesApi: 'sometimes' }).errors.responsesApi).toBeDefined();
  });

  it('never fills the key from the server, and leaves it out so the gateway keeps the stored one', () => {
    const draft = draftOf(saved);
    expect(draft.apiKey).toBe('');
    expect(draft.apiKeySet).toBe(true);
    const { input } = toDeploymentInput(draft);
    expect(input?.api_key).toBeUndefined();
    // The id goes back as listed, generated ones included: the stored key belongs to it.
    expect(input?.id).toBe('team-gpt#0');
    expect(toDeploymentInput({ ...draft, id: 'team-gpt-primary' }).input?.id).toBe('team-gpt-primary');
    expect(toDeploymentInput({ ...draft, apiKey: 'sk-new' }).input?.api_key).toBe('sk-new');
  });

  it("shows the shared schema's messages on the fields they are about", () => {
    const { input, errors } = toDeploymentInput({
      ...emptyDraft(),
      model: '',
      baseUrl: 'not a url',
      weight: '0',
      timeoutMs: '1.5',
      maxRetries: '11',
    });
    expect(input).toBeUndefined();
    expect(errors.maxRetries).toBeDefined();
    expect(Object.keys(errors).sort()).toEqual(['baseUrl', 'maxRetries', 'model', 'timeoutMs', 'weight']);
    for (const message of Object.values(errors)) expect(message).toMatch(/\w/);
  });

  it('refuses a key pasted where the variable name goes (that field is shown back in the clear)', () => {
    expect(toDeploymentInput({ ...emptyDraft(), model: 'm', apiKeyEnv: 'sk-proj-abc123' }).errors.apiKeyEnv).toMatch(
      /environment variable/,
    );
    expect(toDeploymentInput({ ...emptyDraft(), model: 'm', apiKeyEnv: 'K', apiKey: 'sk' }).errors.apiKey).toMatch(
      /not both/,
    );
  });

  it('knows when the list differs from the saved one', () => {
    expect(deploymentsChanged([draftOf(saved)], listOf(saved))).toBe(false);
    expect(deploymentsChanged([{ ...draftOf(saved), weight: '1' }], listOf(saved))).toBe(true);
    expect(deploymentsChanged([], listOf(saved))).toBe(true);
  });

  it("leaves a value equal to the gateway's default unset, so a save keeps following the default", () => {
    const draft = draftOf(saved);
    expect(draft.maxRetries).toBe('');
    expect(draft.timeoutMs).toBe('30000');
    const { input } = toDeploymentInput(draft);
    expect(input?.max_retries).toBeUndefined();
    expect(input?.timeout_ms).toBe(30000);
    const defaulted = draftOf({ ...saved, timeout_ms: 600_000, max_retries: 5 });
    expect([defaulted.timeoutMs, defaulted.maxRetries]).toEqual(['', '5']);
  });
});
