import { describe, expect, it } from 'vitest';
import { chatCodec, messagesCodec, type IrStreamEvent } from '../../../src/server/gateway/formats/index.js';
import {
  ANTHROPIC_STOP_SEQUENCE_STREAM,
  ANTHROPIC_TOOL_STREAM,
  collect,
  eventsOf,
  OPENAI_TEXT_STREAM_NO_USAGE,
  OPENAI_TOOL_STREAM,
  payloads,
} from './stream-fixtures.js';

const fixedUsage = () => ({ promptTokens: 31, completionTokens: 12 });

describe('stream decoders', () => {
  it('decode an OpenAI stream into IR events', async () => {
    const events = await collect(chatCodec.decodeStream(eventsOf(OPENAI_TOOL_STREAM)));
    expect(events).toEqual<IrStreamEvent[]>([
      { type: 'start', id: 'chatcmpl-up1', model: 'gpt-4o-2024' },
      { type: 'text', text: 'Let me' },
      { type: 'text', text: ' check.' },
      { type: 'tool_call_start', index: 0, id: 'call_a', name: 'weather' },
      { type: 'tool_call_delta', index: 0, arguments: '{"city":' },
      { type: 'tool_call_delta', index: 0, arguments: '"Paris"}' },
      { type: 'tool_call_start', index: 1, id: 'call_b', name: 'weather' },
      { type: 'tool_call_delta', index: 1, arguments: '{"city":"Rome"}' },
      { type: 'finish', stopReason: 'tool_calls', stopSequence: null },
      { type: 'usage', usage: { promptTokens: 31, completionTokens: 12 } },
    ]);
  });

  it('decode an Anthropic stream into IR events', async () => {
    const events = await collect(messagesCodec.decodeStream(eventsOf(ANTHROPIC_TOOL_STREAM)));
    expect(events).toEqual<IrStreamEvent[]>([
      { type: 'usage', usage: { promptTokens: 25 } },
      { type: 'start', id: 'msg_up1', model: 'claude-upstream' },
      { type: 'keepalive' },
      { type: 'text', text: 'Let me' },
      { type: 'text', text: ' check.' },
      { type: 'tool_call_start', index: 1, id: 'toolu_a', name: 'weather' },
      { type: 'tool_call_delta', index: 1, arguments: '{"city": "Pa' },
      { type: 'tool_call_delta', index: 1, arguments: 'ris"}' },
      { type: 'usage', usage: { promptTokens: undefined, completionTokens: 15 } },
      { type: 'finish', stopReason: 'tool_calls', stopSequence: null },
    ]);
  });

  it('raise stream errors with their status', async () => {
    const overloaded = [
      'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n',
    ];
    await expect(collect(messagesCodec.decodeStream(eventsOf(overloaded)))).rejects.toMatchObject({
      name: 'StreamError',
      status: 529,
      type: 'overloaded_error',
    });
    const failed = ['data: {"error":{"message":"boom","type":"server_error"}}\n\n'];
    await expect(collect(chatCodec.decodeStream(eventsOf(failed)))).rejects.toMatchObject({
      name: 'StreamError',
      message: 'boom',
    });
  });
});

