import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { executeChat, TranslationError } from '../../../src/server/gateway/providers/index.js';
import {
  startAnthropicUpstream,
  startFrameServer,
  startOpenAIUpstream,
  type AnthropicUpstream,
  type FrameServer,
  type OpenAIUpstream,
} from '../../support/upstreams/index.js';
import { asJson, asStream, deployment, frames, NEVER, POOLS } from './helpers.js';

let openai: OpenAIUpstream;
let anthropic: AnthropicUpstream;
let sdkServer: FrameServer;
beforeAll(async () => {
  [openai, anthropic, sdkServer] = await Promise.all([
    startOpenAIUpstream(),
    startAnthropicUpstream(),
    startFrameServer(),
  ]);
});
beforeEach(() => {
  openai.reset();
  anthropic.reset();
});
afterAll(async () => {
  await Promise.all([openai.close(), anthropic.close(), sdkServer.close()]);
  await POOLS.close();
});

const weather = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

describe('chat completions client -> Anthropic upstream', () => {
  const run = (body: object) =>
    executeChat({
      pools: POOLS,
      format: 'chat',
      body: { model: 'public-anthropic', ...body } as never,
      deployment: deployment('anthropic', anthropic.url),
      signal: NEVER,
      requestId: 'r',
    });

  it('translates the request and the tool-calling answer', async () => {
    anthropic.setNext({
      reply: {
        text: 'Checking.',
        toolUses: [{ id: 'toolu_9', name: 'weather', input: { city: 'Paris' } }],
        usage: { input_tokens: 40, output_tokens: 12 },
      },
    });
    const result = asJson(
      await run({
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Weather in Paris?' },
        ],
        tools: [{ type: 'function', function: { name: 'weather', description: 'Weather', parameters: weather } }],
        tool_choice: 'auto',
        temperature: 0.3,
      }),
    );
    expect(anthropic.lastRequest()!.body).toEqual({
      model: 'claude-upstream',
      max_tokens: 4096,
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      temperature: 0.3,
      tools: [{ name: 'weather', description: 'Weather', input_schema: weather }],
      tool_choice: { type: 'auto' },
    });
    expect(anthropic.lastRequest()!.headers['anthropic-version']).toBe('2023-06-01');
    expect(result.body).toMatchObject({
      object: 'chat.completion',
      model: 'public-anthropic',
      choices: [
        {
          message: {
            role: 'assistant',
            content: 'Checking.',
            tool_calls: [
              { id: 'toolu_9', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
            ],
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 40, completion_tokens: 12, total_tokens: 52 },
    });
    expect(result.usage).toEqual({ promptTokens: 40, completionTokens: 12, cachedPromptTokens: 0 });
  });

  it('streams chat chunks the openai SDK accumulates, with usage from Anthropic', async () => {
    anthropic.setNext({ reply: { text: 'Sunny in Paris', usage: { input_tokens: 30, output_tokens: 4 } } });
    const result = asStream(
      await run({
        messages: [{ role: 'user', content: 'Weather?' }],
        stream: true,
        stream_options: { include_usage: true },
      }),
    );
    expect(anthropic.lastRequest()!.body.stream).toBe(true);
    sdkServer.serveFrames(result.events);
    const client = new OpenAI({ baseURL: sdkServer.url, apiKey: 'k', maxRetries: 0 });
    const completion = await client.chat.completions
      .stream({
        model: 'public-anthropic',
        messages: [{ role: 'user', content: 'Weather?' }],
        stream_options: { include_usage: true },
      })
      .finalChatCompletion();
    expect(completion.choices[0].message.content).toBe('Sunny in Paris');
    expect(completion.choices[0].finish_reason).toBe('stop');
    expect(completion.usage).toMatchObject({ prompt_tokens: 30, completion_tokens: 4 });
    expect(result.usage()).toEqual({ promptTokens: 30, completionTokens: 4, cachedPromptTokens: 0 });
  });
});

describe('chat completions client -> Anthropic upstream: what chat has and Messages lacks', () => {
  const run = (body: object) =>
    executeChat({
      pools: POOLS,
      format: 'chat',
      body: { model: 'public-anthropic', ...body } as never,
      deployment: deployment('anthropic', anthropic.url),
      signal: NEVER,
      requestId: 'r',
    });
  const person = {
    type: 'object',
    properties: { name: { type: 'string' }, born: { type: 'integer' } },
    required: ['name', 'born'],
  };
  const responseFormat = { type: 'json_schema', json_schema: { name: 'person', schema: person } };

  it('asks for a JSON answer through the forced answer tool and returns its input as the content', async () => {
    anthropic.setNext({
      reply: {
        toolUses: [{ name: 'json_tool_call', input: { name: 'Ada', born: 1815 } }],
        usage: { input_tokens: 20, output_tokens: 9 },
      },
    });
    const result = asJson(
      await run({
        messages: [{ role: 'user', content: 'Who wrote the first program?' }],
        response_format: responseFormat,
      }),
    );
    expect(anthropic.lastRequest()!.body).toMatchObject({
      tools: [{ name: 'json_tool_call', input_schema: person }],
      tool_choice: { type: 'tool', name: 'json_tool_call', disable_parallel_tool_use: true },
    });
    expect(result.body).toMatchObject({
      choices: [{ message: { content: '{"name":"Ada","born":1815}' }, finish_reason: 'stop' }],
    });
    expect((result.body as { choices: Array<{ message: object }> }).choices[0].message).not.toHaveProperty(
      'tool_calls',
    );
  });

  it('streams the JSON answer as content the openai SDK parses against the schema', async () => {
    anthropic.setNext({ reply: { toolUses: [{ name: 'json_tool_call', input: { name: 'Ada', born: 1815 } }] } });
    const body = {
      messages: [{ role: 'user' as const, content: 'Who?' }],
      response_format: responseFormat as never,
      stream: true as const,
    };
    sdkServer.serveFrames(asStream(await run(body)).events);
    const client = new OpenAI({ baseURL: sdkServer.url, apiKey: 'k', maxRetries: 0 });
    const completion = await client.chat.completions
      .stream({ model: 'public-anthropic', ...body })
      .finalChatCompletion();
    expect(JSON.parse(completion.choices[0].message.content!)).toEqual({ name: 'Ada', born: 1815 });
    expect(completion.choices[0].message.tool_calls ?? []).toEqual([]);
    expect(completion.choices[0].finish_reason).toBe('stop');
  });

  it('sends a tool-call history without tools with the placeholder tool, which Anthropic then accepts', async () => {
    const messages = [
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }],
      },
      { role: 'tool', tool_call_id: 'toolu_1', content: 'sunny' },
      { role: 'user', content: 'Summarise.' },
    ];
    const result = asJson(await run({ messages }));
    expect(anthropic.lastRequest()!.body).toMatchObject({
      tools: [{ name: 'dummy_tool' }],
      tool_choice: { type: 'none' },
    });
    expect(result.body).toMatchObject({
      choices: [{ message: { content: 'You said: Summarise.' }, finish_reason: 'stop' }],
    });
  });

  it('refuses n > 1 and logprobs before calling Anthropic', async () => {
    await expect(run({ messages: [{ role: 'user', content: 'x' }], n: 2 })).rejects.toThrow(TranslationError);
    await expect(run({ messages: [{ role: 'user', content: 'x' }], logprobs: true })).rejects.toThrow(/^logprobs: /);
    expect(anthropic.requests).toHaveLength(0);
  });
});

