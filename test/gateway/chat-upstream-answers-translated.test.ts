import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayAdmin, startTempServers, type TempServers } from '../support/temp-servers.js';
import { startFrameServer, type FrameServer } from '../support/upstreams/index.js';

const KEY = 'sk-missing-ids-0123456789';
const tools = [{ name: 'get_weather', input_schema: { type: 'object' as const, properties: {} } }];

/** A chat completion with tool calls as some local servers write them: no id, a null id, object arguments. */
function completion(calls: Array<Record<string, unknown>>): unknown {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model: 'local-model',
    choices: [
      { index: 0, message: { role: 'assistant', content: null, tool_calls: calls }, finish_reason: 'tool_calls' },
    ],
    usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 },
  };
}

const chunk = (delta: Record<string, unknown>, finish: string | null = null): string =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'local-model', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

/**
 * OpenAI-compatible servers (llama.cpp, some Ollama versions, small vLLM models) leave a tool call's
 * id out, or send null; a Messages or Responses client still needs one to send its result back, and
 * Anthropic refuses a history in which two calls share one. Some also write broken JSON arguments,
 * which a Messages client, parsing a tool_use block's JSON, must get as an object all the same.
 */
describe('answers of a chat completions upstream, as Messages and Responses clients get them', () => {
  let upstream: FrameServer;
  let servers: TempServers;
  let key: string;
  beforeAll(async () => {
    upstream = await startFrameServer();
    servers = await startTempServers({
      llm: { allowed_models: ['local-model'] },
      gateway: { max_retries: 0 },
      deployments: [{ model: 'local-model', provider: 'openai', base_url: `${upstream.url}/v1`, api_key: KEY }],
    });
    const created = await gatewayAdmin(() => servers)('POST', '/internal/api-keys', { scopes: ['*'] });
    key = created.body.key;
  });
  afterAll(async () => {
    await servers.stop();
    await upstream.close();
  });
  const claude = () => new Anthropic({ baseURL: servers.gatewayUrl, apiKey: key, maxRetries: 0 });
  const request = {
    model: 'local-model',
    max_tokens: 100,
    tools,
    messages: [{ role: 'user' as const, content: 'weather?' }],
  };

  it('gives each a distinct Anthropic id on a Messages answer, and reads object arguments', async () => {
    upstream.serveJson(
      completion([
        { type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        { id: null, type: 'function', function: { name: 'get_weather', arguments: { city: 'Oslo' } } },
      ]),
    );
    const message = await claude().messages.create(request);
    const uses = message.content.filter((block) => block.type === 'tool_use');
    expect(uses.map((use) => use.input)).toEqual([{ city: 'Paris' }, { city: 'Oslo' }]);
    for (const use of uses) expect(use.id).toMatch(/^[A-Za-z0-9_-]{8,}$/);
    expect(new Set(uses.map((use) => use.id)).size).toBe(2);
    // Two answers never share an id either: a counter would repeat across a conversation.
    upstream.serveJson(completion([{ type: 'function', function: { name: 'get_weather', arguments: '{}' } }]));
    const again = await claude().messages.create(request);
    expect(again.content[0]).toMatchObject({ type: 'tool_use' });
    expect(uses.map((use) => use.id)).not.toContain((again.content[0] as { id: string }).id);
  });

  it('does the same for a stream, and for a Responses client', async () => {
    upstream.serveFrames([
      chunk({ role: 'assistant', tool_calls: [{ index: 0, type: 'function', function: { name: 'get_weather' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":"Rome"}' } }] }),
      chunk({}, 'tool_calls'),
      'data: [DONE]\n\n',
    ]);
    const streamed = await claude().messages.stream(request).finalMessage();
    expect(streamed.content[0]).toMatchObject({ type: 'tool_use', name: 'get_weather', input: { city: 'Rome' } });
    expect((streamed.content[0] as { id: string }).id).toMatch(/^[A-Za-z0-9_-]{8,}$/);

    upstream.serveJson(completion([{ type: 'function', function: { name: 'get_weather', arguments: '{}' } }]));
    const openai = new OpenAI({ baseURL: `${servers.gatewayUrl}/v1`, apiKey: key, maxRetries: 0 });
    const response = await openai.responses.create({
      model: 'local-model',
      input: 'weather?',
      tools: [{ type: 'function', name: 'get_weather', parameters: {}, strict: false }],
    });
    const call = response.output.find((item) => item.type === 'function_call');
    expect(call).toMatchObject({ type: 'function_call', name: 'get_weather' });
    expect((call as { call_id: string }).call_id).toMatch(/^call_[0-9a-f]{24}$/);
  });

  it('sends broken streamed arguments to a Messages client as _raw_arguments, as a whole answer does', async () => {
    upstream.serveFrames([
      chunk({ role: 'assistant', content: 'Sure.' }),
      chunk({ tool_calls: [{ index: 0, id: 'call_x', type: 'function', function: { name: 'get_weather' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city": Paris}' } }] }),
      chunk({}, 'tool_calls'),
      'data: [DONE]\n\n',
    ]);
    const streamed = await claude().messages.stream(request).finalMessage();
    expect(streamed.content).toEqual([
      { type: 'text', text: 'Sure.' },
      { type: 'tool_use', id: 'call_x', name: 'get_weather', input: { _raw_arguments: '{"city": Paris}' } },
    ]);
    upstream.serveJson(
      completion([{ id: 'call_x', type: 'function', function: { name: 'get_weather', arguments: '{"city": Paris}' } }]),
    );
    const whole = await claude().messages.create(request);
    expect(whole.content[0]).toMatchObject({ input: { _raw_arguments: '{"city": Paris}' } });
  });

  it("ends a refusal with stop_reason refusal, whole and streamed, as Anthropic's own refusals end", async () => {
    upstream.serveJson({
      id: 'chatcmpl-2',
      object: 'chat.completion',
      created: 1,
      model: 'local-model',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: null, refusal: "I can't help with that." },
          finish_reason: 'stop',
        },
      ],
      usage: { prompt_tokens: 5, completion_tokens: 6, total_tokens: 11 },
    });
    const whole = await claude().messages.create(request);
    expect(whole.stop_reason).toBe('refusal');
    expect(whole.content).toEqual([{ type: 'text', text: "I can't help with that." }]);
    upstream.serveFrames([
      chunk({ role: 'assistant', refusal: "I can't" }),
      chunk({ refusal: ' help with that.' }),
      chunk({}, 'stop'),
      'data: [DONE]\n\n',
    ]);
    const streamed = await claude().messages.stream(request).finalMessage();
    expect(streamed.stop_reason).toBe('refusal');
    // A plain answer still ends its turn.
    upstream.serveFrames([chunk({ role: 'assistant', content: 'Sunny.' }), chunk({}, 'stop'), 'data: [DONE]\n\n']);
    expect((await claude().messages.stream(request).finalMessage()).stop_reason).toBe('end_turn');
  });
});
