import Anthropic, { type APIError as AnthropicAPIError } from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ANTHROPIC_UPSTREAM_KEY, startGatewayHarness, type GatewayHarness } from './support/harness.js';

describe('Messages through the official @anthropic-ai/sdk client', () => {
  let h: GatewayHarness;
  let secret: string;
  let client: Anthropic;
  beforeAll(async () => {
    h = await startGatewayHarness();
    secret = (await h.issueKey({ name: 'claude-code', scopes: ['chat'] })).key;
    client = h.anthropicClient(secret);
  });
  afterAll(async () => h.close());
  beforeEach(() => {
    h.openai.reset();
    h.anthropic.reset();
  });

  it('answers with x-api-key, forwarding the native body with the gateway key and a version header', async () => {
    const message = await client.messages.create({
      model: 'claude-opus-4-7',
      max_tokens: 64,
      system: 'be brief',
      messages: [{ role: 'user', content: 'hello claude' }],
    });
    expect(message.type).toBe('message');
    expect(message.role).toBe('assistant');
    expect(message.model).toBe('claude-opus-4-7');
    expect(message.content).toEqual([{ type: 'text', text: 'You said: hello claude' }]);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.usage.input_tokens).toBeGreaterThan(0);
    const sent = h.anthropic.lastRequest()!;
    expect(sent.headers['x-api-key']).toBe(ANTHROPIC_UPSTREAM_KEY);
    expect(sent.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(sent.body).toMatchObject({ model: 'claude-opus-4-7', max_tokens: 64, system: 'be brief' });
  });

  it("forwards the client's anthropic-beta header to Anthropic, and never the client's own key", async () => {
    await client.messages.create(
      { model: 'claude-opus-4-7', max_tokens: 16, messages: [{ role: 'user', content: 'beta' }] },
      { headers: { 'anthropic-beta': 'prompt-caching-2024-07-31' } },
    );
    const sent = h.anthropic.lastRequest()!;
    expect(sent.headers['anthropic-beta']).toBe('prompt-caching-2024-07-31');
    expect(sent.headers['x-api-key']).toBe(ANTHROPIC_UPSTREAM_KEY);
    expect(JSON.stringify(sent.headers)).not.toContain(secret);
  });

  it('accepts Authorization: Bearer too (authToken)', async () => {
    const bearer = new Anthropic({ baseURL: h.url, authToken: secret, apiKey: null, maxRetries: 0 });
    const message = await bearer.messages.create({
      model: 'claude-opus-4-7',
      max_tokens: 16,
      messages: [{ role: 'user', content: 'bearer' }],
    });
    expect(message.content[0]).toEqual({ type: 'text', text: 'You said: bearer' });
  });

  it('takes x-api-key before a Bearer token, which counts only when x-api-key is absent', async () => {
    const ask = (c: Anthropic) =>
      c.messages.create({
        model: 'claude-opus-4-7',
        max_tokens: 16,
        messages: [{ role: 'user', content: 'which key' }],
      });
    const both = (apiKeyHeader: string, bearer: string) =>
      new Anthropic({
        baseURL: h.url,
        apiKey: null,
        authToken: bearer,
        defaultHeaders: { 'x-api-key': apiKeyHeader },
        maxRetries: 0,
      });

    expect((await ask(both(secret, 'gk-bad'))).content[0]).toEqual({ type: 'text', text: 'You said: which key' });
    const refused = await ask(both('gk-bad', secret)).catch((e: unknown) => e as AnthropicAPIError);
    expect(refused).toBeInstanceOf(Anthropic.AuthenticationError);
    expect((refused as AnthropicAPIError).message).toContain('invalid API key');
    expect(h.anthropic.requests).toHaveLength(1);
  });

  it('streams message_start, content_block_start, text_delta deltas, message_delta and message_stop', async () => {
    const stream = client.messages.stream({
      model: 'claude-opus-4-7',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'stream these words' }],
    });
    const kinds: string[] = [];
    let text = '';
    for await (const event of stream) {
      kinds.push(event.type);
      if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
    }
    expect(text).toBe('You said: stream these words');
    expect(kinds[0]).toBe('message_start');
    expect(kinds).toContain('content_block_start');
    expect(kinds).toContain('content_block_stop');
    expect(kinds).toContain('message_delta');
    expect(kinds.at(-1)).toBe('message_stop');
    expect((await stream.finalMessage()).usage.output_tokens).toBeGreaterThan(0);
  });

  it('sends tools and returns tool_use blocks, streaming with input_json_delta', async () => {
    const tools: Anthropic.Tool[] = [
      {
        name: 'get_weather',
        description: 'Weather',
        input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      },
    ];
    h.anthropic.setNext({ reply: { toolUses: [{ id: 'toolu_1', name: 'get_weather', input: { city: 'Rome' } }] } });
    const message = await client.messages.create({
      model: 'claude-opus-4-7',
      max_tokens: 64,
      tools,
      messages: [{ role: 'user', content: 'weather?' }],
    });
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content[0]).toMatchObject({ type: 'tool_use', name: 'get_weather', input: { city: 'Rome' } });
    expect(h.anthropic.lastRequest()!.body.tools).toEqual(tools);

    h.anthropic.setNext({ reply: { toolUses: [{ id: 'toolu_2', name: 'get_weather', input: { city: 'Lima' } }] } });
    const final = await client.messages
      .stream({ model: 'claude-opus-4-7', max_tokens: 64, tools, messages: [{ role: 'user', content: 'weather?' }] })
      .finalMessage();
    expect(final.content[0]).toMatchObject({ type: 'tool_use', input: { city: 'Lima' } });
  });

  it('translates a Messages request for an OpenAI model to chat completions and back', async () => {
    const message = await client.messages.create({
      model: 'gpt-4o-mini',
      max_tokens: 64,
      system: 'terse',
      messages: [{ role: 'user', content: 'to openai' }],
    });
    expect(message.content).toEqual([{ type: 'text', text: 'You said: to openai' }]);
    const sent = h.openai.lastRequest()!;
    expect(sent.body.messages[0]).toMatchObject({ role: 'system' });
    expect(sent.body.model).toBe('gpt-4o-mini');
    const streamed = await client.messages
      .stream({ model: 'gpt-4o-mini', max_tokens: 64, messages: [{ role: 'user', content: 'streamed across' }] })
      .finalMessage();
    expect(streamed.content[0]).toEqual({ type: 'text', text: 'You said: streamed across' });
  });

  it('accepts temperature 0 to 2: sent to Anthropic clamped to its 0..1, to OpenAI-family models as sent', async () => {
    // This SDK release no longer types `temperature` (newer API versions dropped it); it still sends it.
    const params = (model: string, temperature: number, content = 'warm') =>
      ({
        model,
        max_tokens: 16,
        temperature,
        messages: [{ role: 'user', content }],
      }) as Anthropic.MessageCreateParamsNonStreaming;
    const ask = (model: string, temperature: number) => client.messages.create(params(model, temperature));
    const message = await ask('claude-opus-4-7', 1.5);
    expect(message.content).toEqual([{ type: 'text', text: 'You said: warm' }]);
    expect(h.anthropic.lastRequest()!.body.temperature).toBe(1);
    await client.messages.stream(params('claude-opus-4-7', 2, 'hot')).finalMessage();
    expect(h.anthropic.lastRequest()!.body.temperature).toBe(1);
    await ask('claude-opus-4-7', 0.4);
    expect(h.anthropic.lastRequest()!.body.temperature).toBe(0.4);

    await ask('gpt-4o-mini', 1.5);
    expect(h.openai.lastRequest()!.body.temperature).toBe(1.5);

    const invalid = await ask('claude-opus-4-7', 2.5).catch((e: unknown) => e as AnthropicAPIError);
    expect(invalid).toBeInstanceOf(Anthropic.BadRequestError);
    expect((invalid as AnthropicAPIError).message).toContain('temperature must be between 0 and 2, got 2.5');
    expect(h.anthropic.requests).toHaveLength(3);
  });

  it('caps max_tokens after the alias rewrite', async () => {
    await client.messages.create({ model: 'smart', max_tokens: 4096, messages: [{ role: 'user', content: 'x' }] });
    expect(h.anthropic.lastRequest()!.body.model).toBe('claude-opus-4-7');
    expect(h.anthropic.lastRequest()!.body.max_tokens).toBe(200);
  });

  it('answers errors in the Anthropic envelope as the SDK typed errors', async () => {
    const call = (c: Anthropic, model = 'claude-opus-4-7') =>
      c.messages.create({ model, max_tokens: 8, messages: [{ role: 'user', content: 'x' }] }).then(
        () => undefined,
        (e: unknown) => e as AnthropicAPIError,
      );
    const unauthenticated = await call(h.anthropicClient('gk-nope'));
    expect(unauthenticated).toBeInstanceOf(Anthropic.AuthenticationError);
    expect(unauthenticated!.error).toMatchObject({ type: 'error', error: { type: 'authentication_error', code: 401 } });

    const notAllowed = await call(client, 'claude-unknown-9');
    expect(notAllowed).toBeInstanceOf(Anthropic.BadRequestError);
    expect(notAllowed!.error).toMatchObject({ type: 'error', error: { type: 'model_not_allowed' } });

    h.anthropic.setNext({ status: 401, error: { message: 'invalid x-api-key upstream' } });
    const upstream = await call(client);
    expect(upstream).toBeInstanceOf(Anthropic.InternalServerError);
    expect(upstream!.status).toBe(502);
    expect(upstream!.headers?.get('x-upstream-status')).toBe('401');

    const noScope = await h.issueKey({ scopes: ['embeddings'] });
    expect(await call(h.anthropicClient(noScope.key))).toBeInstanceOf(Anthropic.PermissionDeniedError);
  });

  it('reports an upstream failure after the stream started as an SDK error event, without retrying', async () => {
    h.anthropic.setNext({
      streamErrorAfterFrames: 3,
      error: { type: 'overloaded_error', message: 'overloaded midway' },
    });
    const stream = client.messages.stream({
      model: 'claude-opus-4-7',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'a b c d e f' }],
    });
    const failure = (await stream.finalMessage().then(
      () => undefined,
      (error: unknown) => error,
    )) as InstanceType<typeof Anthropic.APIError>;
    expect(failure).toBeInstanceOf(Anthropic.APIError);
    expect(failure.message).toMatch(/overloaded midway/);
    // The provider's error type, for clients that wait and retry on an overload, as in a 502's body;
    // and no status the stream never had.
    expect(failure.error).toMatchObject({ error: { type: 'upstream_error', upstream: { type: 'overloaded_error' } } });
    expect(failure.message).not.toMatch(/529/);
    expect(h.anthropic.requests).toHaveLength(1);
  });
});
