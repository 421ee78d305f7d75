import OpenAI, { type APIError } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mockVector } from '../support/upstreams/index.js';
import { OPENAI_UPSTREAM_KEY, startGatewayHarness, type GatewayHarness } from './support/harness.js';

const PROVIDER_KEY = 'sk-callers-own-provider-key-0123456789';

describe('embeddings', () => {
  let h: GatewayHarness;
  let client: OpenAI;
  let keyId: string;
  beforeAll(async () => {
    h = await startGatewayHarness({ allow_passthrough_keys: true });
    const key = await h.issueKey({ name: 'embedder', user: 'lin', team: 'search', scopes: ['embeddings'] });
    keyId = key.id;
    client = h.openaiClient(key.key);
  });
  afterAll(async () => h.close());
  beforeEach(() => h.openai.reset());

  it('embeds a string with the SDK default (base64 on the wire, floats for the caller)', async () => {
    const result = await client.embeddings.create({ model: 'text-embedding-3-small', input: 'hello world' });
    expect(result.object).toBe('list');
    expect(result.model).toBe('text-embedding-3-small');
    expect(result.data).toHaveLength(1);
    expect(result.data[0]!.object).toBe('embedding');
    expect(result.data[0]!.embedding).toHaveLength(8);
    const expected = mockVector(JSON.stringify('hello world'), 8);
    result.data[0]!.embedding.forEach((value, i) => expect(value).toBeCloseTo(expected[i]!, 6));
    expect(result.usage).toEqual({ prompt_tokens: 2, total_tokens: 2 });
    const sent = h.openai.lastRequest()!;
    expect(sent.path).toBe('/v1/embeddings');
    expect(sent.body.encoding_format).toBe('base64');
    expect(sent.headers.authorization).toBe(`Bearer ${OPENAI_UPSTREAM_KEY}`);
  });

  it('embeds a batch as floats, with the default model when none is given', async () => {
    const response = await fetch(`${h.url}/v1/embeddings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${client.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: ['a b', 'c d e'], encoding_format: 'float' }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      data: Array<{ index: number; embedding: number[] }>;
      model: string;
      usage: { prompt_tokens: number };
    };
    expect(body.model).toBe('text-embedding-3-small');
    expect(body.data.map((d) => d.index)).toEqual([0, 1]);
    expect(Array.isArray(body.data[1]!.embedding)).toBe(true);
    expect(body.usage.prompt_tokens).toBe(5);
    expect(h.openai.lastRequest()!.body.model).toBe('text-embedding-3-small');
  });

  it('commits the usage row and its audit event before answering', async () => {
    const result = await client.embeddings.create({ model: 'text-embedding-3-small', input: 'durable' }).withResponse();
    const requestId = result.response.headers.get('x-request-id')!;
    // Straight from the database, without the admin API's flush: the row must already be there.
    const row = h.servers.database.sqlite
      .prepare('SELECT * FROM gateway_usage WHERE request_id = ?')
      .get(requestId) as Record<string, unknown>;
    expect(row).toMatchObject({
      key_id: keyId,
      owner_user: 'lin',
      team: 'search',
      endpoint: 'embeddings',
      model: 'text-embedding-3-small',
      status: 200,
      prompt_tokens: 1,
    });
    const audit = h.servers.database.sqlite
      .prepare('SELECT * FROM gateway_audit_events WHERE request_id = ?')
      .get(requestId) as Record<string, unknown>;
    expect(audit).toMatchObject({
      action: 'embeddings.create',
      actor: `key:${keyId}`,
      target: 'text-embedding-3-small',
    });
    const events = await h.admin('GET', '/internal/audit?action=embeddings.create');
    expect(events.body.data.some((e: { request_id: string }) => e.request_id === requestId)).toBe(true);
  });

  it('refuses an empty text, alone or in a batch, naming where it is, before any upstream call', async () => {
    for (const [input, where] of [
      ['', 'input'],
      [['a', '', 'c'], 'input[1]'],
    ] as const) {
      const error = await client.embeddings
        .create({ model: 'text-embedding-3-small', input: input as string | string[] })
        .catch((e: unknown) => e as APIError);
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect((error as APIError).message).toContain(`${where} must not be an empty string`);
    }
    expect(h.openai.requests).toHaveLength(0);
  });

  it('rejects Claude models and missing scopes', async () => {
    const claude = await client.embeddings
      .create({ model: 'claude-opus-4-7', input: 'x' })
      .catch((e: unknown) => e as APIError);
    expect(claude).toBeInstanceOf(OpenAI.BadRequestError);
    expect((claude as APIError).type).toBe('invalid_request_error');
    const chatOnly = await h.issueKey({ scopes: ['chat'] });
    const forbidden = await h
      .openaiClient(chatOnly.key)
      .embeddings.create({ model: 'text-embedding-3-small', input: 'x' })
      .catch((e: unknown) => e as APIError);
    expect(forbidden).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect(h.openai.requests).toHaveLength(0);
  });

  it("takes a non-gk bearer as the caller's provider key when passthrough is enabled, forwarding it and accounting no key", async () => {
    const passthrough = h.openaiClient(PROVIDER_KEY);
    // The mock accepts only its configured key, so the forwarded key is visible as a 502 with the upstream's 401.
    const error = (await passthrough.embeddings
      .create({ model: 'text-embedding-3-small', input: 'mine' })
      .catch((e: unknown) => e)) as APIError;
    expect(error.status).toBe(502);
    expect(h.openai.lastRequest()!.headers.authorization).toBe(`Bearer ${PROVIDER_KEY}`);
    expect(error.message).not.toContain(PROVIDER_KEY);

    const ok = await h
      .openaiClient(OPENAI_UPSTREAM_KEY)
      .embeddings.create({ model: 'openai/text-embedding-3-large', input: 'passed through by name' })
      .withResponse();
    expect(h.openai.lastRequest()!.body.model).toBe('text-embedding-3-large');
    const requestId = ok.response.headers.get('x-request-id')!;
    const row = h.servers.database.sqlite
      .prepare('SELECT key_id, status FROM gateway_usage WHERE request_id = ?')
      .get(requestId);
    expect(row).toEqual({ key_id: null, status: 200 });
    const stored = JSON.stringify(h.servers.database.sqlite.prepare('SELECT * FROM gateway_audit_events').all());
    expect(stored).not.toContain(OPENAI_UPSTREAM_KEY);
    expect(stored).not.toContain(PROVIDER_KEY);
  });

  it('never forwards the master key, and refuses passthrough on chat', async () => {
    const master = await h
      .openaiClient(h.servers.masterKey.value)
      .embeddings.create({ model: 'text-embedding-3-small', input: 'x' })
      .catch((e: unknown) => e);
    expect(master).toBeInstanceOf(OpenAI.AuthenticationError);
    const chat = await h
      .openaiClient(PROVIDER_KEY)
      .chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    expect(chat).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(h.openai.requests).toHaveLength(0);
  });
});

describe('embeddings without passthrough or default model', () => {
  let h: GatewayHarness;
  beforeAll(async () => {
    h = await startGatewayHarness({ llm: { allowed_models: ['text-embedding-3-small'] } });
  });
  afterAll(async () => h.close());

  it('refuses provider keys as bearer (401) and a missing model (400)', async () => {
    const passthrough = await h
      .openaiClient(OPENAI_UPSTREAM_KEY)
      .embeddings.create({ model: 'text-embedding-3-small', input: 'x' })
      .catch((e: unknown) => e);
    expect(passthrough).toBeInstanceOf(OpenAI.AuthenticationError);
    const key = await h.issueKey({ scopes: ['embeddings'] });
    const response = await fetch(`${h.url}/v1/embeddings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: 'no model' }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { type: string; message: string } }).error).toMatchObject({
      type: 'invalid_request_error',
      message: expect.stringContaining('default_embedding_model'),
    });
  });
});
