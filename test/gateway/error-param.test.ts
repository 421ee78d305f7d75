import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/** What the SDK threw for a call expected to fail. */
async function failure(call: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(OpenAI.APIError);
  return error as InstanceType<typeof OpenAI.APIError>;
}

describe('error.param on the gateway’s OpenAI-format errors', () => {
  let h: GatewayHarness;
  let key: string;
  let client: OpenAI;
  beforeAll(async () => {
    h = await startGatewayHarness();
    key = (await h.issueKey({ scopes: ['*'] })).key;
    client = h.openaiClient(key);
  });
  afterAll(async () => h.close());

  // Bodies the SDK's types would refuse: the point is what the gateway says of them.
  const chat = (body: Record<string, unknown>) =>
    failure(client.chat.completions.create({ model: 'gpt-4o-mini', ...body } as never));
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${h.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body),
    });

  describe('through the openai SDK', () => {
    it('names a chat message content of the wrong type', async () => {
      const error = await chat({ messages: [{ role: 'user', content: 42 }] });
      expect(error.status).toBe(400);
      expect(error.param).toBe('messages[0].content');
      expect(error.message).toContain('messages[0].content');
    });

    it('names the nested field of a bad content part, with its indices', async () => {
      const error = await chat({
        messages: [
          { role: 'system', content: 'be brief' },
          { role: 'user', content: [{ type: 'image_url', image_url: { url: 5 } }] },
        ],
      });
      expect(error.param).toBe('messages[1].content[0].image_url.url');
      expect(error.message).toContain('messages[1].content[0].image_url.url');
    });

    it('names a bad tool’s field', async () => {
      const error = await chat({
        messages: [{ role: 'user', content: 'hi' }],
        tools: [{ type: 'function', function: { name: '' } }],
      });
      expect(error.status).toBe(400);
      expect(error.param).toBe('tools[0].function.name');
      expect(error.message).toContain('tools[0].function.name');
    });

    it('names a temperature of the wrong type', async () => {
      const error = await chat({ messages: [{ role: 'user', content: 'hi' }], temperature: 'hot' });
      expect(error.param).toBe('temperature');
      expect(error.error).toMatchObject({ message: "temperature must be a number, got 'hot'" });
    });

    it('names embeddings dimensions out of range', async () => {
      const error = await failure(
        client.embeddings.create({ model: 'text-embedding-3-small', input: 'hello', dimensions: 100_000 }),
      );
      expect(error.status).toBe(400);
      expect(error.param).toBe('dimensions');
      expect(error.message).toContain('dimensions must be');
    });

    it('names the field a provider cannot be sent (a custom tool to a Claude model)', async () => {
      const error = await failure(
        client.chat.completions.create({
          model: 'claude-opus-4-7',
          messages: [{ role: 'user', content: 'hi' }],
          tools: [{ type: 'custom', custom: { name: 'grep' } }],
        }),
      );
      expect(error.status).toBe(400);
      expect(error.param).toBe('tools[0]');
      expect(error.message).toContain('tools[0]: custom tools');
    });

    it('names a Responses field and an unknown previous_response_id', async () => {
      const typed = await failure(
        client.responses.create({ model: 'gpt-4o-mini', input: 'hi', temperature: 'warm' } as never),
      );
      expect(typed.param).toBe('temperature');
      const previous = await failure(
        client.responses.create({ model: 'gpt-4o-mini', input: 'hi', previous_response_id: 'resp_nowhere' }),
      );
      expect(previous.status).toBe(400);
      expect(previous.param).toBe('previous_response_id');
      expect(previous.message).toContain("Previous response with id 'resp_nowhere' not found");
    });

    it('is null where the fault is not one field: an unknown model, a bad key', async () => {
      const missing = await failure(client.models.retrieve('no-such-model'));
      expect(missing.status).toBe(404);
      expect(missing.param).toBeNull();
      const unauthorized = await failure(
        h.openaiClient('sk-not-a-key').chat.completions.create({
          model: 'gpt-4o-mini',
          messages: [{ role: 'user', content: 'hi' }],
        }),
      );
      expect(unauthorized.status).toBe(401);
      expect(unauthorized.param).toBeNull();
    });
  });

  describe('the body', () => {
    it('carries param beside type, message and code, which keep their values', async () => {
      const response = await post('/v1/chat/completions', {
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'hi' }],
        temperature: 'hot',
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        error: {
          type: 'invalid_request_error',
          message: "temperature must be a number, got 'hot'",
          code: 400,
          param: 'temperature',
        },
      });
    });

    it('has param null for a body that is not JSON and for an unknown model', async () => {
      const broken = await post('/v1/chat/completions', '{"model": ');
      expect(broken.status).toBe(400);
      const brokenBody = (await broken.json()) as { error: Record<string, unknown> };
      expect(brokenBody.error).toHaveProperty('param', null);
      expect(brokenBody.error.message).toMatch(/^request body is not valid JSON/);
      const unknown = await fetch(`${h.url}/v1/models/no-such-model`, { headers: { authorization: `Bearer ${key}` } });
      expect(unknown.status).toBe(404);
      expect(((await unknown.json()) as { error: unknown }).error).toHaveProperty('param', null);
    });

    it('names a field holding bytes that are not UTF-8', async () => {
      const body = Buffer.concat([
        Buffer.from('{"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "caf'),
        Buffer.from([0xe9]),
        Buffer.from('"}]}'),
      ]);
      const response = await post('/v1/chat/completions', body);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: unknown }).error).toEqual({
        type: 'invalid_request_error',
        message: 'messages[0].content is not valid UTF-8',
        code: 400,
        param: 'messages[0].content',
      });
    });

    it('names the include value of a kept response’s retrieval', async () => {
      const response = await fetch(`${h.url}/v1/responses/resp_any?include[]=bogus`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: unknown }).error).toHaveProperty('param', 'include[0]');
    });

    it('is not in Anthropic’s shape, which has no param', async () => {
      const messages = await post('/v1/messages', { model: 'claude-opus-4-7', max_tokens: 10, messages: 'hi' });
      expect(messages.status).toBe(400);
      const body = (await messages.json()) as { type: string; error: Record<string, unknown> };
      expect(body.type).toBe('error');
      expect(body.error.message).toContain('messages');
      expect(body.error).not.toHaveProperty('param');
      const models = await fetch(`${h.url}/v1/models/no-such-model`, {
        headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01' },
      });
      expect(models.status).toBe(404);
      expect(((await models.json()) as { error: unknown }).error).not.toHaveProperty('param');
    });

    it('is not on the admin API’s errors', async () => {
      const refused = await h.admin('POST', '/internal/api-keys', { scopes: ['admin'] });
      expect(refused.status).toBe(400);
      expect(refused.body.error).not.toHaveProperty('param');
    });
  });
});
