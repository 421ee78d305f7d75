import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTempServers, TEST_MASTER_KEY, type TempServers } from '../support/temp-servers.js';
import {
  startFrameServer,
  startOpenAIUpstream,
  type FrameServer,
  type OpenAIUpstream,
} from '../support/upstreams/index.js';
import { anthropicEvent, anthropicMessageStart } from './formats/stream-fixtures.js';

const KEY = 'sk-cut-tool-calls-0123456789';
/** Arguments the token limit cut off in the middle of a value. */
const CUT = '{"path": "notes.txt", "content": "Dear';
const tools = [{ name: 'write_file', input_schema: { type: 'object' as const, properties: {} } }];
const chatTools = [{ type: 'function' as const, function: { name: 'write_file', parameters: {} } }];
const cutCall = (args = CUT) => ({
  toolCalls: [{ id: 'call_1', name: 'write_file', arguments: args }],
  finishReason: 'length',
});

/** Anthropic's stream of a tool_use block that max_tokens cut off, as Anthropic sends it. */
function anthropicCutFrames(): string[] {
  const event = anthropicEvent;
  return [
    anthropicMessageStart('msg_cut', 'claude-opus-4-7'),
    event('content_block_start', {
      index: 0,
      content_block: { type: 'tool_use', id: 'toolu_cut', name: 'write_file', input: {} },
    }),
    event('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '{"path": "no' } }),
    event('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: 'tes.txt", "con' } }),
    event('content_block_stop', { index: 0 }),
    event('message_delta', { delta: { stop_reason: 'max_tokens', stop_sequence: null }, usage: { output_tokens: 16 } }),
    event('message_stop', {}),
  ];
}

describe('a tool call cut off by the token limit', () => {
  let openai: OpenAIUpstream;
  let anthropic: FrameServer;
  let servers: TempServers;
  let key: string;

  beforeAll(async () => {
    [openai, anthropic] = await Promise.all([startOpenAIUpstream({ apiKey: KEY }), startFrameServer()]);
    servers = await startTempServers({
      llm: { allowed_models: ['gpt-4o-mini', 'claude-opus-4-7'] },
      gateway: { max_retries: 0 },
      deployments: [
        { id: 'chat', model: 'gpt-4o-mini', provider: 'openai', base_url: openai.url, api_key: KEY },
        { id: 'claude', model: 'claude-opus-4-7', provider: 'anthropic', base_url: anthropic.url, api_key: KEY },
      ],
    });
    const created = await fetch(`${servers.gatewayUrl}/internal/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ scopes: ['*'] }),
    });
    key = ((await created.json()) as { key: string }).key;
  });
  beforeEach(() => openai.reset());
  afterAll(async () => {
    await servers.stop();
    await Promise.all([openai.close(), anthropic.close()]);
  });

  const claude = () => new Anthropic({ baseURL: servers.gatewayUrl, apiKey: key, maxRetries: 0 });
  const gpt = () => new OpenAI({ baseURL: `${servers.gatewayUrl}/v1`, apiKey: key, maxRetries: 0 });
  const messages = [{ role: 'user' as const, content: 'write the letter' }];

  describe('Messages client, chat completions upstream', () => {
    it('streams no block for it, so the SDK makes up no input, and stops with max_tokens', async () => {
      openai.setNext({ reply: { text: 'Writing it.', ...cutCall() } });
      const stream = claude().messages.stream({ model: 'gpt-4o-mini', max_tokens: 16, tools, messages });
      const partials: string[] = [];
      stream.on('inputJson', (partial) => partials.push(partial));
      const final = await stream.finalMessage();
      expect(final.stop_reason).toBe('max_tokens');
      expect(final.content).toEqual([{ type: 'text', text: 'Writing it.' }]);
      expect(partials).toEqual([]);
    });

    it('keeps the complete calls before it, each block with its whole input', async () => {
      openai.setNext({
        reply: {
          toolCalls: [
            { id: 'call_0', name: 'write_file', arguments: '{"path": "a.txt", "content": "A"}' },
            { id: 'call_1', name: 'write_file', arguments: CUT },
          ],
          finishReason: 'length',
        },
      });
      const response = await fetch(`${servers.gatewayUrl}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o-mini', max_tokens: 16, stream: true, tools, messages }),
      });
      const events = (await response.text())
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => JSON.parse(line.slice(6)) as Record<string, any>);
      expect(events.map((event) => event.type)).toEqual([
        'message_start',
        'content_block_start',
        'content_block_delta',
        'content_block_stop',
        'message_delta',
        'message_stop',
      ]);
      expect(events[1]!.content_block).toMatchObject({ type: 'tool_use', id: 'call_0', input: {} });
      expect(events[2]!.delta).toEqual({ type: 'input_json_delta', partial_json: '{"path": "a.txt", "content": "A"}' });
      expect(events[4]!.delta.stop_reason).toBe('max_tokens');
    });

    it('leaves it out of a JSON answer too, instead of an input the model never wrote', async () => {
      openai.setNext({ reply: cutCall() });
      const message = await claude().messages.create({ model: 'gpt-4o-mini', max_tokens: 16, tools, messages });
      expect(message.stop_reason).toBe('max_tokens');
      expect(message.content).toEqual([]);
      openai.setNext({ reply: cutCall('') });
      const empty = await claude().messages.create({ model: 'gpt-4o-mini', max_tokens: 16, tools, messages });
      expect(empty.content).toEqual([]);
    });

    it('still streams a complete call that the limit did not cut, and a call of a finished answer as it is', async () => {
      openai.setNext({ reply: { toolCalls: [{ id: 'call_2', name: 'write_file', arguments: '{"path": "b"}' }] } });
      const final = await claude()
        .messages.stream({ model: 'gpt-4o-mini', max_tokens: 16, tools, messages })
        .finalMessage();
      expect(final.stop_reason).toBe('tool_use');
      expect(final.content).toEqual([{ type: 'tool_use', id: 'call_2', name: 'write_file', input: { path: 'b' } }]);
    });
  });

  describe('Responses client, chat completions upstream', () => {
    const request = {
      model: 'gpt-4o-mini',
      input: 'write the letter',
      tools: [{ type: 'function' as const, name: 'write_file', parameters: {}, strict: false }],
    };

    it('marks the call incomplete and gives its arguments as the model wrote them', async () => {
      openai.setNext({ reply: cutCall() });
      const response = await gpt().responses.create(request);
      expect(response.status).toBe('incomplete');
      expect(response.incomplete_details).toEqual({ reason: 'max_output_tokens' });
      expect(response.output).toMatchObject([
        { type: 'function_call', call_id: 'call_1', arguments: CUT, status: 'incomplete' },
      ]);
    });

    it('marks it incomplete in the stream too', async () => {
      openai.setNext({ reply: cutCall() });
      const stream = gpt().responses.stream(request);
      const done: Array<{ status?: string }> = [];
      stream.on('response.output_item.done', (event) => done.push(event.item as { status?: string }));
      const final = await stream.finalResponse();
      expect(done).toMatchObject([{ type: 'function_call', status: 'incomplete', arguments: CUT }]);
      expect(final.status).toBe('incomplete');
      expect(final.output).toMatchObject([{ type: 'function_call', status: 'incomplete' }]);
    });

    it('marks a message the limit cut off incomplete, and a complete call completed', async () => {
      openai.setNext({ reply: { text: 'It was a dark and', finishReason: 'length' } });
      expect((await gpt().responses.create(request)).output).toMatchObject([{ type: 'message', status: 'incomplete' }]);
      openai.setNext({ reply: { toolCalls: [{ name: 'write_file', arguments: '{}' }], finishReason: 'length' } });
      expect((await gpt().responses.create(request)).output).toMatchObject([
        { type: 'function_call', status: 'completed' },
      ]);
    });
  });

  describe('chat client, Anthropic upstream', () => {
    it("streams the call's arguments as Anthropic sent them and finishes with length, as OpenAI does", async () => {
      anthropic.serveFrames(anthropicCutFrames());
      const stream = await gpt().chat.completions.create({
        model: 'claude-opus-4-7',
        max_tokens: 16,
        tools: chatTools,
        messages,
        stream: true,
      });
      let args = '';
      let finish: string | null = null;
      for await (const chunk of stream) {
        for (const call of chunk.choices[0]?.delta.tool_calls ?? []) args += call.function?.arguments ?? '';
        finish = chunk.choices[0]?.finish_reason ?? finish;
      }
      expect(args).toBe('{"path": "notes.txt", "con');
      expect(finish).toBe('length');
    });
  });

  describe('Responses client, Anthropic upstream, JSON answer', () => {
    /** Anthropic's JSON answer cut inside its last block: `input` is an object all the same. */
    const cutAnswer = (content: object[]) => ({
      id: 'msg_cut',
      type: 'message',
      role: 'assistant',
      model: 'claude-opus-4-7',
      content,
      stop_reason: 'max_tokens',
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 16 },
    });
    const request = {
      model: 'claude-opus-4-7',
      input: 'write the letter',
      tools: [{ type: 'function' as const, name: 'write_file', parameters: {}, strict: false }],
    };

    it('marks the last call incomplete though its input parsed, and the calls before it completed', async () => {
      anthropic.serveJson(
        cutAnswer([
          { type: 'tool_use', id: 'toolu_a', name: 'write_file', input: { path: 'a.txt' } },
          { type: 'tool_use', id: 'toolu_b', name: 'write_file', input: {} },
        ]),
      );
      const response = await gpt().responses.create(request);
      expect(response.status).toBe('incomplete');
      expect(response.output).toMatchObject([
        { type: 'function_call', call_id: 'toolu_a', arguments: '{"path":"a.txt"}', status: 'completed' },
        { type: 'function_call', call_id: 'toolu_b', arguments: '{}', status: 'incomplete' },
      ]);
    });

    it('leaves a call complete when the limit cut the text after it', async () => {
      anthropic.serveJson(
        cutAnswer([
          { type: 'tool_use', id: 'toolu_a', name: 'write_file', input: { path: 'a.txt' } },
          { type: 'text', text: 'and then' },
        ]),
      );
      const response = await gpt().responses.create(request);
      expect(response.output.find((item) => item.type === 'function_call')).toMatchObject({ status: 'completed' });
    });
  });
});
