import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTempServers, TEST_MASTER_KEY, TEST_STORE_TOKEN, type TempServers } from '../support/temp-servers.js';
import { errorOf, sendBytes } from './json-body-client.js';

// A JSON number a double cannot hold (1e400) parses to Infinity, which JSON.stringify shows and
// stores as null: the one JSON parser of both services refuses it with a 400 naming the field.

/** A gateway error in OpenAI's shape: the same body with the field at fault (`param`). */
const withParam = (body: { error: object }, param: string | null) => ({ error: { ...body.error, param } });
const outOfRange = (subject: string) =>
  errorOf(
    'invalid_request_error',
    `${subject} is a number out of range: it is not finite as a 64-bit float; numbers must lie within ±1.7976931348623157e+308`,
    400,
  );

describe('JSON numbers out of the range of a double', () => {
  let servers: TempServers;
  let key: string;

  const gateway = (path: string, body: string, auth = TEST_MASTER_KEY, method = 'POST') =>
    sendBytes(
      `${servers.gatewayUrl}${path}`,
      { authorization: `Bearer ${auth}`, 'content-type': 'application/json' },
      body,
      method,
    );
  const store = (path: string, body: string) =>
    sendBytes(
      `${servers.storeUrl}${path}`,
      { authorization: `Bearer ${TEST_STORE_TOKEN}`, 'content-type': 'application/json' },
      body,
    );

  beforeAll(async () => {
    servers = await startTempServers();
    key = (await gateway('/internal/api-keys', JSON.stringify({ scopes: ['*'] }))).body.key;
  });
  afterAll(async () => servers?.stop());

  it('is a 400 naming the field on the admin API: key, user and team limits, metadata', async () => {
    const cases: [string, string, string][] = [
      ['/internal/api-keys', '{"name":"k","rpm_limit": 1e400}', 'field rpm_limit'],
      ['/internal/api-keys', '{"tpm_limit":-1E+999}', 'field tpm_limit'],
      ['/internal/api-keys', '{"metadata":{"weights":[1, 2e308]}}', 'field metadata.weights[1]'],
      ['/internal/teams', '{"id":"big","usd_daily_budget": 1e400}', 'field usd_daily_budget'],
      ['/internal/users', '{"id":"big","tpd_budget": 1e400}', 'field tpd_budget'],
    ];
    for (const [path, body, subject] of cases) {
      const answer = await gateway(path, body);
      expect(answer.status, body).toBe(400);
      expect(answer.body).toEqual(outOfRange(subject));
      expect(answer.headers['x-request-id']).toBeTruthy();
    }
    // Nothing was created by the refused bodies.
    const teams = (await gateway('/internal/teams', '', TEST_MASTER_KEY, 'GET')).body;
    expect(JSON.stringify(teams)).not.toContain('"big"');
  });

  it('is a 400 naming the field on the model endpoints', async () => {
    const answer = await gateway(
      '/v1/chat/completions',
      '{"model":"demo/echo","temperature":1e400,"messages":[{"role":"user","content":"hi"}]}',
      key,
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(withParam(outOfRange('field temperature'), 'temperature'));
  });

  it('is a 400 naming the field on the store, document content included (never saved as null)', async () => {
    const scope = '"scope":{"namespace":"numbers","branch":"main"}';
    const cases: [string, string, string][] = [
      ['/v1/gc', '{"keep": 1e400}', 'field keep'],
      [
        '/v1/apply',
        `{${scope},"documents":[{"key":"a.json","content":"{}"}],"expected_revision":1e400}`,
        'field expected_revision',
      ],
      ['/v1/apply', `{${scope},"documents":[{"key":"a.json","content":{"n":1e400}}]}`, 'field documents[0].content.n'],
    ];
    for (const [path, body, subject] of cases) {
      const answer = await store(path, body);
      expect(answer.status, body).toBe(400);
      expect(answer.body).toEqual(outOfRange(subject));
    }
    const top = await store('/v1/gc', '1e400');
    expect(top.body).toEqual(outOfRange('request body'));
  });

  it('still takes the largest finite numbers and tiny ones', async () => {
    const answer = await gateway('/internal/api-keys', '{"metadata":{"max":1.7976931348623157e308,"tiny":1e-400}}');
    expect(answer.status).toBe(201);
    expect(answer.body.metadata).toEqual({ max: Number.MAX_VALUE, tiny: 0 });
  });
});
