import { describe, expect, it } from 'vitest';
import { nameDeploymentInMessage } from '../../src/renderer/src/api/deployment-errors.js';

const sent = [
  { id: 'gpt#1', model: 'gpt', provider: 'openai', base_url: 'https://api.openai.com/v1' },
  { model: 'demo/echo', provider: 'openai', base_url: 'http://127.0.0.1:9/v1', api_key_env: 'NOT_SET' },
];

describe('a refused deployment, named as the Models screen shows it', () => {
  it('puts the id (or the model of a new one) and the address beside its place in the list', () => {
    expect(
      nameDeploymentInMessage(
        "deployments[1].api_key_env NOT_SET is not set in the gateway's environment: set it before starting, or give api_key",
        sent,
      ),
    ).toBe(
      "deployments[1] (demo/echo, not saved yet, http://127.0.0.1:9/v1): api_key_env NOT_SET is not set in the gateway's environment: set it before starting, or give api_key",
    );
    expect(nameDeploymentInMessage("deployments[0] unknown provider 'x'", sent)).toBe(
      "deployments[0] (gpt#1, https://api.openai.com/v1): unknown provider 'x'",
    );
  });

  it('leaves other messages as they are', () => {
    for (const message of ['deployments: expected an array', 'deployments[7].id is too long', 'network down'])
      expect(nameDeploymentInMessage(message, sent)).toBe(message);
  });
});
