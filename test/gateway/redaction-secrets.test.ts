import { describe, expect, it } from 'vitest';
import { DeploymentHealthTracker } from '../../src/server/gateway/model-registry/deployment-health.js';
import { REDACTED, redactSecrets } from '../../src/shared/secret-shapes.js';

// The key-like-string redactor applied to provider error text: what it removes and what it leaves alone.

describe('redactSecrets', () => {
  it.each([
    ['Incorrect API key provided: sk-WR****-999.', `Incorrect API key provided: ${REDACTED}.`],
    [
      'Incorrect API key provided: sk-proj-Ab12************************************Yz9Q',
      'Incorrect API key provided: [redacted]',
    ],
    ['key sk-ant-api03-AbCdEf0123456789_xyz-QWERTY is revoked', `key ${REDACTED} is revoked`],
    ['bad key sk-0123456789abcdefABCDEF0123456789', `bad key ${REDACTED}`],
    ['API key not valid: AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW', `API key not valid: ${REDACTED}`],
    [
      'The security token included AKIAIOSFODNN7EXAMPLE is invalid',
      `The security token included ${REDACTED} is invalid`,
    ],
    ['header was Authorization: Bearer gk-9f8e7d6c5b4a3210', `header was Authorization: Bearer ${REDACTED}`],
    ['got bearer abcDEF123456ghiJKL.', `got bearer ${REDACTED}.`],
    ['invalid api_key=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b', `invalid api_key=${REDACTED}`],
    ['secret: "dGhpcyBpcyBhIHNlY3JldCB2YWx1ZSAxMjM0NTY="', `secret: "${REDACTED}"`],
    ['access_token provided: ya29A0ARrdaM9xYz1234567890abcdefGHIJ', `access_token provided: ${REDACTED}`],
    ['token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJl expired', `token ${REDACTED} expired`],
  ])('redacts %j', (input, expected) => {
    expect(redactSecrets(input)).toBe(expected);
  });

  it.each([
    'You can find your API key at https://platform.openai.com/account/api-keys.',
    'The model `gpt-4o-2024-08-06` does not exist or you do not have access to it.',
    "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens.",
    'max_tokens is too large: 200000. This model supports at most 16384 completion tokens.',
    'Rate limit reached for gpt-4o-mini in organization org-abc on tokens per min (TPM): Limit 200000.',
    'Bearer authentication is required; send your key in the Authorization header.',
    'Your token limit was exceeded; the secret to success is patience.',
    'We use scikit-learn (sk-learn) and a task-1234 id; the key was not found.',
    'messages.0.content: Input should be a valid string; request id req_011CPxyz',
    'invalid_request_error: prompt is too long: 210000 tokens > 200000 maximum',
    'Overloaded',
  ])('leaves %j alone', (input) => {
    expect(redactSecrets(input)).toBe(input);
  });

  it('is idempotent', () => {
    const once = redactSecrets('Incorrect API key provided: sk-WR****-999 (Bearer sk-abc123xyz789)');
    expect(once).toBe(`Incorrect API key provided: ${REDACTED} (Bearer ${REDACTED})`);
    expect(redactSecrets(once)).toBe(once);
  });

  it("keeps the health view's last_error free of keys whatever message it is given", () => {
    const health = new DeploymentHealthTracker();
    const deployment = { id: 'd1', model: 'gpt-4o-mini', provider: 'openai' };
    health.failure(deployment as never, 5, 401, `${'x'.repeat(440)} Incorrect API key provided: sk-WR****-999`);
    const [view] = health.report([deployment as never]);
    expect(view?.last_error).toContain(REDACTED);
    expect(view?.last_error).not.toContain('sk-WR');
  });
});
