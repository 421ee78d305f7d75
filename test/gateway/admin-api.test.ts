import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI, { type APIError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config/load.js';
import {
  apiKeyCreatedSchema,
  apiKeyListSchema,
  deploymentListSchema,
  modelSettingsViewSchema,
  trafficListSchema,
  usageResponseSchema,
} from '../../src/shared/gateway-api.js';
import { startServers, type RunningServers } from '../../src/server/start.js';
import { TEST_MASTER_KEY } from '../support/temp-servers.js';
import { startOpenAIUpstream, type OpenAIUpstream } from '../support/upstreams/index.js';

/** Servers over a data directory that outlives them, to check persistence across restarts. */
async function start(dataDir: string, upstream: OpenAIUpstream): Promise<RunningServers> {
  const env = {
    GATEHOUSE_DATA_DIR: dataDir,
    GATEWAY_PORT: '0',
    STORE_PORT: '0',
    GATEHOUSE_LOG_LEVEL: 'silent',
    PROXY_MASTER_KEY: TEST_MASTER_KEY,
    STORE_TOKEN: 'st-test-token-0123456789abcdef',
  };
  const { config } = loadConfig({
    env,
    overrides: {
      llm: { allowed_models: ['demo/echo', 'gpt-4o-mini'] },
      providers: { openai: { base_url: upstream.url } },
    },
  });
  return startServers(config, { env });
}

describe('admin API (/internal/*)', () => {
  let upstream: OpenAIUpstream;
  let dataDir: string;
  let servers: RunningServers;
  const admin = async (method: string, path: string, body?: unknown, token = TEST_MASTER_KEY) => {
    const response = await fetch(`${servers.gatewayUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
  };
  const chat = (secret: string, model = 'demo/echo') =>
    new OpenAI({ baseURL: `${servers.gatewayUrl}/v1`, apiKey: secret, maxRetries: 0 }).chat.completions.create({
      model,
      messages: [{ role: 'user', content: 'hi' }],
    });

  beforeAll(async () => {
    upstream = await startOpenAIUpstream();
    dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-admin-'));
    servers = await start(dataDir, upstream);
  });
  afterAll(async () => {
    await servers.close();
    await upstream.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('needs the master key: a wrong or missing one gets 401, a valid API key 403', async () => {
    expect((await admin('GET', '/internal/api-keys', undefined, 'wrong')).status).toBe(401);
    const key = (await admin('POST', '/internal/api-keys', { scopes: ['*'] })).body.key as string;
    const asKey = await admin('GET', '/internal/api-keys', undefined, key);
    expect(asKey.status).toBe(403);
    expect(asKey.body.error.type).toBe('permission_error');
    const none = await fetch(`${servers.gatewayUrl}/internal/models`);
    expect(none.status).toBe(401);
    // The master key is for admin only.
    await expect(chat(TEST_MASTER_KEY)).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
  });

  it('issues a key once, lists it without the secret, updates and revokes it', async () => {
    const created = await admin('POST', '/internal/api-keys', {
      name: 'ci',
      user: 'bob',
      team: 'infra',
      models: ['demo/echo'],
      rpm_limit: 60,
      tpm_limit: 10_000,
      user_tpd_budget: 1_000_000,
    });
    expect(created.status).toBe(201);
    const key = apiKeyCreatedSchema.parse(created.body);
    expect(key.key).toMatch(/^gk-[A-Za-z0-9_-]{40,}$/);
    expect(key.scopes).toEqual(['chat']);
    expect(key).toMatchObject({
      name: 'ci',
      user: 'bob',
      team: 'infra',
      models: ['demo/echo'],
      rpm_limit: 60,
      status: 'active',
    });
    expect(key.key.startsWith(key.key_prefix.replace('…', ''))).toBe(true);

    const list = apiKeyListSchema.parse((await admin('GET', '/internal/api-keys?team=infra')).body);
    expect(list.data.map((k) => k.id)).toEqual([key.id]);
    expect(JSON.stringify(list)).not.toContain(key.key);
    expect((await admin('GET', `/internal/api-keys/${key.id}`)).body).not.toHaveProperty('key');
    const row = servers.database.sqlite.prepare('SELECT key_hash FROM gateway_api_keys WHERE id = ?').get(key.id) as {
      key_hash: string;
    };
    expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(servers.database.sqlite.prepare('SELECT * FROM gateway_api_keys').all())).not.toContain(
      key.key,
    );

    // Model allow-list of the key: other models are refused with 403, and hidden from /v1/models.
    expect((await chat(key.key)).choices[0]!.message.content).toBe('hi');
    await expect(chat(key.key, 'gpt-4o-mini')).rejects.toBeInstanceOf(OpenAI.PermissionDeniedError);
    const models = await new OpenAI({ baseURL: `${servers.gatewayUrl}/v1`, apiKey: key.key }).models.list();
    expect(models.data.map((m) => m.id)).toEqual(['demo/echo']);

    const updated = await admin('PATCH', `/internal/api-keys/${key.id}`, { scopes: ['embeddings'], models: null });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ scopes: ['embeddings'], models: null });
    // The cached copy is dropped: the next request sees the new scopes.
    await expect(chat(key.key)).rejects.toBeInstanceOf(OpenAI.PermissionDeniedError);

    const revoked = await admin('DELETE', `/internal/api-keys/${key.id}`);
    expect(revoked.body.status).toBe('revoked');
    expect((await admin('DELETE', `/internal/api-keys/${key.id}`)).status).toBe(200);
    const error = (await chat(key.key).catch((e: unknown) => e)) as APIError;
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(error.message).toContain('revoked');
    expect((await admin('GET', '/internal/api-keys')).body.data.some((k: { id: string }) => k.id === key.id)).toBe(
      false,
    );
    expect(
      (await admin('GET', '/internal/api-keys?include_revoked=true')).body.data.some(
        (k: { id: string }) => k.id === key.id,
      ),
    ).toBe(true);
    expect((await admin('PATCH', '/internal/api-keys/key_missing', { name: 'x' })).status).toBe(404);
  });

  it('refuses expired keys and validates bodies naming the field', async () => {
    const issued = await admin('POST', '/internal/api-keys', {});
    const expired = await admin('PATCH', `/internal/api-keys/${issued.body.id}`, {
      expires_at: '2020-01-01T00:00:00Z',
    });
    expect(expired.body.status).toBe('expired');
    const error = (await chat(issued.body.key).catch((e: unknown) => e)) as APIError;
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(error.message).toContain('expired');
    const invalid = await admin('POST', '/internal/api-keys', { scopes: ['admin'] });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.message).toContain('scopes[0]');
  });

  it('changes allowed models, aliases and caps without a restart', async () => {
    const secret = (await admin('POST', '/internal/api-keys', {})).body.key as string;
    await expect(chat(secret, 'quick')).rejects.toBeInstanceOf(OpenAI.BadRequestError);
    const put = await admin('PUT', '/internal/models', {
      model_aliases: { quick: 'gpt-4o-mini' },
      per_model_max_tokens: { 'gpt-4o-mini': 33 },
    });
    expect(put.status).toBe(200);
    const view = modelSettingsViewSchema.parse(put.body);
    expect(view).toMatchObject({
      source: 'database',
      allowed_models: ['demo/echo', 'gpt-4o-mini'],
      model_aliases: { quick: 'gpt-4o-mini' },
    });
    expect(view.providers['gpt-4o-mini']).toBe('openai');
    await chat(secret, 'quick');
    expect(upstream.lastRequest()!.body).toMatchObject({ model: 'gpt-4o-mini', max_tokens: 33 });

    await admin('PUT', '/internal/models', { allowed_models: ['demo/echo'], model_aliases: {} });
    await expect(chat(secret, 'quick')).rejects.toBeInstanceOf(OpenAI.BadRequestError);
    const models = await new OpenAI({ baseURL: `${servers.gatewayUrl}/v1`, apiKey: secret }).models.list();
    expect(models.data.map((m) => m.id)).toEqual(['demo/echo']);
  });

  it('refuses aliases that can never resolve, or that would hide an allowed model, and changes nothing', async () => {
    const before = (await admin('GET', '/internal/models')).body;
    const cases: [object, string][] = [
      [{ model_aliases: { loop: 'loop' } }, 'model_aliases.loop points at itself'],
      [
        { model_aliases: { a: 'b', b: 'demo/echo' } },
        "model_aliases.a: 'b' is itself an alias, and aliases resolve in one step; point 'a' at 'demo/echo'",
      ],
      [
        { allowed_models: ['demo/echo', 'gpt-4o-mini'], model_aliases: { 'demo/echo': 'gpt-4o-mini' } },
        "model_aliases.demo/echo: 'demo/echo' is an allowed model, and an alias of that name would send its requests to 'gpt-4o-mini'; rename the alias or take 'demo/echo' out of allowed_models",
      ],
      [{ model_aliases: { '': 'demo/echo' } }, 'model_aliases[""] is not a valid name: must not be empty'],
    ];
    for (const [body, message] of cases) {
      const answer = await admin('PUT', '/internal/models', body);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toEqual({ type: 'invalid_request_error', message, code: 400 });
    }
    expect((await admin('GET', '/internal/models')).body).toEqual(before);
  });

  it('replaces deployments, never showing keys, and keeps a stored key when an update omits it', async () => {
    const put = await admin('PUT', '/internal/deployments', {
      deployments: [
        {
          id: 'local-a',
          model: 'team-model',
          provider: 'openai',
          upstream_model: 'gpt-4o-mini',
          base_url: upstream.url,
          api_key: 'sk-deployment-secret-123456',
          weight: 2,
        },
      ],
    });
    expect(put.status).toBe(200);
    const list = deploymentListSchema.parse(put.body);
    expect(list.data[0]).toMatchObject({ id: 'local-a', api_key_set: true, weight: 2, upstream_model: 'gpt-4o-mini' });
    // What a deployment that sets no timeout or retries gets, so a form can say it (and not pin it).
    expect(list.defaults).toEqual({ timeout_ms: 600_000, max_retries: 2 });
    expect(list.data[0]).toMatchObject({ timeout_ms: 600_000, max_retries: 2 });
    expect(JSON.stringify(put.body)).not.toContain('sk-deployment-secret');
    await admin('PUT', '/internal/deployments', {
      deployments: [
        {
          id: 'local-a',
          model: 'team-model',
          provider: 'openai',
          upstream_model: 'gpt-4o-mini',
          base_url: upstream.url,
          weight: 3,
        },
      ],
    });
    expect((await admin('GET', '/internal/deployments')).body.data[0]).toMatchObject({ api_key_set: true, weight: 3 });
    // A list as GET shows it (api_key_set, nulls for what is unset) is sent back as it is, edited: it
    // was refused, naming api_key_env and capabilities, until a script stripped them.
    const shown = (await admin('GET', '/internal/deployments')).body.data;
    expect(shown[0]).toMatchObject({ api_key_env: null, capabilities: null });
    const edited = await admin('PUT', '/internal/deployments', { deployments: [{ ...shown[0], weight: 4 }] });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.data).toEqual([{ ...shown[0], weight: 4 }]);
    await admin('PUT', '/internal/models', { allowed_models: ['demo/echo', 'team-model'] });
    const secret = (await admin('POST', '/internal/api-keys', {})).body.key as string;
    const completion = await chat(secret, 'team-model');
    expect(completion.model).toBe('team-model');
    expect(upstream.lastRequest()!.headers.authorization).toBe('Bearer sk-deployment-secret-123456');
    const audit = JSON.stringify((await admin('GET', '/internal/audit?action=deployments.update')).body);
    expect(audit).toContain('local-a');
    expect(audit).not.toContain('sk-deployment-secret');
  });

  it('refuses at save a deployment list that could not be routed as written, changing nothing', async () => {
    const before = (await admin('GET', '/internal/deployments')).body;
    const put = (deployments: unknown[]) => admin('PUT', '/internal/deployments', { deployments });

    const bogus = await put([{ id: 'b', model: 'team-model', provider: 'bogus', base_url: upstream.url }]);
    expect(bogus.status).toBe(400);
    expect(bogus.body.error).toMatchObject({ type: 'invalid_request_error', code: 400 });
    expect(bogus.body.error.message).toMatch(
      /^deployments\[0\]\.provider must be one of anthropic, demo, openai, .*openai_compatible.*, got 'bogus'$/,
    );

    // openai_compatible has no public address: without base_url (here or under providers) it could never be called.
    const noAddress = await put([
      { id: 'ok', model: 'team-model', base_url: upstream.url },
      { id: 'c', model: 'team-model', provider: 'openai_compatible' },
    ]);
    expect(noAddress.status).toBe(400);
    expect(noAddress.body.error.message).toContain(
      "deployments[1].base_url is required: provider 'openai_compatible' has no default address",
    );

    const twice = await put([
      { id: 'a', model: 'team-model', base_url: upstream.url },
      { id: 'a', model: 'other', base_url: upstream.url },
    ]);
    expect(twice.status).toBe(400);
    expect(twice.body.error.message).toBe(
      "deployments[1].id 'a' is already used by deployments[0]; deployment ids must be unique",
    );

    const both = await admin('PUT', '/internal/deployments', { reset: true, deployments: [] });
    expect(both.status).toBe(400);
    expect(both.body.error.message).toContain('reset cannot be combined with deployments');
    expect((await admin('GET', '/internal/deployments')).body).toEqual(before);

    // A generated id steps aside for a listed one instead of renaming it; the saved ones come back
    // as the UI sends them (without keys, which stay stored for their ids).
    const saved = before.data.map(
      ({ id, model, provider, upstream_model, base_url, weight }: Record<string, unknown>) => ({
        id,
        model,
        provider,
        upstream_model,
        base_url,
        weight,
      }),
    );
    const listed = await put([
      ...saved,
      { model: 'extra', base_url: upstream.url },
      { id: 'extra#2', model: 'extra', base_url: upstream.url },
    ]);
    expect(listed.status).toBe(200);
    expect(listed.body.data.slice(saved.length).map((d: { id: string }) => d.id)).toEqual(['extra#1', 'extra#2']);
    const clash = await put([
      ...saved,
      { model: 'extra', base_url: upstream.url },
      { id: 'extra#1', model: 'extra', base_url: upstream.url },
    ]);
    expect(clash.body.data.slice(saved.length).map((d: { id: string }) => d.id)).toEqual(['extra#1-2', 'extra#1']);
    await put(saved);
    expect((await admin('GET', '/internal/deployments')).body.data).toEqual(before.data);
  });

  it('refuses reset beside other model settings, and says why a key may not see an allowed model', async () => {
    const before = (await admin('GET', '/internal/models')).body;
    const both = await admin('PUT', '/internal/models', { reset: true, allowed_models: ['demo/echo'] });
    expect(both.status).toBe(400);
    expect(both.body.error).toMatchObject({ type: 'invalid_request_error', code: 400 });
    expect(both.body.error.message).toContain('reset cannot be combined with allowed_models');
    expect((await admin('GET', '/internal/models')).body).toEqual(before);

    // Globally allowed (the settings in force), but not for this key.
    const other = (before.allowed_models as string[]).find((m) => m !== 'demo/echo')!;
    expect(other).toBeDefined();
    const limited = (await admin('POST', '/internal/api-keys', { models: ['demo/echo'] })).body;
    const models = new OpenAI({ baseURL: `${servers.gatewayUrl}/v1`, apiKey: limited.key, maxRetries: 0 }).models;
    expect((await models.retrieve('demo/echo')).id).toBe('demo/echo');
    const hidden = (await models.retrieve(other).catch((e: unknown) => e)) as APIError;
    expect(hidden).toBeInstanceOf(OpenAI.NotFoundError);
    expect(hidden.message).toContain(
      `API key ${limited.id} may not use model '${other}' (the key is limited to demo/echo)`,
    );
    expect(hidden.message).not.toContain('not in allowed_models');
    const unknown = (await models.retrieve('gpt-9').catch((e: unknown) => e)) as APIError;
    expect(unknown).toBeInstanceOf(OpenAI.NotFoundError);
    expect(unknown.message).toContain("model 'gpt-9' is not in allowed_models");
  });

  it('aggregates usage by model and key per time bucket', async () => {
    const key = (await admin('POST', '/internal/api-keys', { name: 'charted' })).body;
    await chat(key.key);
    await chat(key.key);
    const byKey = usageResponseSchema.parse(
      (
        await admin(
          'GET',
          `/internal/usage?group_by=key&bucket=minute&since=${encodeURIComponent(new Date(Date.now() - 60_000).toISOString())}`,
        )
      ).body,
    );
    const point = byKey.data.find((p) => p.group === key.id)!;
    expect(point).toMatchObject({ requests: 2, errors: 0, label: 'charted' });
    expect(point.prompt_tokens).toBeGreaterThan(0);
    expect(new Date(point.bucket_start).getTime() % 60_000).toBe(0);
    const byModel = usageResponseSchema.parse((await admin('GET', '/internal/usage?group_by=model&bucket=day')).body);
    expect(byModel.data.find((p) => p.group === 'demo/echo')!.requests).toBeGreaterThanOrEqual(2);
    expect(byModel.totals.requests).toBeGreaterThanOrEqual(byModel.data.reduce((sum, p) => sum + p.requests, 0));
    expect((await admin('GET', '/internal/usage?bucket=week')).status).toBe(400);
  });

  it('shows recent traffic with bodies and never credentials, and streams it live over SSE', async () => {
    const key = (await admin('POST', '/internal/api-keys', { name: 'watched' })).body;
    const controller = new AbortController();
    const stream = await fetch(`${servers.gatewayUrl}/internal/traffic/stream`, {
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}` },
      signal: controller.signal,
    });
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    const reader = stream.body!.getReader();
    await chat(key.key);
    let text = '';
    while (!text.includes('event: traffic')) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    expect(text).toMatch(/id: \d+\nevent: traffic\ndata: \{/);

    const traffic = trafficListSchema.parse((await admin('GET', '/internal/traffic?limit=5')).body);
    const event = traffic.data.find((e) => e.key_id === key.id)!;
    expect(event).toMatchObject({
      endpoint: 'chat',
      status: 200,
      model: 'demo/echo',
      key_name: 'watched',
      stream: false,
    });
    expect(event.request_body).toMatchObject({ model: 'demo/echo', messages: [{ role: 'user', content: 'hi' }] });
    expect(event.response_body).toMatchObject({ object: 'chat.completion' });
    const all = JSON.stringify(traffic);
    expect(all).not.toContain(key.key);
    expect(all).not.toContain(TEST_MASTER_KEY);
  });

  it('pages traffic after a seq from the oldest newer request, so a poller moving its cursor misses none', async () => {
    const key = (await admin('POST', '/internal/api-keys', { name: 'polled' })).body;
    const cursor = trafficListSchema.parse((await admin('GET', '/internal/traffic?limit=1')).body).last_seq;
    for (let i = 0; i < 7; i += 1) await chat(key.key);
    const seen: number[] = [];
    let after = cursor;
    for (let polls = 0; polls < 10; polls += 1) {
      const page = trafficListSchema.parse((await admin('GET', `/internal/traffic?after=${after}&limit=3`)).body);
      seen.push(...page.data.map((event) => event.seq).reverse());
      if (page.data.length > 0) after = page.data[0]!.seq;
      if (!page.has_more) break;
    }
    expect(seen).toEqual(Array.from({ length: 7 }, (_, i) => cursor + 1 + i));
  });

  it('tells open Users and Teams views about the user and team a new key created, as their own endpoints do', async () => {
    const controller = new AbortController();
    const stream = await fetch(`${servers.gatewayUrl}/internal/traffic/stream`, {
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}` },
      signal: controller.signal,
    });
    const reader = stream.body!.getReader();
    await admin('POST', '/internal/api-keys', { name: 'first of its kind', user: 'dave-new', team: 't-new' });
    let text = '';
    while (!text.includes('"topic":"api-keys"')) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    const topics = [...text.matchAll(/^data: (\{"topic".*\})$/gm)].map((match) => JSON.parse(match[1]!));
    expect(topics).toContainEqual({ topic: 'users', ids: ['dave-new'] });
    expect(topics).toContainEqual({ topic: 'teams', ids: ['t-new'] });
  });

  it('persists keys, model settings and deployments across a restart', async () => {
    const key = (await admin('POST', '/internal/api-keys', { name: 'survivor' })).body;
    await admin('PUT', '/internal/models', {
      allowed_models: ['demo/echo', 'team-model'],
      model_aliases: { tm: 'team-model' },
    });
    await servers.close();
    servers = await start(dataDir, upstream);
    expect((await admin('GET', `/internal/api-keys/${key.id}`)).body.name).toBe('survivor');
    expect((await admin('GET', '/internal/models')).body).toMatchObject({
      source: 'database',
      model_aliases: { tm: 'team-model' },
    });
    expect((await admin('GET', '/internal/deployments')).body.data[0]).toMatchObject({
      id: 'local-a',
      api_key_set: true,
    });
    expect((await chat(key.key, 'tm')).model).toBe('team-model');
    const actions = (await admin('GET', '/internal/audit?limit=1000')).body.data.map(
      (e: { action: string }) => e.action,
    );
    expect(actions).toEqual(
      expect.arrayContaining([
        'api_key.create',
        'api_key.update',
        'api_key.revoke',
        'models.update',
        'deployments.update',
      ]),
    );
    // Back to the configuration file's values.
    expect((await admin('PUT', '/internal/models', { reset: true })).body).toMatchObject({
      source: 'config',
      allowed_models: ['demo/echo', 'gpt-4o-mini'],
    });
  });
});
