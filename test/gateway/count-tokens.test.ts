import Anthropic, { type APIError as AnthropicAPIError } from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ANTHROPIC_UPSTREAM_KEY, startGatewayHarness, type GatewayHarness } from './support/harness.js';

const PROMPT = {
  system: 'You answer in haiku.',
  messages: [
    { role: 'user' as const, content: 'What is the weather like in Lisbon today?' },
    { role: 'assistant' as const, content: 'Let me look.' },
    { role: 'user' as const, content: [{ type: 'text' as const, text: 'Please be quick about it.' }] },
  ],
  tools: [
    {
      name: 'get_weather',
      description: 'Current weather for a city',
      input_schema: { type: 'object' as const, properties: { city: { type: 'string' } } },
    },
  ],
};

/** `POST /v1/messages/count_tokens` through the official Anthropic SDK's `client.messages.countTokens`. */
describe('POST /v1/messages/count_tokens', () => {
  let h: GatewayHarness;
  let secret: string;
  let client: Anthropic;
  const count = (body: Record<string, unknown>, headers: Record<string, string> = { 'x-api-key': secret }) =>
    fetch(`${h.url}/v1/messages/count_tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', ...headers },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    h = await startGatewayHarness();
    // A Claude deployment whose upstream knows the model by another name.
    const deployments = await h.admin('PUT', '/internal/deployments', {
      deployments: [
        {
          id: 'counted-claude',
          model: 'claude-counted',
          provider: 'anthropic',
          upstream_model: 'claude-upstream-name',
          base_url: h.anthropic.url,
          api_key: ANTHROPIC_UPSTREAM_KEY,
        },
      ],
    });
    expect(deployments.status).toBe(200);
    const allowed = ['demo/echo', 'gpt-4o-mini', 'claude-opus-4-7', 'claude-counted'];
    expect(
      (await h.admin('PUT', '/internal/models', { allowed_models: allowed, default_embedding_model: null })).status,
    ).toBe(200);
    secret = (await h.issueKey({ name: 'counter', scopes: ['chat'] })).key;
    client = h.anthropicClient(secret);
  });
  afterAll(async () => h.close());
  beforeEach(() => {
    h.openai.reset();
    h.anthropic.reset();
  });

  it("asks Anthropic for a Claude model's count, with the upstream model name and the client's body", async () => {
    h.anthropic.setNext({ reply: { usage: { input_tokens: 1234, output_tokens: 0 } } });
    const { data, response } = await client.messages.countTokens({ model: 'claude-counted', ...PROMPT }).withResponse();
    expect(data).toEqual({ input_tokens: 1234 });
    expect(response.headers.get('x-gateway-token-count')).toBe('provider');
    expect(response.headers.get('x-gateway-deployment')).toBe('counted-claude');
    const sent = h.anthropic.lastRequest()!;
    expect(sent.path).toBe('/v1/messages/count_tokens');
    expect(sent.headers['x-api-key']).toBe(ANTHROPIC_UPSTREAM_KEY);
    expect(sent.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(sent.body).toEqual({ model: 'claude-upstream-name', ...PROMPT });
    expect(JSON.stringify(sent.headers)).not.toContain(secret);
  });

  it('resolves aliases and adds no max_tokens, though the model has a cap', async () => {
    const counted = await client.messages.countTokens({ model: 'smart', messages: [{ role: 'user', content: 'hi' }] });
    expect(counted.input_tokens).toBeGreaterThan(0);
    const sent = h.anthropic.lastRequest()!.body;
    expect(sent.model).toBe('claude-opus-4-7');
    expect(sent).not.toHaveProperty('max_tokens');
  });

  it('counts the demo model exactly, the same number a Messages call on the same prompt is billed', async () => {
    const { data, response } = await client.messages.countTokens({ model: 'demo/echo', ...PROMPT }).withResponse();
    expect(response.headers.get('x-gateway-token-count')).toBe('exact');
    const message = await client.messages.create({ model: 'demo/echo', max_tokens: 64, ...PROMPT });
    expect(data.input_tokens).toBe(message.usage.input_tokens);
    expect(data.input_tokens).toBeGreaterThan(10);
  });

  it('estimates for an OpenAI-family model, without calling the provider', async () => {
    const { data, response } = await client.messages.countTokens({ model: 'gpt-4o-mini', ...PROMPT }).withResponse();
    expect(response.headers.get('x-gateway-token-count')).toBe('estimate');
    expect(data.input_tokens).toBeGreaterThan(10);
    expect(h.openai.requests).toHaveLength(0);
  });

  it('accounts each count as one usage row with zero tokens billed', async () => {
    const response = await count({ model: 'demo/echo', messages: [{ role: 'user', content: 'count me once' }] });
    expect(response.status).toBe(200);
    const requestId = response.headers.get('x-request-id');
    // The row is written when the response closes, just after the client has it.
    await expect
      .poll(async () => (await h.usageRows('endpoint=count_tokens')).find((r) => r.request_id === requestId))
      .toMatchObject({
        endpoint: 'count_tokens',
        model: 'demo/echo',
        prompt_tokens: 0,
        completion_tokens: 0,
        status: 200,
      });
  });

  it('takes the key from Authorization: Bearer as /v1/messages does, and answers a missing one 401 in Anthropic’s envelope', async () => {
    const bearer = await count(
      { model: 'demo/echo', messages: [{ role: 'user', content: 'a b c' }] },
      {
        authorization: `Bearer ${secret}`,
      },
    );
    expect(bearer.status).toBe(200);
    expect(await bearer.json()).toEqual({ input_tokens: 3 });

    const missing = await count({ model: 'demo/echo', messages: [{ role: 'user', content: 'x' }] }, {});
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
  });

  it('refuses a model outside allowed_models (400 model_not_allowed) and a key without the chat scope (403)', async () => {
    const unknown = await client.messages
      .countTokens({ model: 'claude-unknown-9', messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e as AnthropicAPIError);
    expect(unknown).toBeInstanceOf(Anthropic.BadRequestError);
    expect((unknown as AnthropicAPIError).error).toMatchObject({ type: 'error', error: { type: 'model_not_allowed' } });

    const embeddingsOnly = (await h.issueKey({ scopes: ['embeddings'] })).key;
    const forbidden = await h
      .anthropicClient(embeddingsOnly)
      .messages.countTokens({ model: 'demo/echo', messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e as AnthropicAPIError);
    expect(forbidden).toBeInstanceOf(Anthropic.PermissionDeniedError);
    expect((forbidden as AnthropicAPIError).message).toContain('chat scope');
    expect(h.anthropic.requests).toHaveLength(0);
  });

  it('validates the body as Messages does, but for max_tokens', async () => {
    const empty = await count({ model: 'demo/echo', messages: [] });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    const badTool = await count({
      model: 'demo/echo',
      messages: [{ role: 'user', content: 'x' }],
      tools: [{ name: 'no_schema' }],
    });
    expect(badTool.status).toBe(400);
    expect(((await badTool.json()) as { error: { message: string } }).error.message).toContain('input_schema');
  });

  it("answers an Anthropic failure 502 with the provider's status, as Messages does", async () => {
    h.anthropic.setNext({ status: 400, error: { message: 'messages: bad block' } });
    const failed = await client.messages
      .countTokens({ model: 'claude-counted', messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e as AnthropicAPIError);
    expect(failed).toBeInstanceOf(Anthropic.InternalServerError);
    expect((failed as AnthropicAPIError).status).toBe(502);
    expect((failed as AnthropicAPIError).headers?.get('x-upstream-status')).toBe('400');
    expect((failed as AnthropicAPIError).message).toContain('bad block');
  });
});
