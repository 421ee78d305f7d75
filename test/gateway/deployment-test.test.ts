import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { gatewayAdmin, startTempServers, type TempServers } from '../support/temp-servers.js';
import {
  startAnthropicUpstream,
  startOpenAIUpstream,
  type AnthropicUpstream,
  type OpenAIUpstream,
} from '../support/upstreams/index.js';
import { sendJson, startMockServer, type BaseScript, type MockUpstream } from '../support/upstreams/mock-server.js';

/**
 * `POST /internal/deployments/test`: one real call to a deployment's provider (its model list, or a
 * 1-token chat), answered with what was found in words a user can act on, audited without the key,
 * and leaving the deployment's health and usage as they were.
 */
const KEY = 'sk-upstream-test-key-0123456789abcdef';
const WRONG_KEY = 'sk-wrong-key-9876543210fedcba';
const ANTHROPIC_KEY = 'sk-ant-test-key-0123456789abcdef';
/** A port of this suite's range where nothing listens. */
const REFUSED_PORT = 19799;

/** Anthropic's `GET /v1/models` as Anthropic answers it (the shared mock speaks only Messages). */
function startAnthropicModelList(): Promise<MockUpstream<BaseScript>> {
  return startMockServer<BaseScript>('', async (request, response) => {
    if (request.headers['x-api-key'] !== ANTHROPIC_KEY)
      return sendJson(response, 401, {
        type: 'error',
        error: { type: 'authentication_error', message: 'invalid x-api-key' },
      });
    if (request.method !== 'GET' || request.path.split('?')[0] !== '/v1/models')
      return sendJson(response, 404, { type: 'error', error: { type: 'not_found_error', message: 'Not found' } });
    return sendJson(response, 200, {
      data: [
        { type: 'model', id: 'claude-sonnet-4-20250514', display_name: 'Claude Sonnet 4', created_at: '2025-05-22' },
        { type: 'model', id: 'claude-3-5-haiku-20241022', display_name: 'Claude Haiku 3.5', created_at: '2024-10-22' },
      ],
      has_more: false,
      first_id: 'claude-sonnet-4-20250514',
      last_id: 'claude-3-5-haiku-20241022',
    });
  });
}

