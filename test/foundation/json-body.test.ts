import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTempServers, TEST_MASTER_KEY, TEST_STORE_TOKEN, type TempServers } from '../support/temp-servers.js';
import { startOpenAIUpstream, type OpenAIUpstream } from '../support/upstreams/index.js';
import { errorOf, nestedArrays, sendBytes } from './json-body-client.js';

// Bodies nested deep enough to overflow recursive code, and keys that rewrite prototypes, are refused
// by the one JSON parser of both services with a 400 naming the field, before any route sees them.

const DEEP = 5_000;
const OPENAI_KEY = 'sk-json-body-test-0123456789';
const deepMessage = /^field (.+) is nested more than 128 levels deep; the limit is 128 levels of objects and arrays$/;
const invalid = (message: string) => errorOf('invalid_request_error', message, 400);
/** A gateway error in OpenAI's shape: the same body with the field at fault (`param`). */
const withParam = (body: { error: object }, param: string | null) => ({ error: { ...body.error, param } });

describe('JSON body nesting and prototype keys', () => {
  let servers: TempServers;
  let upstream: OpenAIUpstream;
  let key: string;

  const gateway = (path: string, body: string, auth = key) =>
    sendBytes(
      `${servers.gatewayUrl}${path}`,
      { authorization: `Bearer ${auth}`, 'content-type': 'application/json' },
      body,
    );
  const store = (path: string, body: string) =>
    sendBytes(
      `${servers.storeUrl}${path}`,
      { authorization: `Bearer ${TEST_STORE_TOKEN}`, 'content-type': 'application/json' },
      body,
    );
  const chat = (content: string, extra = '') =>
    `{"model":"demo/echo","messages":[{"role":"user","content":${content}${extra}}]}`;

  beforeAll(async () => {
    upstream = await startOpenAIUpstream({ apiKey: OPENAI_KEY });
    servers = await startTempServers({
      llm: { allowed_models: ['demo/echo', 'demo/embed', 'gpt-4o-mini', 'text-embedding-3-small'] },
      providers: { openai: { base_url: upstream.url, api_key: OPENAI_KEY } },
    });
    const created = await gateway('/internal/api-keys', JSON.stringify({ scopes: ['*'] }), TEST_MASTER_KEY);
    key = created.body.key;
  });
  afterAll(async () => {
    await servers?.stop();
    await upstream?.close();
  });

  describe(`${DEEP} levels of nesting`, () => {
    const deepObjects = `${'{"a":'.repeat(DEEP)}1${'}'.repeat(DEEP)}`;
    const deepArrays = nestedArrays(DEEP);
    const hi = '"messages":[{"role":"user","content":"hi"}]';
    const tool = (parameters: string) => `{"name":"f","parameters":${parameters}}`;

    it('is a 400 naming the field on chat, embeddings, Messages and the admin API, with a request id', async () => {
      const cases = [
        {
          path: '/v1/chat/completions',
          body: `{"model":"gpt-4o-mini",${hi},"metadata":${deepObjects}}`,
          field: 'metadata.a.a',
        },
        {
          path: '/v1/chat/completions',
          body: `{"model":"gpt-4o-mini",${hi},"tools":[{"type":"function","function":${tool(deepObjects)}}]}`,
          field: 'tools[0].function.parameters.a.a',
        },
        { path: '/v1/chat/completions', body: chat(deepArrays), field: 'messages[0].content[0][0]' },
        {
          path: '/v1/embeddings',
          body: `{"model":"text-embedding-3-small","input":"x","x":${deepArrays}}`,
          field: 'x[0][0]',
        },
        { path: '/v1/embeddings', body: `{"model":"demo/embed","input":${deepArrays}}`, field: 'input[0][0]' },
        {
          path: '/v1/messages',
          body: `{"model":"demo/echo","max_tokens":16,${hi},"tools":[{"name":"f","input_schema":${deepObjects}}]}`,
          field: 'tools[0].input_schema.a.a',
        },
        {
          path: '/v1/messages',
          body: `{"model":"gpt-4o-mini","max_tokens":16,${hi},"metadata":${deepArrays}}`,
          field: 'metadata[0]',
        },
      ];
      for (const { path, body, field } of cases) {
        const answer = await gateway(path, body);
        expect(answer.status, field).toBe(400);
        expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
        expect(answer.body.error.type).toBe('invalid_request_error');
        expect(answer.body.error.code).toBe(400);
        const message = answer.body.error.message as string;
        expect(message).toMatch(deepMessage);
        expect(message.startsWith(`field ${field}`), message).toBe(true);
        // A path hundreds of levels long is shortened, not dumped.
        expect(message.length).toBeLessThan(300);
        if (path === '/v1/messages') expect(answer.body.type).toBe('error');
      }
      const admin = await gateway('/internal/api-keys', `{"name":"deep","metadata":${deepObjects}}`, TEST_MASTER_KEY);
      expect(admin.status).toBe(400);
      expect(admin.body.error.message).toMatch(deepMessage);
      expect(admin.body.error.message.startsWith('field metadata.a.a.a')).toBe(true);
    });

    it('never reaches a deployment: the upstream sees nothing and no deployment is put into cooldown', async () => {
      const before = upstream.requests.length;
      for (let i = 0; i < 4; i++) {
        const answer = await gateway('/v1/chat/completions', `{"model":"gpt-4o-mini",${hi},"x":${deepArrays}}`);
        expect(answer.status).toBe(400);
      }
      expect(upstream.requests.length).toBe(before);
      expect((await gateway('/v1/chat/completions', `{"model":"gpt-4o-mini",${hi}}`)).status).toBe(200);
      const health = await sendBytes(
        `${servers.gatewayUrl}/internal/deployments/health`,
        { authorization: `Bearer ${TEST_MASTER_KEY}` },
        '',
        'GET',
      );
      expect(health.status).toBe(200);
      const used = health.body.data.find((d: any) => d.model === 'gpt-4o-mini');
      expect(used).toMatchObject({ state: 'healthy', failures: 0, successes: 1 });
      for (const deployment of health.body.data) {
        expect(deployment.failures, deployment.id).toBe(0);
        expect(deployment.state, deployment.id).not.toBe('cooling_down');
      }
    });

    it('is refused on the store too', async () => {
      const answer = await store(
        '/v1/apply',
        `{"scope":{"namespace":"deep"},"documents":[{"key":"a","content":"x","meta":${nestedArrays(DEEP)}}]}`,
      );
      expect(answer.status).toBe(400);
      expect(answer.body.error.message).toMatch(deepMessage);
      expect(answer.body.error.message.startsWith('field documents[0].meta[0]')).toBe(true);
    });

    it('accepts exactly 128 levels and refuses 129, naming the 129th', async () => {
      // The body is level 1 and metadata level 2: 126 more arrays inside make 128.
      const at = (levels: number) => `{"name":"edge","metadata":{"a":${nestedArrays(levels - 2)}}}`;
      expect((await gateway('/internal/api-keys', at(128), TEST_MASTER_KEY)).status).toBe(201);
      const over = await gateway('/internal/api-keys', at(129), TEST_MASTER_KEY);
      expect(over.status).toBe(400);
      expect(over.body.error.message).toMatch(deepMessage);
      expect(over.body.error.message).toContain(`metadata.a${'[0]'.repeat(5)}`);
    });
  });

  describe('__proto__ and constructor keys', () => {
    it('names a __proto__ key at any depth instead of calling the body invalid JSON', async () => {
      const nested = await gateway('/v1/chat/completions', chat('"hi"', ',"__proto__":{"admin":true}'));
      expect(nested.status).toBe(400);
      expect(nested.body.error.message).toMatch(
        /^field messages\[0\]\.__proto__ is not accepted: keys named __proto__ /,
      );
      const top = await gateway('/v1/chat/completions', '{"__proto__":1,"model":"demo/echo","messages":[]}');
      expect(top.body.error.message).toMatch(/^field __proto__ is not accepted/);
      const messages = await gateway(
        '/v1/messages',
        '{"model":"demo/echo","max_tokens":8,"messages":[{"role":"user","content":"hi"}],"metadata":{"__proto__":{}}}',
      );
      expect(messages.body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', code: 400 } });
      expect(messages.body.error.message).toMatch(/^field metadata\.__proto__ is not accepted/);
      const stored = await store(
        '/v1/apply',
        '{"scope":{"namespace":"p"},"documents":[{"key":"a","content":"x"}],"__proto__":{}}',
      );
      expect(stored.status).toBe(400);
      expect(stored.body.error.message).toMatch(/^field __proto__ is not accepted/);
    });

    it('refuses a constructor holding a prototype key, naming it', async () => {
      const answer = await gateway('/v1/chat/completions', chat('"hi"', ',"constructor":{"prototype":{"x":1}}'));
      expect(answer.status).toBe(400);
      expect(answer.body.error.message).toMatch(/^field messages\[0\]\.constructor\.prototype is not accepted/);
    });

    it('accepts a plain constructor key, as a tool schema may have a property of that name', async () => {
      const tool = {
        type: 'function',
        function: {
          name: 'build',
          parameters: { type: 'object', properties: { constructor: { type: 'string' } } },
        },
      };
      const body = JSON.stringify({
        model: 'demo/echo',
        messages: [{ role: 'user', content: 'hello' }],
        tools: [tool],
      });
      const answer = await gateway('/v1/chat/completions', body);
      expect(answer.status).toBe(200);
      expect(answer.body.choices[0].message.content).toContain('hello');
      const meta = await gateway(
        '/internal/api-keys',
        JSON.stringify({ name: 'c', metadata: { constructor: 'x', nested: { constructor: { type: 'y' } } } }),
        TEST_MASTER_KEY,
      );
      expect(meta.status).toBe(201);
      expect(meta.body.metadata).toEqual({ constructor: 'x', nested: { constructor: { type: 'y' } } });
    });
  });

  it('an empty body that says it is JSON is no body where the route takes none or an optional one', async () => {
    // As `curl -X POST -H 'content-type: application/json'` sends it: only a required body is missed.
    const admin = (path: string, method: string) =>
      sendBytes(
        `${servers.gatewayUrl}${path}`,
        { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' },
        '',
        method,
      );
    const purged = await admin('/internal/cache/purge', 'POST');
    expect(purged.status).toBe(200);
    expect(purged.body).toEqual({ purged: 0 });
    const created = await gateway('/internal/teams', JSON.stringify({ id: 'empty-body-team' }), TEST_MASTER_KEY);
    expect(created.status).toBe(201);
    expect((await admin('/internal/teams/empty-body-team', 'DELETE')).status).toBe(200);
    expect(await admin('/internal/teams', 'POST')).toMatchObject({
      status: 400,
      body: invalid('request body is empty; send a JSON object'),
    });
  });

  describe("today's answers stay", () => {
    it('empty, malformed and mistyped bodies', async () => {
      expect(await gateway('/v1/chat/completions', '')).toMatchObject({
        status: 400,
        body: invalid('request body is empty; send a JSON object'),
      });
      const broken = await gateway('/v1/chat/completions', '{"model":');
      expect(broken.status).toBe(400);
      expect(broken.body.error.message).toMatch(/^request body is not valid JSON: .*JSON/);
      // V8 quotes an excerpt of the body in some messages; it may hold a secret, so it is left out.
      const secret = await sendBytes(
        `${servers.gatewayUrl}/internal/deployments`,
        { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' },
        '{"api_key":"sk-secret-0123456789", x}',
        'PUT',
      );
      expect(secret.body).toEqual(
        invalid('request body is not valid JSON: Expected double-quoted property name in JSON at position 35'),
      );
      const token = await gateway('/v1/chat/completions', '{"model":"sk-secret-0123456789", "b": x}');
      expect(token.body).toEqual(withParam(invalid("request body is not valid JSON: Unexpected token 'x'"), null));
      const text = await sendBytes(
        `${servers.storeUrl}/v1/apply`,
        { authorization: `Bearer ${TEST_STORE_TOKEN}`, 'content-type': 'text/plain' },
        '{}',
      );
      expect(text.body).toEqual(invalid("content-type must be application/json, got 'text/plain'"));
    });
  });
});
