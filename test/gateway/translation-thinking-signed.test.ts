import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTempServers, TEST_MASTER_KEY, type TempServers } from '../support/temp-servers.js';
import { anthropicEvent, anthropicMessageStart } from './formats/stream-fixtures.js';

const KEY = 'sk-ant-signed-0123456789secret';
const SIGNATURE = 'EqQBCkYIBRgCKkB0c2lnbmF0dXJl==';
const THINKING = 'The user wants a.txt. I will read it.';

/** An Anthropic answer that thinks (signed), then calls read_file, as a stream or as JSON. */
function frames(): string[] {
  const event = anthropicEvent;
  return [
    anthropicMessageStart('msg_signed', 'claude-x'),
    event('ping', {}),
    event('content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }),
    event('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: THINKING.slice(0, 10) } }),
    event('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: THINKING.slice(10) } }),
    event('content_block_delta', { index: 0, delta: { type: 'signature_delta', signature: SIGNATURE } }),
    event('content_block_stop', { index: 0 }),
    event('content_block_start', {
      index: 1,
      content_block: { type: 'tool_use', id: 'toolu_01', name: 'read_file', input: {} },
    }),
    event('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: '{"path":"a.txt"}' } }),
    event('content_block_stop', { index: 1 }),
    event('message_delta', { delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 30 } }),
    event('message_stop', {}),
  ];
}

const ANSWER = {
  id: 'msg_signed',
  type: 'message',
  role: 'assistant',
  model: 'claude-x',
  content: [
    { type: 'thinking', thinking: THINKING, signature: SIGNATURE },
    { type: 'tool_use', id: 'toolu_01', name: 'read_file', input: { path: 'a.txt' } },
  ],
  stop_reason: 'tool_use',
  stop_sequence: null,
  usage: { input_tokens: 10, output_tokens: 30, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
};

/**
 * A chat client of a Claude model gets the model's signed thinking as LiteLLM returns it
 * (`thinking_blocks` on the message, and in one delta of a stream) and sends it back with the turn:
 * Anthropic, with thinking on, wants the thinking that led to a tool call sent back ahead of it, so a
 * tool loop's next turn keeps its thinking.
 */
describe('signed thinking through chat completions, for a Claude model', () => {
  let upstream: Server;
  let servers: TempServers;
  let key: string;
  const bodies: Array<Record<string, any>> = [];

  beforeAll(async () => {
    upstream = createServer((request, response) => {
      let text = '';
      request.on('data', (chunk: Buffer) => (text += chunk.toString()));
      request.on('end', () => {
        const body = JSON.parse(text) as Record<string, any>;
        bodies.push(body);
        if (body.stream !== true)
          return response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(ANSWER));
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.end(frames().join(''));
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    servers = await startTempServers({
      llm: { allowed_models: ['claude-x'] },
      gateway: { max_retries: 0 },
      deployments: [{ id: 'claude', model: 'claude-x', provider: 'anthropic', base_url: url, api_key: KEY }],
    });
    const created = await fetch(`${servers.gatewayUrl}/internal/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ scopes: ['*'] }),
    });
    key = ((await created.json()) as { key: string }).key;
  });
  beforeEach(() => {
    bodies.length = 0;
  });
  afterAll(async () => {
    await servers.stop();
    await new Promise((resolve) => upstream.close(resolve));
  });

  const client = () => new OpenAI({ baseURL: `${servers.gatewayUrl}/v1`, apiKey: key, maxRetries: 0 });
  const tools = [
    {
      type: 'function' as const,
      function: { name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
    },
  ];
  const signed = { type: 'thinking', thinking: THINKING, signature: SIGNATURE };

  it('returns the signed block on the answer', async () => {
    const completion = await client().chat.completions.create({
      model: 'claude-x',
      messages: [{ role: 'user', content: 'Read a.txt' }],
      reasoning_effort: 'high',
      tools,
    });
    const message = completion.choices[0]!.message as unknown as Record<string, unknown>;
    expect(message.reasoning_content).toBe(THINKING);
    expect(message.thinking_blocks).toEqual([signed]);
  });

  it('streams the signed block whole, then sends it back so the next turn keeps thinking on', async () => {
    const stream = await client().chat.completions.create({
      model: 'claude-x',
      messages: [{ role: 'user', content: 'Read a.txt' }],
      reasoning_effort: 'high',
      tools,
      stream: true,
    });
    const blocks: unknown[] = [];
    let reasoning = '';
    for await (const chunk of stream) {
      const delta = (chunk.choices[0]?.delta ?? {}) as Record<string, any>;
      blocks.push(...(delta.thinking_blocks ?? []));
      reasoning += delta.reasoning_content ?? '';
    }
    expect(blocks).toEqual([signed]);
    expect(reasoning).toBe(THINKING);

    await client().chat.completions.create({
      model: 'claude-x',
      messages: [
        { role: 'user', content: 'Read a.txt' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'toolu_01', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.txt"}' } },
          ],
          // @ts-expect-error LiteLLM's field, not an OpenAI one
          thinking_blocks: blocks,
        },
        { role: 'tool', tool_call_id: 'toolu_01', content: 'hello' },
      ],
      reasoning_effort: 'high',
      tools,
    });
    const sent = bodies.at(-1)!;
    expect(sent.thinking).toEqual({ type: 'enabled', budget_tokens: 4096 });
    expect(sent.messages[1].content).toEqual([
      signed,
      { type: 'tool_use', id: 'toolu_01', name: 'read_file', input: { path: 'a.txt' } },
    ]);
  });

  it('refuses a thinking_blocks entry that is no thinking block, naming it', async () => {
    const error = await client()
      .chat.completions.create({
        model: 'claude-x',
        messages: [
          { role: 'user', content: 'Hi' },
          // @ts-expect-error LiteLLM's field, not an OpenAI one
          { role: 'assistant', content: 'Hello', thinking_blocks: [{ type: 'text', text: 'no' }] },
          { role: 'user', content: 'Again' },
        ],
      })
      .catch((thrown: unknown) => thrown as { status: number; error: { param?: string } });
    expect(error).toMatchObject({ status: 400, error: { param: 'messages[1].thinking_blocks[0]' } });
    expect(bodies).toHaveLength(0);
  });
});