describe('POST /internal/deployments/test', () => {
  let servers: TempServers;
  let openai: OpenAIUpstream;
  let anthropic: AnthropicUpstream;
  let anthropicList: MockUpstream<BaseScript>;
  beforeAll(async () => {
    [servers, openai, anthropic, anthropicList] = await Promise.all([
      startTempServers({}, { GATEWAY_PORT: '19710', STORE_PORT: '19711' }),
      startOpenAIUpstream({ apiKey: KEY }),
      startAnthropicUpstream({ apiKey: ANTHROPIC_KEY }),
      startAnthropicModelList(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([servers?.stop(), openai?.close(), anthropic?.close(), anthropicList?.close()]);
  });
  beforeEach(() => {
    openai.reset();
    anthropic.reset();
    anthropicList.reset();
  });

  const admin = gatewayAdmin(() => servers);
  const openaiForm = (extra: Record<string, unknown> = {}) => ({
    model: 'team-gpt',
    provider: 'openai',
    upstream_model: 'gpt-4o-mini',
    base_url: openai.url,
    api_key: KEY,
    ...extra,
  });
  const test = async (body: unknown) => admin('POST', '/internal/deployments/test', body);

  it('reads an OpenAI-compatible model list and says the model is listed', async () => {
    const answer = await test(openaiForm());
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ ok: true, status: 200, model_listed: true, mode: 'models' });
    expect(answer.body.latency_ms).toEqual(expect.any(Number));
    expect(answer.body.message).toContain("the key given was accepted and 'gpt-4o-mini' is among the 1 models listed");
    const received = openai.lastRequest()!;
    expect(received).toMatchObject({ method: 'GET', path: '/v1/models' });
    expect(received.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('does not call a key accepted when none was sent to a server that lists models to anyone', async () => {
    const open = await startMockServer<BaseScript>('', async (request, response) =>
      request.path === '/v1/models'
        ? sendJson(response, 200, { object: 'list', data: [{ id: 'llama3.2', object: 'model', owned_by: 'me' }] })
        : sendJson(response, 404, { error: { message: 'not found' } }),
    );
    try {
      const answer = await test({
        model: 'local-llama',
        provider: 'openai_compatible',
        upstream_model: 'llama3.2',
        base_url: `${open.url}/v1`,
      });
      expect(answer.body).toMatchObject({ ok: true, model_listed: true });
      expect(answer.body.message).toContain('no key was sent (the model list needs none)');
      expect(answer.body.message).not.toContain('accepted');
    } finally {
      await open.close();
    }
  });

  it('names the closest listed models when the model is not listed', async () => {
    const answer = await test(openaiForm({ upstream_model: 'gpt-4o-mimi' }));
    expect(answer.body).toMatchObject({ ok: false, status: 200, model_listed: false });
    expect(answer.body.message).toContain('model not found');
    expect(answer.body.message).toContain('Closest listed names: gpt-4o-mini');
  });

  it('says the key was rejected on a 401, with the provider text redacted', async () => {
    openai.setNext({ status: 401, error: { message: `Incorrect API key provided: ${WRONG_KEY}.` } });
    const answer = await test(openaiForm({ api_key: WRONG_KEY }));
    expect(answer.body).toMatchObject({ ok: false, status: 401, model_listed: null });
    expect(answer.body.message).toContain('the provider rejected the key given');
    expect(answer.body.message).toContain('[redacted]');
    expect(JSON.stringify(answer.body)).not.toContain(WRONG_KEY.slice(3, 20));
  });

  it('says the connection was refused at the address', async () => {
    const base = `http://127.0.0.1:${REFUSED_PORT}/v1`;
    const answer = await test(openaiForm({ base_url: base }));
    expect(answer.body).toMatchObject({ ok: false, status: null, model_listed: null });
    expect(answer.body.message).toContain(`Connection refused at ${base}/models`);
  });

  it('stops waiting at the deployment timeout when it is shorter than the test bound', async () => {
    openai.setNext({ hang: true });
    const answer = await test(openaiForm({ timeout_ms: 300 }));
    expect(answer.body).toMatchObject({ ok: false, status: null });
    expect(answer.body.message).toContain(`No answer from ${openai.url}/models within 0.3 s`);
  });

  it("reads Anthropic's model list with its key and version headers", async () => {
    const form = {
      model: 'claude',
      provider: 'anthropic',
      upstream_model: 'claude-3-5-haiku-latest',
      base_url: anthropicList.url,
      api_key: ANTHROPIC_KEY,
    };
    const answer = await test(form);
    expect(answer.body).toMatchObject({ ok: true, status: 200, model_listed: true, mode: 'models' });
    const received = anthropicList.lastRequest()!;
    expect(received.path).toBe('/v1/models?limit=1000');
    expect(received.headers['anthropic-version']).toEqual(expect.any(String));

    const missing = await test({ ...form, upstream_model: 'claude-sonet-4-20250514' });
    expect(missing.body).toMatchObject({ ok: false, model_listed: false });
    expect(missing.body.message).toContain('Closest listed names: claude-sonnet-4-20250514');
  });

  it('sends a 1-token chat when asked, in the provider format', async () => {
    const answer = await test({
      model: 'claude',
      provider: 'anthropic',
      upstream_model: 'claude-sonnet-4-20250514',
      base_url: anthropic.url,
      api_key: ANTHROPIC_KEY,
      mode: 'chat',
    });
    expect(answer.body).toMatchObject({ ok: true, status: 200, model_listed: null, mode: 'chat' });
    expect(anthropic.lastRequest()).toMatchObject({ method: 'POST', path: '/v1/messages' });
    expect(anthropic.lastRequest()!.body).toMatchObject({ model: 'claude-sonnet-4-20250514', max_tokens: 1 });
  });

  it('falls back to a 1-token chat where the server lists no models', async () => {
    openai.setNext({ status: 404 });
    const answer = await test(openaiForm({ provider: 'openai_compatible' }));
    expect(answer.body).toMatchObject({ ok: true, status: 200, mode: 'chat' });
    expect(answer.body.message).toContain('no model list there');
    expect(openai.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'GET /v1/models',
      'POST /v1/chat/completions',
    ]);
    expect(openai.lastRequest()!.body).toMatchObject({ max_tokens: 1 });
  });

  it('tests a saved deployment with its stored key, by id or as a form, never at another address', async () => {
    const saved = await admin('PUT', '/internal/deployments', {
      deployments: [openaiForm({ id: 'saved-gpt' })],
    });
    expect(saved.status).toBe(200);

    const byId = await test({ id: 'saved-gpt' });
    expect(byId.body).toMatchObject({ ok: true, model_listed: true });
    expect(openai.lastRequest()!.headers.authorization).toBe(`Bearer ${KEY}`);

    // The form as the UI sends it: the id, no key.
    const { api_key: _key, ...form } = openaiForm({ id: 'saved-gpt' });
    expect((await test(form)).body).toMatchObject({ ok: true });
    expect(openai.lastRequest()!.headers.authorization).toBe(`Bearer ${KEY}`);

    // The same id pointed elsewhere: the stored key stays home.
    const elsewhere = await test({ ...form, base_url: `${openai.origin}/other/v1` });
    expect(elsewhere.body).toMatchObject({ ok: false, status: 401 });
    expect(elsewhere.body.message).toContain('none is set');
    expect(openai.lastRequest()!.headers.authorization).toBeUndefined();

    // A failed test of the saved deployment leaves its health and the usage as they were.
    openai.setNext({ status: 500 });
    expect((await test({ id: 'saved-gpt' })).body).toMatchObject({ ok: false, status: 500 });
    const health = await admin('GET', '/internal/deployments/health');
    expect(health.body.data.find((entry: { id: string }) => entry.id === 'saved-gpt')).toMatchObject({
      state: 'unused',
      requests: 0,
    });
    const usage = await admin('GET', '/internal/usage/logs?limit=10');
    expect(usage.status).toBe(200);
    expect(usage.body.data).toEqual([]);

    await admin('PUT', '/internal/deployments', { reset: true });
  });

  it('closes the connections a form opened once its test is answered, so trying addresses leaves nothing open', async () => {
    const open = new Set<Socket>();
    const server = createServer((request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ object: 'list', data: [{ id: 'gpt-4o-mini', object: 'model', created: 0, owned_by: 'x' }] }),
      );
    });
    // Longer than the poll below: only the gateway closing the socket can end it in time.
    server.keepAliveTimeout = 60_000;
    server.on('connection', (socket) => {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const answer = await test(
        openaiForm({ base_url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` }),
      );
      expect(answer.body).toMatchObject({ ok: true, model_listed: true });
      // Kept alive, the socket would stay open for the pool's 30 s keep-alive.
      await expect.poll(() => open.size, { timeout: 5000 }).toBe(0);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('is audited without the key', async () => {
    await test(openaiForm({ id: 'audited' }));
    const audit = await admin('GET', '/internal/audit?action=deployments.test&limit=100');
    expect(audit.status).toBe(200);
    const event = audit.body.data.find((entry: { details: { id?: string } }) => entry.details.id === 'audited');
    expect(event).toMatchObject({
      action: 'deployments.test',
      details: {
        saved: false,
        deployment: { id: 'audited', model: 'team-gpt', provider: 'openai', api_key_set: true },
        ok: true,
        status: 200,
      },
    });
    expect(JSON.stringify(audit.body)).not.toContain(KEY);
  });

  it('refuses bad input with the shared 400 naming the field, and an unknown saved id with 404', async () => {
    const noModel = await test({});
    expect(noModel.status).toBe(400);
    expect(noModel.body.error.message).toContain('model');

    const provider = await test({ model: 'x', provider: 'nope' });
    expect(provider.status).toBe(400);
    expect(provider.body.error).toMatchObject({ type: 'invalid_request_error' });
    expect(provider.body.error.message).toMatch(/^provider must be one of/);

    const mode = await test({ ...openaiForm(), mode: 'ping' });
    expect(mode.status).toBe(400);
    expect(mode.body.error.message).toContain('mode');

    const unknownField = await test({ ...openaiForm(), colour: 'red' });
    expect(unknownField.status).toBe(400);

    const unknownId = await test({ id: 'no-such-deployment' });
    expect(unknownId.status).toBe(404);
    expect(unknownId.body.error.message).toContain("id: no saved deployment with id 'no-such-deployment'");
  });
});
