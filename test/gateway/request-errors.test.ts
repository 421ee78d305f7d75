import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTempServers, TEST_MASTER_KEY, TEST_STORE_TOKEN, type TempServers } from '../support/temp-servers.js';

// Client mistakes answered through HTTP: each message names the field or header and the value sent,
// with the status the error contract gives invalid_request_error (400, code equal to status).

interface Answer {
  readonly status: number;
  readonly body: any;
}

describe('request errors name the field and the value', () => {
  let servers: TempServers;
  let key: string;

  const send = async (
    url: string,
    init: { method?: string; headers?: Record<string, string>; body?: string },
  ): Promise<Answer> => {
    const response = await fetch(url, { method: init.method ?? 'POST', headers: init.headers, body: init.body });
    return { status: response.status, body: await response.json() };
  };
  const admin = (method: string, path: string, body: unknown) =>
    send(`${servers.gatewayUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const messages = (headers: Record<string, string>) =>
    send(`${servers.gatewayUrl}/v1/messages`, {
      headers: { 'x-api-key': key, 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ model: 'demo/echo', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
    });
  const invalid = (message: string) => ({ error: { type: 'invalid_request_error', message, code: 400 } });
  // OpenAI-format answers (/v1 but Messages) carry `param`, null where no one field is at fault.
  const invalidOnV1 = (message: string) => ({ error: { ...invalid(message).error, param: null } });

  beforeAll(async () => {
    servers = await startTempServers({ llm: { allowed_models: ['demo/echo'] } });
    const created = await admin('POST', '/internal/api-keys', { scopes: ['*'] });
    key = created.body.key;
  });
  afterAll(async () => servers.stop());

  describe('a version header that is not a date', () => {
    it('names the header, the expected form and the value, in the Anthropic envelope', async () => {
      for (const header of ['anthropic-version', 'vendor-version']) {
        const answer = await messages({ [header]: 'banana' });
        expect(answer.status).toBe(400);
        expect(answer.body).toEqual({
          type: 'error',
          ...invalid(`header ${header} must be a date (YYYY-MM-DD), got 'banana'`),
        });
      }
    });

    it('refuses impossible dates and accepts real ones', async () => {
      expect((await messages({ 'anthropic-version': '2023-13-45' })).body.error.message).toBe(
        "header anthropic-version must be a date (YYYY-MM-DD), got '2023-13-45'",
      );
      expect((await messages({ 'anthropic-version': '2023-02-29' })).status).toBe(400);
      expect((await messages({ 'anthropic-version': '2023-06-01' })).status).toBe(200);
      expect((await messages({ 'vendor-version': '2024-02-29' })).status).toBe(200);
    });
  });

  it('lists the scope forms and the scope given', async () => {
    const answer = await admin('POST', '/internal/api-keys', { name: 'x', scopes: ['chat', 'admin'] });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(
      invalid(
        "scopes[1] must be one of 'chat', 'embeddings', 'responses', 'metrics', 'rag:<collection>', 'rag:*', '*', got 'admin'",
      ),
    );
  });

  it("uses a schema's own wording of a pattern, once, with the value unless the field may hold a secret", async () => {
    const answer = await admin('PUT', '/internal/deployments', { deployments: [{ id: 'a b', model: 'demo/echo' }] });
    expect(answer.body).toEqual(invalid("deployments[0].id may hold letters, digits and . _ : / # -, got 'a b'"));
    const env = await admin('PUT', '/internal/deployments', {
      deployments: [{ model: 'demo/echo', api_key_env: '1KEY' }],
    });
    // A credential-like field never echoes its value: the usual mistake there is a pasted key.
    expect(env.body).toEqual(
      invalid('deployments[0].api_key_env must be an environment variable name, like OPENAI_API_KEY'),
    );
  });

  it('refuses a key with two expiries rather than silently keeping one, issuing nothing', async () => {
    const before = (await admin('GET', '/internal/api-keys', undefined)).body.data.length;
    for (const expires_at of ['2030-01-01T00:00:00Z', null]) {
      const answer = await admin('POST', '/internal/api-keys', { name: 'x', expires_at, expires_in_seconds: 60 });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual(invalid('expires_in_seconds cannot be given with expires_at: give one of them'));
    }
    expect((await admin('GET', '/internal/api-keys', undefined)).body.data.length).toBe(before);
  });

  it('refuses a key that could never be used: issued already expired, or allowed no model', async () => {
    const before = (await admin('GET', '/internal/api-keys', undefined)).body.data.length;
    const expired = await admin('POST', '/internal/api-keys', { name: 'x', expires_at: '2020-01-01T00:00:00Z' });
    expect(expired.status).toBe(400);
    expect(expired.body).toEqual(
      invalid('expires_at must be in the future: a key issued already expired could never be used'),
    );
    // No date at all is told that alone, not also that it is in the past.
    const notDate = await admin('POST', '/internal/api-keys', { name: 'x', expires_at: 'not a date' });
    expect(notDate.status).toBe(400);
    expect(notDate.body.error.message).toMatch(/^expires_at must be an ISO-8601/);
    expect(notDate.body.error.message).not.toContain('future');
    const noModel = invalid('models must list at least one model: leave it out, or send null, for every allowed model');
    expect((await admin('POST', '/internal/api-keys', { name: 'x', models: [] })).body).toEqual(noModel);
    expect((await admin('GET', '/internal/api-keys', undefined)).body.data.length).toBe(before);
    // On an existing key an empty list is refused too, while a past expiry ends the key now.
    const key = (await admin('POST', '/internal/api-keys', { name: 'ends-now' })).body;
    expect((await admin('PATCH', `/internal/api-keys/${key.id}`, { models: [] })).body).toEqual(noModel);
    const ended = await admin('PATCH', `/internal/api-keys/${key.id}`, { expires_at: '2020-01-01T00:00:00Z' });
    expect(ended.status).toBe(200);
    expect(ended.body.status).toBe('expired');
  });

  it('words exclusive minimums as "greater than"', async () => {
    expect((await admin('POST', '/internal/api-keys', { name: 'x', expires_in_seconds: 0 })).body).toEqual(
      invalid('expires_in_seconds must be greater than 0, got 0'),
    );
    expect((await admin('POST', '/internal/api-keys', { name: 'x', expires_in_seconds: -5 })).body).toEqual(
      invalid('expires_in_seconds must be greater than 0, got -5'),
    );
    expect((await admin('POST', '/internal/api-keys', { rpm_limit: 0 })).body).toEqual(
      invalid('rpm_limit must be greater than 0, got 0'),
    );
    expect((await admin('PUT', '/internal/models', { per_model_max_tokens: { 'demo/echo': 0 } })).body).toEqual(
      invalid('per_model_max_tokens.demo/echo must be greater than 0, got 0'),
    );
  });

  it('bounds a key lifetime to a date, and holds user and team ids to the rules of their records', async () => {
    const tooLong = await admin('POST', '/internal/api-keys', { name: 'x', expires_in_seconds: 9007199254740 });
    expect(tooLong.body).toEqual(invalid('expires_in_seconds must be at most 100 years'));
    // Nothing was kept: the listing still answers.
    expect((await admin('GET', '/internal/api-keys', undefined)).status).toBe(200);
    expect((await admin('POST', '/internal/api-keys', { name: 'x', user: 'bad user!' })).body).toEqual(
      invalid("user must be letters and digits (of any script) and . _ @ + - only, got 'bad user!'"),
    );
    const key = await admin('POST', '/internal/api-keys', { name: 'x', user: 'ada@example.com', team: 'ml' });
    expect(key.status).toBe(201);
    const id = (key.body as { id: string }).id;
    expect((await admin('PATCH', `/internal/api-keys/${id}`, { team: 'a/b' })).body).toEqual(
      invalid("team must be letters and digits (of any script) and . _ @ + - only, got 'a/b'"),
    );
  });

  it('names the value of a malformed query time', async () => {
    const response = await fetch(`${servers.gatewayUrl}/internal/usage?since=banana`, {
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}` },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(
      invalid("query parameter since must be an ISO-8601 time or date, or Unix milliseconds, got 'banana'"),
    );
  });

  it('takes a date alone as its midnight UTC', async () => {
    const response = await fetch(`${servers.gatewayUrl}/internal/usage?since=2026-01-01&until=2026-01-02`, {
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}` },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      since: '2026-01-01T00:00:00.000Z',
      until: '2026-01-02T00:00:00.000Z',
    });
  });

  describe('a body that is not sent as JSON', () => {
    const chat = JSON.stringify({ model: 'demo/echo', messages: [{ role: 'user', content: 'hi' }] });

    it("answers 400 naming the content-type on /v1/* (curl -d's form type, text/plain, none)", async () => {
      const post = (path: string, headers: Record<string, string>) =>
        send(`${servers.gatewayUrl}${path}`, { headers: { authorization: `Bearer ${key}`, ...headers }, body: chat });
      expect(await post('/v1/chat/completions', { 'content-type': 'application/x-www-form-urlencoded' })).toEqual({
        status: 400,
        body: invalidOnV1("content-type must be application/json, got 'application/x-www-form-urlencoded'"),
      });
      expect(await post('/v1/chat/completions', { 'content-type': 'text/plain' })).toEqual({
        status: 400,
        body: invalidOnV1("content-type must be application/json, got 'text/plain'"),
      });
      expect(await post('/v1/embeddings', { 'content-type': 'text/plain;charset=UTF-8' })).toEqual({
        status: 400,
        body: invalidOnV1("content-type must be application/json, got 'text/plain;charset=UTF-8'"),
      });
      // fetch sends a Blob without a type and no content-type header at all.
      const untyped = await send(`${servers.gatewayUrl}/v1/chat/completions`, {
        headers: { authorization: `Bearer ${key}` },
        body: new Blob([chat]) as unknown as string,
      });
      expect(untyped).toEqual({ status: 400, body: invalidOnV1('content-type must be application/json, got nothing') });
      // The charset parameter is fine.
      expect((await post('/v1/chat/completions', { 'content-type': 'application/json; charset=utf-8' })).status).toBe(
        200,
      );
    });

    it('keeps the Anthropic envelope on /v1/messages', async () => {
      const answer = await messages({ 'content-type': 'application/x-www-form-urlencoded' });
      expect(answer).toEqual({
        status: 400,
        body: {
          type: 'error',
          ...invalid("content-type must be application/json, got 'application/x-www-form-urlencoded'"),
        },
      });
    });

    it('still authenticates first', async () => {
      const answer = await send(`${servers.gatewayUrl}/v1/chat/completions`, {
        headers: { 'content-type': 'text/plain' },
        body: chat,
      });
      expect(answer.status).toBe(401);
    });

    it('answers the same on the admin API and the store', async () => {
      for (const type of ['application/x-www-form-urlencoded', 'text/plain']) {
        const expected = { status: 400, body: invalid(`content-type must be application/json, got '${type}'`) };
        expect(
          await send(`${servers.gatewayUrl}/internal/api-keys`, {
            headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': type },
            body: '{"name":"x"}',
          }),
        ).toEqual(expected);
        expect(
          await send(`${servers.storeUrl}/v1/apply`, {
            headers: { authorization: `Bearer ${TEST_STORE_TOKEN}`, 'content-type': type },
            body: '{"documents":[]}',
          }),
        ).toEqual(expected);
      }
    });
  });
});
