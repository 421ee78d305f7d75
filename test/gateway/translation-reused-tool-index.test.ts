import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayAdmin, startTempServers, type TempServers } from '../support/temp-servers.js';
import { startFrameServer, type FrameServer } from '../support/upstreams/index.js';

const KEY = 'sk-reused-index-0123456789';

const chunk = (delta: Record<string, unknown>, finish: string | null = null): string =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'local-model', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

const call = (entry: Record<string, unknown>, name: string, args: string) =>
  chunk({ tool_calls: [{ ...entry, type: 'function', function: { name, arguments: args } }] });

/** Two parallel calls as Ollama streams them: each whole, each at index 0, each with its own id. */
const OLLAMA_FRAMES = [
  call({ index: 0, id: 'call_paris' }, 'get_weather', '{"city":"Paris"}'),
  call({ index: 0, id: 'call_rome' }, 'get_weather', '{"city":"Rome"}'),
  chunk({}, 'tool_calls'),
  'data: [DONE]\n\n',
];

/**
 * Servers that number nothing: a third call with neither index nor id, after a call at index 0 split
 * over entries of which only the first has the id.
 */
const UNNUMBERED_FRAMES = [
  call({ index: 0, id: 'call_paris' }, 'get_weather', '{"city":'),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }),
  call({ index: 0, id: 'call_utc' }, 'get_time', '{"tz":"UTC"}'),
  call({}, 'get_time', '{"tz":"CET"}'),
  chunk({}, 'stop'),
  'data: [DONE]\n\n',
];

/**
 * Some OpenAI-compatible servers (Ollama, some vLLM builds) stream each parallel tool call at
 * `index: 0` with a new id. Read by index alone, the second call merged into the first: a Messages
 * client lost it, a Responses client got two JSON objects run together as one call's arguments.
 */
describe('parallel tool calls a chat upstream streams at a reused index', () => {
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
    key = (await gatewayAdmin(() => servers)('POST', '/internal/api-keys', { scopes: ['*'] })).body.key;
  });
  afterAll(async () => {
    await servers.stop();
    await upstream.close();
  });
  const claude = () => new Anthropic({ baseURL: servers.gatewayUrl, apiKey: key, maxRetries: 0 });
  const openai = () => new OpenAI({ baseURL: `${servers.gatewayUrl}/v1`, apiKey: key, maxRetries: 0 });
  const messagesTools = [
    { name: 'get_weather', input_schema: { type: 'object' as const, properties: { city: { type: 'string' } } } },
    { name: 'get_time', input_schema: { type: 'object' as const, properties: { tz: { type: 'string' } } } },
  ];
  const askClaude = () =>
    claude()
      .messages.stream({
        model: 'local-model',
        max_tokens: 100,
        tools: messagesTools,
        messages: [{ role: 'user', content: 'weather in Paris and Rome' }],
      })
      .finalMessage();

  it('reach a Messages client as two tool_use blocks', async () => {
    upstream.serveFrames(OLLAMA_FRAMES);
    const message = await askClaude();
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content).toEqual([
      { type: 'tool_use', id: 'call_paris', name: 'get_weather', input: { city: 'Paris' } },
      { type: 'tool_use', id: 'call_rome', name: 'get_weather', input: { city: 'Rome' } },
    ]);
  });

  it('reach a Responses client as two function_call items with valid JSON arguments', async () => {
    upstream.serveFrames(OLLAMA_FRAMES);
    const response = await openai()
      .responses.stream({
        model: 'local-model',
        input: 'weather in Paris and Rome',
        tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object' }, strict: false }],
      })
      .finalResponse();
    const calls = response.output.filter((item) => item.type === 'function_call');
    expect(calls.map((item) => [item.call_id, item.name, JSON.parse(item.arguments)])).toEqual([
      ['call_paris', 'get_weather', { city: 'Paris' }],
      ['call_rome', 'get_weather', { city: 'Rome' }],
    ]);
  });

  it('keep a call split over entries whole, and take an unnumbered named entry after complete arguments for a new call', async () => {
    upstream.serveFrames(UNNUMBERED_FRAMES);
    const message = await askClaude();
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content.map((block) => (block.type === 'tool_use' ? [block.name, block.input] : block))).toEqual([
      ['get_weather', { city: 'Paris' }],
      ['get_time', { tz: 'UTC' }],
      ['get_time', { tz: 'CET' }],
    ]);
    const ids = message.content.map((block) => (block.type === 'tool_use' ? block.id : ''));
    expect(ids.slice(0, 2)).toEqual(['call_paris', 'call_utc']);
    expect(new Set(ids).size).toBe(3);
  });

  it('continue the last call with an entry that has neither index nor id nor name', async () => {
    upstream.serveFrames([
      call({ index: 0, id: 'call_paris' }, 'get_weather', '{"city":'),
      chunk({ tool_calls: [{ function: { arguments: '"Paris"}' } }] }),
      chunk({}, 'tool_calls'),
      'data: [DONE]\n\n',
    ]);
    const message = await askClaude();
    expect(message.content).toEqual([
      { type: 'tool_use', id: 'call_paris', name: 'get_weather', input: { city: 'Paris' } },
    ]);
  });
});
