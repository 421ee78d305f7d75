import { describe, expect, it } from 'vitest';
import { nameDeploymentInError } from '../../src/renderer/src/api/deployment-errors.js';
import { ApiError } from '../../src/renderer/src/api/http.js';

const sent = [
  { id: 'gpt#1', model: 'gpt', provider: 'openai', base_url: 'https://api.openai.com/v1' },
  { model: 'demo/echo', provider: 'openai', base_url: 'http://127.0.0.1:9/v1', api_key_env: 'NOT_SET' },
];

describe('a refused deployment, named as the Models screen shows it', () => {
  it('puts the id (or the model of a new one) and the address beside its place in the list', () => {
    const refused = new ApiError(
      400,
      'invalid_request_error',
      "deployments[1].api_key_env NOT_SET is not set in the gateway's environment: set it before starting, or give api_key",
      'req-1',
    );
    const named = nameDeploymentInError(refused, sent) as ApiError;
    expect(named.message).toBe(
      "deployments[1] (demo/echo, not saved yet, http://127.0.0.1:9/v1): api_key_env NOT_SET is not set in the gateway's environment: set it before starting, or give api_key",
    );
    expect([named.status, named.type, named.requestId]).toEqual([400, 'invalid_request_error', 'req-1']);
    const first = nameDeploymentInError(
      new ApiError(400, 'x', "deployments[0] unknown provider 'x'"),
      sent,
    ) as ApiError;
    expect(first.message).toBe("deployments[0] (gpt#1, https://api.openai.com/v1): unknown provider 'x'");
  });

  it('leaves other errors as they are', () => {
    const other = new ApiError(400, 'invalid_request_error', 'deployments: expected an array');
    expect(nameDeploymentInError(other, sent)).toBe(other);
    const outside = new ApiError(400, 'invalid_request_error', 'deployments[7].id is too long');
    expect(nameDeploymentInError(outside, sent)).toBe(outside);
    const plain = new Error('network down');
    expect(nameDeploymentInError(plain, sent)).toBe(plain);
  });
});
