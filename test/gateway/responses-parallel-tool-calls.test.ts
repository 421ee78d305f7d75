import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTempServers, TEST_MASTER_KEY, type TempServers } from '../support/temp-servers.js';
import { startFrameServer, type FrameServer } from '../support/upstreams/index.js';

const chunk = (delta: object, finishReason: string | null = null): string =>
  `data: ${JSON.stringify({
    id: 'chatcmpl-parallel',
    object: 'chat.completion.chunk',
    created: 1700000000,
    model: 'served-model',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  })}\n\n`;

/** A chat stream whose two calls start in one chunk, so call 0's arguments arrive after call 1 started. */
const INTERLEAVED_CALLS = [
  chunk({ role: 'assistant', content: null }),
  chunk({
    tool_calls: [
      { index: 0, id: 'call_oslo', type: 'function', function: { name: 'weather', arguments: '' } },
      { index: 1, id: 'call_rome', type: 'function', function: { name: 'time', arguments: '' } },
    ],
  }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
  chunk({ tool_calls: [{ index: 1, function: { arguments: '{"city":"Rome"}' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '"Oslo"}' } }] }),
  chunk({}, 'tool_calls'),
  'data: [DONE]\n\n',
];

/** The same calls as OpenAI streams them: each call's arguments complete before the next call starts. */
const SEQUENTIAL_CALLS = [
  chunk({ role: 'assistant', content: null }),
  chunk({
    tool_calls: [{ index: 0, id: 'call_oslo', type: 'function', function: { name: 'weather', arguments: '' } }],
  }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":"Oslo"}' } }] }),
  chunk({ tool_calls: [{ index: 1, id: 'call_rome', type: 'function', function: { name: 'time', arguments: '' } }] }),
  chunk({ tool_calls: [{ index: 1, function: { arguments: '{"city":"Rome"}' } }] }),
  chunk({}, 'tool_calls'),
  'data: [DONE]\n\n',
];

/** A Responses stream served over a chat completions upstream whose parallel tool calls interleave. */
describe('parallel tool calls of a Responses stream served over chat completions', () => {
  let frames: FrameServer;
  let servers: TempServers;
  let client: OpenAI;

  beforeAll(async () => {
    frames = await startFrameServer();
    servers = await startTempServers({
      llm: { allowed_models: ['parallel'] },
      deployments: [
        {
          id: 'parallel',
          model: 'parallel',
          provider: 'openai',
          upstream_model: 'served-model',
          base_url: `${frames.url}/v1`,
          api_key: 'sk-parallel-upstream',
          max_retries: 0,
        },
      ],
    });
    const created = await fetch(`${servers.gatewayUrl}/internal/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ scopes: ['responses'] }),
    });
    const { key } = (await created.json()) as { key: string };
    client = new OpenAI({ baseURL: `${servers.gatewayUrl}/v1`, apiKey: key, maxRetries: 0 });
  });
  afterAll(async () => {
    await servers?.stop();
    await frames?.close();
  });

  const streamCalls = () =>
    client.responses.stream({
      model: 'parallel',
      input: 'Weather in Oslo and time in Rome?',
      store: true,
      tools: ['weather', 'time'].map((name) => ({
        type: 'function' as const,
        name,
        parameters: { type: 'object', properties: { city: { type: 'string' } } },
        strict: false,
      })),
    });

  it('keep every argument of each call, in the stream, the final Response and the kept one', async () => {
    frames.serveFrames(INTERLEAVED_CALLS);
    const stream = streamCalls();
    const argumentsDone: Array<{ name: string; arguments: string }> = [];
    for await (const event of stream)
      if (event.type === 'response.function_call_arguments.done')
        argumentsDone.push({ name: event.name, arguments: event.arguments });
    const final = await stream.finalResponse();

    const calls = [
      { call_id: 'call_oslo', name: 'weather', arguments: '{"city":"Oslo"}', status: 'completed' },
      { call_id: 'call_rome', name: 'time', arguments: '{"city":"Rome"}', status: 'completed' },
    ];
    expect(final.output).toMatchObject(calls.map((call) => ({ type: 'function_call', ...call })));
    expect(argumentsDone).toEqual(calls.map(({ name, arguments: text }) => ({ name, arguments: text })));
    const kept = await client.responses.retrieve(final.id);
    expect(kept.output).toMatchObject(calls);
  });

  it('end each call before the next one starts when its arguments are complete, as OpenAI streams them', async () => {
    frames.serveFrames(SEQUENTIAL_CALLS);
    const stream = streamCalls();
    const lifecycle: string[] = [];
    for await (const event of stream)
      if (event.type === 'response.output_item.added' || event.type === 'response.output_item.done')
        lifecycle.push(`${event.type.slice('response.output_item.'.length)} ${event.output_index}`);
    expect(lifecycle).toEqual(['added 0', 'done 0', 'added 1', 'done 1']);
    expect((await stream.finalResponse()).output).toMatchObject([
      { arguments: '{"city":"Oslo"}' },
      { arguments: '{"city":"Rome"}' },
    ]);
  });
});