describe('Messages client -> OpenAI upstream', () => {
  const run = (body: object, overrides = {}) =>
    executeChat({
      pools: POOLS,
      format: 'messages',
      body: { model: 'public-openai', max_tokens: 64, ...body } as never,
      deployment: deployment('openai', openai.url, overrides),
      signal: NEVER,
      requestId: 'r',
    });

  it('translates the request and the answer', async () => {
    openai.setNext({
      reply: {
        toolCalls: [{ id: 'call_7', name: 'weather', arguments: { city: 'Rome' } }],
        usage: { prompt_tokens: 50, completion_tokens: 8 },
      },
    });
    const result = asJson(
      await run({
        system: 'Be brief.',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Weather in Rome?' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
            ],
          },
        ],
        tools: [{ name: 'weather', input_schema: weather }],
        tool_choice: { type: 'any' },
      }),
    );
    expect(openai.lastRequest()!.body).toEqual({
      model: 'gpt-upstream',
      messages: [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Weather in Rome?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
          ],
        },
      ],
      max_tokens: 64,
      tools: [{ type: 'function', function: { name: 'weather', parameters: weather } }],
      tool_choice: 'required',
    });
    expect(result.body).toEqual({
      id: 'msg_mock123',
      type: 'message',
      role: 'assistant',
      model: 'public-openai',
      content: [{ type: 'tool_use', id: 'call_7', name: 'weather', input: { city: 'Rome' } }],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 50, output_tokens: 8, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    });
  });

  it('leaves out a blank text beside tool calls, which the client would send back to Anthropic', async () => {
    openai.setNext({
      reply: { text: '\n\n', toolCalls: [{ id: 'call_8', name: 'weather', arguments: { city: 'Oslo' } }] },
    });
    const withCall = asJson(await run({ messages: [{ role: 'user', content: 'Weather in Oslo?' }] }));
    expect((withCall.body as { content: unknown }).content).toEqual([
      { type: 'tool_use', id: 'call_8', name: 'weather', input: { city: 'Oslo' } },
    ]);
    // Without a call, the text is the answer, as the model wrote it.
    openai.setNext({ reply: { text: '\n\n' } });
    const alone = asJson(await run({ messages: [{ role: 'user', content: 'Say nothing.' }] }));
    expect((alone.body as { content: unknown }).content).toEqual([{ type: 'text', text: '\n\n' }]);
  });

  it('streams Messages events the Anthropic SDK accumulates, asking OpenAI for usage', async () => {
    openai.setNext({
      reply: {
        text: 'Rainy in Rome',
        toolCalls: [{ id: 'call_1', name: 'weather', arguments: { city: 'Rome' } }],
        usage: { prompt_tokens: 33, completion_tokens: 11 },
      },
    });
    const result = asStream(await run({ messages: [{ role: 'user', content: 'Weather?' }], stream: true }));
    expect(openai.lastRequest()!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    sdkServer.serveFrames(result.events);
    const client = new Anthropic({ baseURL: sdkServer.url, apiKey: 'k', maxRetries: 0 });
    const message = await client.messages
      .stream({ model: 'public-openai', max_tokens: 64, messages: [{ role: 'user', content: 'Weather?' }] })
      .finalMessage();
    expect(message.content).toEqual([
      { type: 'text', text: 'Rainy in Rome' },
      { type: 'tool_use', id: 'call_1', name: 'weather', input: { city: 'Rome' } },
    ]);
    expect(message.stop_reason).toBe('tool_use');
    expect(message.usage).toMatchObject({ input_tokens: 33, output_tokens: 11 });
    expect(result.usage()).toEqual({ promptTokens: 33, completionTokens: 11 });
  });

  it('sends max_completion_tokens to reasoning models', async () => {
    await run({ messages: [{ role: 'user', content: 'x' }] }, { upstreamModel: 'o3-mini' });
    expect(openai.lastRequest()!.body).toMatchObject({ model: 'o3-mini', max_completion_tokens: 64 });
    expect(openai.lastRequest()!.body.max_tokens).toBeUndefined();
  });

  it('sends top_k only to servers that take it (OpenAI answers 400 to it)', async () => {
    const vllm = await startOpenAIUpstream({ acceptTopK: true });
    try {
      await run(
        { messages: [{ role: 'user', content: 'x' }], top_k: 5 },
        { provider: 'vllm', id: 'vllm-1', baseUrl: vllm.url },
      );
      expect(vllm.lastRequest()!.body.top_k).toBe(5);
    } finally {
      await vllm.close();
    }
    await run({ messages: [{ role: 'user', content: 'x' }], top_k: 5 }, { provider: 'groq', id: 'groq-1' });
    expect(openai.lastRequest()!.body).not.toHaveProperty('top_k');
  });

  it('translates structured outputs to response_format', async () => {
    const schema = { type: 'object', properties: { ok: { type: 'boolean' } } };
    openai.setNext({ reply: { text: '{"ok":true}' } });
    const result = asJson(
      await run({
        messages: [{ role: 'user', content: 'x' }],
        output_config: { format: { type: 'json_schema', schema } },
      }),
    );
    expect(openai.lastRequest()!.body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'response', schema },
    });
    expect(result.body).toMatchObject({ content: [{ type: 'text', text: '{"ok":true}' }], stop_reason: 'end_turn' });
  });

  it('rejects what cannot be translated before calling the upstream', async () => {
    await expect(
      run({
        messages: [
          {
            role: 'user',
            content: [{ type: 'document', source: { type: 'url', url: 'https://example.test/a.pdf' } }],
          },
        ],
      }),
    ).rejects.toThrow(/a document by URL is only available on Anthropic models/);
    expect(openai.requests).toHaveLength(0);
  });

  it('gives the full stream to clients reading it frame by frame', async () => {
    const all = await frames(await run({ messages: [{ role: 'user', content: 'Hi' }], stream: true }));
    expect(all[0]).toMatch(/^event: message_start\n/);
    expect(all.at(-1)).toBe('event: message_stop\ndata: {"type":"message_stop"}\n\n');
  });
});
