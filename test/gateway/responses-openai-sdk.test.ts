import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/** `POST /v1/responses` through the official `openai` SDK, served over each provider's chat API. */
describe('Responses endpoint', () => {
  let h: GatewayHarness;
  let client: OpenAI;

  beforeAll(async () => {
    h = await startGatewayHarness();
    client = h.openaiClient((await h.issueKey({ scopes: ['responses'] })).key);
  });
  beforeEach(() => {
    h.openai.reset();
    h.anthropic.reset();
  });
  afterAll(async () => h.close());

  it('answers the demo model with a Response object and its usage', async () => {
    const response = await client.responses.create({ model: 'demo/echo', input: 'hello responses' });
    expect(response.object).toBe('response');
    expect(response.status).toBe('completed');
    expect(response.model).toBe('demo/echo');
    expect(response.output_text).toBe('hello responses');
    expect(response.usage).toMatchObject({ output_tokens: 2 });
  });

  it('streams the typed events OpenAI sends, and the SDK assembles the final Response', async () => {
    const stream = client.responses.stream({ model: 'demo/echo', input: 'one two three' });
    const types: string[] = [];
    const deltas: string[] = [];
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.output_text.delta') deltas.push(event.delta);
    }
    const final = await stream.finalResponse();
    expect(final.output_text).toBe('one two three');
    expect(deltas.join('')).toBe('one two three');
    expect(types[0]).toBe('response.created');
    expect(types).toEqual(
      expect.arrayContaining([
        'response.in_progress',
        'response.output_item.added',
        'response.content_part.added',
        'response.output_text.done',
        'response.content_part.done',
        'response.output_item.done',
      ]),
    );
    expect(types.at(-1)).toBe('response.completed');
  });

  it('serves an OpenAI model over chat completions: instructions, input items and caps reach the upstream', async () => {
    const response = await client.responses.create({
      model: 'gpt-4o-mini',
      instructions: 'Be brief.',
      input: [{ role: 'user', content: [{ type: 'input_text', text: 'Hello there' }] }],
      max_output_tokens: 5000,
    });
    expect(response.output_text).toBe('You said: Hello there');
    const received = h.openai.lastRequest()!;
    expect(received.path).toBe('/v1/chat/completions');
    expect(received.body).toMatchObject({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hello there' },
      ],
      // per_model_max_tokens caps gpt-4o-mini at 100.
      max_tokens: 100,
    });
  });

  it('function tools and their calls round-trip, and a function call output continues the conversation', async () => {
    h.openai.setNext({ reply: { toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Oslo' } }] } });
    const tools = [
      {
        type: 'function' as const,
        name: 'get_weather',
        description: 'Weather for a city',
        parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        strict: false,
      },
    ];
    const first = await client.responses.create({ model: 'gpt-4o-mini', input: 'Weather in Oslo?', tools });
    const call = first.output.find((item) => item.type === 'function_call');
    expect(call).toMatchObject({ type: 'function_call', call_id: 'call_1', name: 'get_weather' });
    expect(JSON.parse((call as { arguments: string }).arguments)).toEqual({ city: 'Oslo' });
    expect(h.openai.lastRequest()!.body.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Weather for a city',
          parameters: tools[0]!.parameters,
          strict: false,
        },
      },
    ]);

    await client.responses.create({
      model: 'gpt-4o-mini',
      tools,
      input: [
        { role: 'user', content: 'Weather in Oslo?' },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'sunny' },
      ],
    });
    const messages = h.openai.lastRequest()!.body.messages;
    expect(messages.at(-2)).toMatchObject({ role: 'assistant', tool_calls: [{ id: 'call_1' }] });
    expect(messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_1', content: 'sunny' });
  });

  it('structured outputs: text.format json_schema becomes the upstream response_format', async () => {
    h.openai.setNext({ reply: { text: '{"answer":42}' } });
    const schema = { type: 'object', properties: { answer: { type: 'number' } }, required: ['answer'] };
    const response = await client.responses.create({
      model: 'gpt-4o-mini',
      input: 'The answer?',
      text: { format: { type: 'json_schema', name: 'answer', schema, strict: true } },
    });
    expect(JSON.parse(response.output_text)).toEqual({ answer: 42 });
    expect(h.openai.lastRequest()!.body.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'answer', schema },
    });
  });

  it('serves a Claude model over Messages, streamed', async () => {
    const stream = client.responses.stream({ model: 'claude-opus-4-7', input: 'Hi Claude' });
    const final = await stream.finalResponse();
    expect(final.output_text).toBe('You said: Hi Claude');
    expect(final.model).toBe('claude-opus-4-7');
    expect(h.anthropic.lastRequest()!.path).toBe('/v1/messages');
  });

  it('needs the responses scope, refuses hosted tools before any upstream call, and accounts each request', async () => {
    const chatOnly = h.openaiClient((await h.issueKey({ scopes: ['chat'] })).key);
    const denied = await chatOnly.responses.create({ model: 'demo/echo', input: 'x' }).catch((e: unknown) => e);
    expect(denied).toBeInstanceOf(OpenAI.PermissionDeniedError);

    const hosted = await client.responses
      .create({ model: 'gpt-4o-mini', input: 'search', tools: [{ type: 'web_search_preview' }] })
      .catch((e: unknown) => e);
    expect(hosted).toBeInstanceOf(OpenAI.BadRequestError);
    expect((hosted as Error).message).toContain('web_search_preview');
    expect(h.openai.requests).toHaveLength(0);

    const ok = await client.responses.create({ model: 'demo/echo', input: 'counted' }).withResponse();
    expect(ok.response.headers.get('x-gateway-deployment')).toBe('demo/echo');
    const rows = await h.usageRows(`request_id=${ok.response.headers.get('x-request-id')}`);
    expect(rows[0]).toMatchObject({ endpoint: 'responses', status: 200, model: 'demo/echo', completion_tokens: 1 });
  });

  it('a stream that fails after it started ends with an error event the SDK raises', async () => {
    h.openai.setNext({ streamErrorAfterFrames: 2 });
    const stream = client.responses.stream({ model: 'gpt-4o-mini', input: 'a longer answer that breaks' });
    const failure = await (async () => {
      for await (const _event of stream) {
        // drain
      }
    })().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(Error);
  });

  it('previous_response_id needs a kept response: an unknown one is 400 before any upstream call', async () => {
    const chained = await client.responses
      .create({ model: 'gpt-4o-mini', input: 'again', previous_response_id: 'resp_123' })
      .catch((e: unknown) => e);
    expect(chained).toBeInstanceOf(OpenAI.BadRequestError);
    expect((chained as Error).message).toContain('resp_123');
    expect(h.openai.requests).toHaveLength(0);
  });
});