describe('OpenAI stream -> Messages SSE', () => {
  it('emits the full Messages event sequence with tool_use blocks and final usage', async () => {
    const ir = chatCodec.decodeStream(eventsOf(OPENAI_TOOL_STREAM));
    const frames = await collect(
      messagesCodec.encodeStream(ir, {
        id: 'chatcmpl-up1',
        model: 'public-gpt',
        usage: fixedUsage,
        includeUsage: false,
      }),
    );
    const out = await payloads(frames);
    expect(out.map((item) => item.event)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    for (const item of out) expect(item.data.type).toBe(item.event);
    expect(out[0].data.message).toMatchObject({
      id: 'msg_up1',
      model: 'public-gpt',
      role: 'assistant',
      content: [],
      usage: { input_tokens: 31, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    });
    expect(out[5].data).toEqual({
      type: 'content_block_start',
      index: 1,
      content_block: { type: 'tool_use', id: 'call_a', name: 'weather', input: {} },
    });
    // A call goes out once its arguments are complete JSON, as one delta.
    expect(out[6].data).toEqual({
      type: 'content_block_delta',
      index: 1,
      delta: { type: 'input_json_delta', partial_json: '{"city":"Paris"}' },
    });
    expect(out[8].data.index).toBe(2);
    expect(out[11].data).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { input_tokens: 31, output_tokens: 12, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    });
  });

  it('maps length to max_tokens', async () => {
    const ir = chatCodec.decodeStream(eventsOf(OPENAI_TEXT_STREAM_NO_USAGE));
    const out = await payloads(
      await collect(messagesCodec.encodeStream(ir, { id: 'x', model: 'm', usage: fixedUsage, includeUsage: false })),
    );
    expect(out.at(-2)?.data.delta.stop_reason).toBe('max_tokens');
  });
});

describe('Anthropic stream -> chat SSE', () => {
  it('emits role, content, tool-call deltas indexed per call, finish, usage chunk and [DONE]', async () => {
    const ir = messagesCodec.decodeStream(eventsOf(ANTHROPIC_TOOL_STREAM));
    const frames = await collect(
      chatCodec.encodeStream(ir, {
        id: 'msg_up1',
        model: 'public-claude',
        usage: () => ({ promptTokens: 25, completionTokens: 15 }),
        includeUsage: true,
      }),
    );
    expect(frames.at(-1)).toBe('data: [DONE]\n\n');
    const chunks = (await payloads(frames)).map((item) => item.data);
    for (const chunk of chunks)
      expect(chunk).toMatchObject({ id: 'chatcmpl-up1', object: 'chat.completion.chunk', model: 'public-claude' });
    expect(chunks.map((chunk) => chunk.choices[0]?.delta)).toEqual([
      { role: 'assistant', content: '' },
      { content: 'Let me' },
      { content: ' check.' },
      { tool_calls: [{ index: 0, id: 'toolu_a', type: 'function', function: { name: 'weather', arguments: '' } }] },
      { tool_calls: [{ index: 0, function: { arguments: '{"city": "Pa' } }] },
      { tool_calls: [{ index: 0, function: { arguments: 'ris"}' } }] },
      {},
      undefined,
    ]);
    expect(chunks[6].choices[0].finish_reason).toBe('tool_calls');
    expect(chunks[0].usage).toBeNull();
    expect(chunks[7]).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 25, completion_tokens: 15, total_tokens: 40 },
    });
  });

  it('leaves out the usage chunk unless asked, and maps stop sequences to stop', async () => {
    const ir = messagesCodec.decodeStream(eventsOf(ANTHROPIC_STOP_SEQUENCE_STREAM));
    const frames = await collect(
      chatCodec.encodeStream(ir, { id: 'msg_up2', model: 'm', usage: fixedUsage, includeUsage: false }),
    );
    const chunks = (await payloads(frames)).map((item) => item.data);
    expect(chunks.every((chunk) => chunk.choices.length === 1 && !('usage' in chunk))).toBe(true);
    expect(chunks.at(-1).choices[0].finish_reason).toBe('stop');
  });

  it('Anthropic stop sequences survive a Messages -> Messages re-encode', async () => {
    const ir = messagesCodec.decodeStream(eventsOf(ANTHROPIC_STOP_SEQUENCE_STREAM));
    const out = await payloads(
      await collect(
        messagesCodec.encodeStream(ir, { id: 'msg_up2', model: 'm', usage: fixedUsage, includeUsage: false }),
      ),
    );
    expect(out.at(-2)?.data.delta).toEqual({ stop_reason: 'stop_sequence', stop_sequence: 'three' });
  });
});
