import OpenAI, { type APIError } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OPENAI_UPSTREAM_KEY, startGatewayHarness, type GatewayHarness } from './support/harness.js';

describe('chat completions through the official openai client', () => {
  let h: GatewayHarness;
  let client: OpenAI;
  let keyId: string;
  beforeAll(async () => {
    h = await startGatewayHarness();
    const key = await h.issueKey({ name: 'sdk', user: 'ada', team: 'core', scopes: ['chat'] });
    keyId = key.id;
    client = h.openaiClient(key.key);
  });
  afterAll(async () => h.close());
  beforeEach(() => {
    h.openai.reset();
    h.anthropic.reset();
  });

  it('answers non-streaming requests and sends the provider the canonical model with its own key', async () => {
    const completion = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hello gateway' },
      ],
    });
    expect(completion.object).toBe('chat.completion');
    expect(completion.model).toBe('gpt-4o-mini');
    expect(completion.choices[0]!.message.content).toBe('You said: hello gateway');
    expect(completion.choices[0]!.finish_reason).toBe('stop');
    expect(completion.usage!.total_tokens).toBe(completion.usage!.prompt_tokens + completion.usage!.completion_tokens);
    const sent = h.openai.lastRequest()!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe(`Bearer ${OPENAI_UPSTREAM_KEY}`);
    expect(sent.body.model).toBe('gpt-4o-mini');
    expect(sent.body.messages).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'hello gateway' },
    ]);
  });

  it('streams chunks as they arrive and ends with [DONE]', async () => {
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'one two three' }],
    });
    const pieces: string[] = [];
    let usage: OpenAI.CompletionUsage | undefined | null;
    for await (const chunk of stream) {
      expect(chunk.object).toBe('chat.completion.chunk');
      pieces.push(chunk.choices[0]?.delta.content ?? '');
      if (chunk.usage) usage = chunk.usage;
    }
    expect(pieces.join('')).toBe('You said: one two three');
    expect(usage?.completion_tokens).toBeGreaterThan(0);
    expect(h.openai.lastRequest()!.body.stream).toBe(true);
  });

  it('ends a stream that fails midway with the error chunk and then [DONE]; the SDK raises the error', async () => {
    const key = await h.issueKey({ name: 'raw-stream', scopes: ['chat'] });
    const post = async (model: string) => {
      const response = await fetch(`${h.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: 'a b c d e f' }] }),
      });
      return { status: response.status, frames: (await response.text()).split('\n\n').filter((frame) => frame !== '') };
    };

    // Native path: the OpenAI upstream drops the connection after three chunks.
    h.openai.setNext({ dropAfterFrames: 3 });
    const native = await post('gpt-4o-mini');
    expect(native.status).toBe(200);
    expect(native.frames).toHaveLength(5);
    expect(native.frames.at(-1)).toBe('data: [DONE]');
    expect(JSON.parse(native.frames.at(-2)!.slice('data: '.length))).toMatchObject({
      error: { type: 'upstream_error', code: 502 },
    });

    // Translated path: Anthropic sends an error event midway.
    h.anthropic.setNext({
      streamErrorAfterFrames: 4,
      error: { type: 'overloaded_error', message: 'overloaded midway' },
    });
    const translated = await post('claude-opus-4-7');
    expect(translated.frames.at(-1)).toBe('data: [DONE]');
    expect(JSON.parse(translated.frames.at(-2)!.slice('data: '.length)).error.message).toContain('overloaded midway');
    expect(translated.frames.filter((frame) => frame === 'data: [DONE]')).toHaveLength(1);

    // The SDK throws on the error chunk (it never reads the [DONE] behind it), after the words that made it.
    h.openai.setNext({ dropAfterFrames: 3 });
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      stream: true,
      messages: [{ role: 'user', content: 'a b c d e f' }],
    });
    const pieces: string[] = [];
    const failure = await (async () => {
      for await (const chunk of stream) pieces.push(chunk.choices[0]?.delta.content ?? '');
    })().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect((failure as APIError).type).toBe('upstream_error');
    expect(pieces.join('')).toBe('You said:');
    expect(h.openai.requests).toHaveLength(2);
  });

  it('counts a stream that failed after its 200 as an error in the usage aggregates; its row keeps status 200', async () => {
    const key = await h.issueKey({ name: 'broken-streams', scopes: ['chat'] });
    const drain = async (stream: AsyncIterable<unknown>) => {
      for await (const _ of stream) void _;
    };
    await h
      .openaiClient(key.key)
      .chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'fine' }] });
    h.openai.setNext({ dropAfterFrames: 3 });
    await expect(
      drain(
        await h.openaiClient(key.key).chat.completions.create({
          model: 'gpt-4o-mini',
          stream: true,
          messages: [{ role: 'user', content: 'a b c d' }],
        }),
      ),
    ).rejects.toThrow();
    h.anthropic.setNext({
      streamErrorAfterFrames: 4,
      error: { type: 'overloaded_error', message: 'overloaded midway' },
    });
    await expect(
      h
        .anthropicClient(key.key)
        .messages.stream({ model: 'claude-opus-4-7', max_tokens: 16, messages: [{ role: 'user', content: 'a b c d' }] })
        .finalMessage(),
    ).rejects.toThrow(/overloaded midway/);

    const rows = await h.usageRows(`key_id=${key.id}`);
    expect(rows.map((row) => [row.endpoint, row.status, row.error_type, row.stream])).toEqual([
      ['messages', 200, 'upstream_error', true],
      ['chat', 200, 'upstream_error', true],
      ['chat', 200, null, false],
    ]);
    const usage = await h.admin('GET', `/internal/usage?group_by=key&bucket=day&key_id=${key.id}`);
    expect(usage.status).toBe(200);
    expect(usage.body.totals).toMatchObject({ requests: 3, errors: 2 });
    expect(usage.body.data).toEqual([expect.objectContaining({ group: key.id, requests: 3, errors: 2 })]);
  });

  it('sends temperature up to 2 as is to OpenAI, clamped to 1 for a Claude model', async () => {
    await client.chat.completions.create({
      model: 'gpt-4o-mini',
      temperature: 1.5,
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(h.openai.lastRequest()!.body.temperature).toBe(1.5);
    const completion = await client.chat.completions.create({
      model: 'claude-opus-4-7',
      temperature: 1.5,
      messages: [{ role: 'user', content: 'warm claude' }],
    });
    expect(completion.choices[0]!.message.content).toBe('You said: warm claude');
    expect(h.anthropic.lastRequest()!.body.temperature).toBe(1);
  });

  it('sends tools and returns tool calls, streaming and not', async () => {
    const tools: OpenAI.ChatCompletionTool[] = [
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Weather',
          parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        },
      },
    ];
    h.openai.setNext({ reply: { toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }] } });
    const completion = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      tools,
      tool_choice: 'auto',
      messages: [{ role: 'user', content: 'weather in Paris?' }],
    });
    const call = completion.choices[0]!.message.tool_calls![0]!;
    expect(call.type === 'function' && call.function.name).toBe('get_weather');
    expect(call.type === 'function' && JSON.parse(call.function.arguments)).toEqual({ city: 'Paris' });
    expect(completion.choices[0]!.finish_reason).toBe('tool_calls');
    expect(h.openai.lastRequest()!.body.tools).toEqual(tools);
    expect(h.openai.lastRequest()!.body.tool_choice).toBe('auto');

    h.openai.setNext({ reply: { toolCalls: [{ id: 'call_2', name: 'get_weather', arguments: { city: 'Oslo' } }] } });
    const stream = client.chat.completions.stream({
      model: 'gpt-4o-mini',
      tools,
      messages: [{ role: 'user', content: 'weather in Oslo?' }],
    });
    const final = await stream.finalChatCompletion();
    const streamed = final.choices[0]!.message.tool_calls![0]!;
    expect(streamed.type === 'function' && JSON.parse(streamed.function.arguments)).toEqual({ city: 'Oslo' });
  });

  it('translates a chat request for a Claude model to the Messages API and back', async () => {
    const completion = await client.chat.completions.create({
      model: 'claude-opus-4-7',
      max_tokens: 50,
      messages: [
        { role: 'system', content: 'terse' },
        { role: 'user', content: 'hi claude' },
      ],
    });
    expect(completion.choices[0]!.message.content).toBe('You said: hi claude');
    const sent = h.anthropic.lastRequest()!;
    expect(sent.path).toBe('/v1/messages');
    expect(sent.body.system).toBeDefined();
    expect(sent.body.model).toBe('claude-opus-4-7');
    expect(h.openai.requests).toHaveLength(0);
  });

  it('rewrites aliases silently, then checks the allow-list, then caps max_tokens (the document order)', async () => {
    const completion = await client.chat.completions.create({
      model: 'fast',
      max_tokens: 5000,
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(completion.model).toBe('gpt-4o-mini');
    expect(h.openai.lastRequest()!.body.model).toBe('gpt-4o-mini');
    expect(h.openai.lastRequest()!.body.max_tokens).toBe(100);

    await client.chat.completions.create({
      model: 'gpt-4o-mini',
      max_tokens: 7,
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(h.openai.lastRequest()!.body.max_tokens).toBe(7);

    // Both limit fields are capped (an upstream honours either); neither present sets the cap.
    await client.chat.completions.create({
      model: 'gpt-4o-mini',
      max_completion_tokens: 500,
      max_tokens: 400,
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(h.openai.lastRequest()!.body).toMatchObject({ max_tokens: 100, max_completion_tokens: 100 });
    await client.chat.completions.create({
      model: 'gpt-4o-mini',
      max_completion_tokens: 50,
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(h.openai.lastRequest()!.body.max_completion_tokens).toBe(50);
    expect(h.openai.lastRequest()!.body).not.toHaveProperty('max_tokens');
    await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] });
    expect(h.openai.lastRequest()!.body.max_tokens).toBe(100);

    // An alias whose target is not allowed fails the allow-list after the rewrite.
    const error = await client.chat.completions
      .create({ model: 'ghost', messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as APIError).type).toBe('model_not_allowed');
    expect((error as APIError).message).toContain('gpt-unlisted');
  });

  it('lists canonical models only, with owned_by the provider', async () => {
    const models = [];
    for await (const model of client.models.list()) models.push(model);
    expect(models.map((m) => m.id)).toEqual([
      'demo/echo',
      'demo/embed',
      'gpt-4o-mini',
      'claude-opus-4-7',
      'text-embedding-3-small',
      'ha-model',
    ]);
    expect(models.find((m) => m.id === 'claude-opus-4-7')!.owned_by).toBe('anthropic');
    expect(models.find((m) => m.id === 'gpt-4o-mini')!.owned_by).toBe('openai');
    expect(models.find((m) => m.id === 'demo/echo')!.owned_by).toBe('demo');
    expect(models.some((m) => m.id === 'fast')).toBe(false);
    expect((await client.models.retrieve('demo/echo')).id).toBe('demo/echo');
  });

  it('surfaces every error type as the SDK typed error, with x-request-id', async () => {
    const call = (c: OpenAI, model = 'gpt-4o-mini', extra: object = {}) =>
      c.chat.completions.create({ model, messages: [{ role: 'user', content: 'x' }], ...extra }).then(
        () => undefined,
        (e: unknown) => e as APIError,
      );

    const unauthenticated = await call(h.openaiClient('gk-not-a-real-key'));
    expect(unauthenticated).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(unauthenticated!.type).toBe('authentication_error');
    expect(unauthenticated!.headers?.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    // Bearer is the credential here; x-api-key (the Messages header) is not read, beside a Bearer or alone.
    const apiKeyHeader = (bearer: string | null) =>
      new OpenAI({
        baseURL: `${h.url}/v1`,
        apiKey: bearer ?? 'unused',
        maxRetries: 0,
        defaultHeaders: { 'x-api-key': client.apiKey, ...(bearer === null ? { authorization: null } : {}) },
      });
    expect(await call(apiKeyHeader('gk-not-a-real-key'))).toBeInstanceOf(OpenAI.AuthenticationError);
    const headerOnly = await call(apiKeyHeader(null));
    expect(headerOnly).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(headerOnly!.message).toContain('x-api-key is read only on /v1/messages');

    const notAllowed = await call(client, 'gpt-9');
    expect(notAllowed).toBeInstanceOf(OpenAI.BadRequestError);
    expect(notAllowed!.type).toBe('model_not_allowed');

    const invalid = await call(client, 'gpt-4o-mini', { temperature: 3.5 });
    expect(invalid).toBeInstanceOf(OpenAI.BadRequestError);
    expect(invalid!.type).toBe('invalid_request_error');
    expect(invalid!.message).toContain('temperature must be between 0 and 2, got 3.5');

    h.openai.setNext({ status: 400, error: { message: 'bad param upstream' } });
    const upstream = await call(client);
    expect(upstream).toBeInstanceOf(OpenAI.InternalServerError);
    expect(upstream!.status).toBe(502);
    expect(upstream!.type).toBe('upstream_error');
    expect(upstream!.message).toContain('bad param upstream');
    expect(upstream!.headers?.get('x-upstream-status')).toBe('400');

    const embeddingsOnly = await h.issueKey({ scopes: ['embeddings'] });
    const forbidden = await call(h.openaiClient(embeddingsOnly.key));
    expect(forbidden).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect(forbidden!.type).toBe('permission_error');
  });

  it("shows a request's cost to the billionth of a dollar, not as floating-point noise", async () => {
    // 23 prompt tokens at $0.15 per million: 3.4499999999999996e-6 computed, $0.00000345 shown.
    h.openai.setNext({ reply: { text: '', usage: { prompt_tokens: 23, completion_tokens: 0 } } });
    const { response } = await client.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'cost me' }] })
      .withResponse();
    const [row] = await h.usageRows(`request_id=${response.headers.get('x-request-id')}`);
    expect(row.cost_usd).toBe(0.00000345);
    const traffic = await h.admin('GET', `/internal/traffic?limit=5`);
    const event = (traffic.body.data as Array<{ request_id: string; cost_usd: number }>).find(
      (candidate) => candidate.request_id === response.headers.get('x-request-id'),
    );
    expect(event?.cost_usd).toBe(0.00000345);
  });

  it('accounts every request (usage row with key, user, team, tokens, cost) and counts metrics', async () => {
    const completion = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'count me' }],
    });
    const rows = await h.usageRows(`key_id=${keyId}&limit=50`);
    const row = rows.find((r) => r.status === 200 && r.model === 'gpt-4o-mini' && !r.stream)!;
    expect(row).toMatchObject({
      key_id: keyId,
      user: 'ada',
      team: 'core',
      endpoint: 'chat',
      provider: 'openai',
      deployment: 'gpt-4o-mini',
      cached: false,
    });
    const latest = rows[0]!;
    expect(latest.prompt_tokens).toBe(completion.usage!.prompt_tokens);
    expect(latest.completion_tokens).toBe(completion.usage!.completion_tokens);
    expect(latest.cost_usd).toBeCloseTo(
      (completion.usage!.prompt_tokens * 0.15 + completion.usage!.completion_tokens * 0.6) / 1e6,
      12,
    );
    expect(rows.some((r) => r.stream === true && r.status === 200)).toBe(true);
    expect(rows.some((r) => r.status === 400 && r.error_type === 'model_not_allowed')).toBe(true);
    expect(rows.some((r) => r.status === 502 && r.error_type === 'upstream_error')).toBe(true);

    const metrics = await (await fetch(`${h.url}/metrics`)).text();
    expect(metrics).toMatch(/gateway_requests_total\{model="gpt-4o-mini",status="200"\} \d+/);
    expect(metrics).toMatch(/gateway_requests_total\{model="gpt-4o-mini",status="502"\} 1/);
    // Refused credentials have a series of their own, apart from unknown model names.
    expect(metrics).toMatch(/gateway_requests_total\{model="unauthenticated",status="401"\} [1-9]\d*/);
    expect(metrics).not.toMatch(/gateway_requests_total\{model="unknown",status="401"\}/);
    expect(metrics).toMatch(/gateway_request_duration_seconds_count\{model="gpt-4o-mini"\} \d+/);
    expect(metrics).toMatch(/gateway_tokens_total\{model="gpt-4o-mini",type="prompt"\} \d+/);
    expect(metrics).toMatch(/gateway_tokens_total\{model="gpt-4o-mini",type="completion"\} \d+/);
    for (const name of [
      'gateway_rate_limit_hits_total',
      'gateway_cache_hits_total',
      'gateway_pii_entities_total',
      'gateway_content_policy_blocks_total',
    ]) {
      expect(metrics).toContain(`# TYPE ${name} counter`);
    }
    expect(metrics).toContain('gateway_rate_limit_hits_total{limit_type="requests"} 0');
  });
});
