import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatCodec, messagesCodec } from '../../../src/server/gateway/formats/index.js';
import { startFrameServer, type FrameServer } from '../../support/upstreams/index.js';
import {
  ANTHROPIC_TOOL_STREAM,
  collect,
  eventsOf,
  OPENAI_INTERLEAVED_TOOL_STREAM,
  OPENAI_TOOL_STREAM,
} from './stream-fixtures.js';

/**
 * The translated frames are served to the official SDKs, whose own stream parsers and
 * accumulators must accept them: proof that real clients read what the gateway writes.
 */

let server: FrameServer;
beforeAll(async () => {
  server = await startFrameServer();
});
afterAll(() => server.close());

describe('the Anthropic SDK reads translated Messages streams', () => {
  it('accumulates text and tool_use input from an OpenAI upstream stream', async () => {
    const ir = chatCodec.decodeStream(eventsOf(OPENAI_TOOL_STREAM));
    server.serveFrames(
      messagesCodec.encodeStream(ir, {
        id: 'chatcmpl-up1',
        model: 'public-gpt',
        usage: () => ({ promptTokens: 31, completionTokens: 12 }),
        includeUsage: false,
      }),
    );
    const client = new Anthropic({ baseURL: server.url, apiKey: 'test', maxRetries: 0 });
    const stream = client.messages.stream({
      model: 'public-gpt',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'weather?' }],
    });
    const texts: string[] = [];
    stream.on('text', (text) => texts.push(text));
    const message = await stream.finalMessage();
    expect(texts.join('')).toBe('Let me check.');
    expect(message.model).toBe('public-gpt');
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content).toEqual([
      { type: 'text', text: 'Let me check.' },
      { type: 'tool_use', id: 'call_a', name: 'weather', input: { city: 'Paris' } },
      { type: 'tool_use', id: 'call_b', name: 'weather', input: { city: 'Rome' } },
    ]);
    expect(message.usage).toMatchObject({ input_tokens: 31, output_tokens: 12 });
  });

  it('accumulates every argument of interleaved parallel tool calls, in call order', async () => {
    const ir = chatCodec.decodeStream(eventsOf(OPENAI_INTERLEAVED_TOOL_STREAM));
    server.serveFrames(
      messagesCodec.encodeStream(ir, {
        id: 'chatcmpl-up1',
        model: 'public-gpt',
        usage: () => ({ promptTokens: 5, completionTokens: 9 }),
        includeUsage: false,
      }),
    );
    const client = new Anthropic({ baseURL: server.url, apiKey: 'test', maxRetries: 0 });
    const message = await client.messages
      .stream({ model: 'public-gpt', max_tokens: 100, messages: [{ role: 'user', content: 'x' }] })
      .finalMessage();
    expect(message.content).toEqual([
      { type: 'tool_use', id: 'call_a', name: 'weather', input: { city: 'Paris' } },
      { type: 'tool_use', id: 'call_b', name: 'time', input: { zone: 'CET' } },
      { type: 'tool_use', id: 'call_c', name: 'weather', input: { city: 'Rome' } },
    ]);
    expect(message.stop_reason).toBe('tool_use');
  });

  it('reads the translated non-streamed answer and an error frame', async () => {
    const ir = chatCodec.responseToIr({
      id: 'chatcmpl-1',
      choices: [{ message: { content: 'Hi' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 3, completion_tokens: 1 },
    });
    server.serveJson(messagesCodec.responseFromIr(ir, 'public-gpt', { promptTokens: 3, completionTokens: 1 }));
    const client = new Anthropic({ baseURL: server.url, apiKey: 'test', maxRetries: 0 });
    const message = await client.messages.create({
      model: 'public-gpt',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(message.content).toEqual([{ type: 'text', text: 'Hi' }]);

    server.serveFrames([messagesCodec.errorFrame('openai upstream stream error')]);
    const failing = client.messages.stream({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] });
    await expect(failing.finalMessage()).rejects.toThrow(/openai upstream stream error/);
  });
});

describe('the openai SDK reads translated chat streams', () => {
  it('accumulates content, tool calls and usage from an Anthropic upstream stream', async () => {
    const ir = messagesCodec.decodeStream(eventsOf(ANTHROPIC_TOOL_STREAM));
    server.serveFrames(
      chatCodec.encodeStream(ir, {
        id: 'msg_up1',
        model: 'public-claude',
        usage: () => ({ promptTokens: 25, completionTokens: 15 }),
        includeUsage: true,
      }),
    );
    const client = new OpenAI({ baseURL: server.url, apiKey: 'test', maxRetries: 0 });
    const stream = client.chat.completions.stream({
      model: 'public-claude',
      messages: [{ role: 'user', content: 'weather?' }],
      stream_options: { include_usage: true },
    });
    const completion = await stream.finalChatCompletion();
    expect(completion.model).toBe('public-claude');
    expect(completion.choices[0].finish_reason).toBe('tool_calls');
    expect(completion.choices[0].message.content).toBe('Let me check.');
    expect(completion.choices[0].message.tool_calls).toEqual([
      { id: 'toolu_a', type: 'function', function: { name: 'weather', arguments: '{"city": "Paris"}' } },
    ]);
    expect(completion.usage).toMatchObject({ prompt_tokens: 25, completion_tokens: 15, total_tokens: 40 });
  });

  it('iterates raw chunks until [DONE] and raises an error frame', async () => {
    const ir = messagesCodec.decodeStream(eventsOf(ANTHROPIC_TOOL_STREAM));
    server.serveFrames(
      chatCodec.encodeStream(ir, {
        id: 'msg_up1',
        model: 'm',
        usage: () => ({ promptTokens: 1, completionTokens: 1 }),
        includeUsage: false,
      }),
    );
    const client = new OpenAI({ baseURL: server.url, apiKey: 'test', maxRetries: 0 });
    const chunks = await collect(
      await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }], stream: true }),
    );
    expect(chunks.length).toBe(7);

    server.serveFrames([
      chatCodec.errorFrame('anthropic stream ended with an error event, overloaded_error: Overloaded'),
    ]);
    const failing = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
      stream: true,
    });
    await expect(collect(failing)).rejects.toThrow(/overloaded_error/);
  });
});
