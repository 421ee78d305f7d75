import { describe, expect, it } from 'vitest';
import { chatCodec, messagesCodec } from '../../../src/server/gateway/formats/index.js';

const usage = { promptTokens: 11, completionTokens: 7 };

describe('Anthropic answer -> chat completion', () => {
  it('maps text, tool_use, stop reason and usage', () => {
    const ir = messagesCodec.responseToIr({
      id: 'msg_01',
      type: 'message',
      role: 'assistant',
      model: 'claude-upstream',
      content: [
        { type: 'text', text: 'Checking.' },
        { type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Paris' } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 7, cache_read_input_tokens: 5, cache_creation_input_tokens: 1 },
    });
    // Cache reads and writes are both prompt; only reads are what OpenAI's formats call cached, and
    // writes are kept apart for their own price.
    expect(ir.usage).toEqual({
      promptTokens: 16,
      completionTokens: 7,
      cachedPromptTokens: 5,
      cacheWritePromptTokens: 1,
    });
    const out = chatCodec.responseFromIr(ir, 'public-claude', {
      promptTokens: 16,
      completionTokens: 7,
      cachedPromptTokens: 5,
    });
    expect(out).toMatchObject({
      id: 'chatcmpl-01',
      object: 'chat.completion',
      model: 'public-claude',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Checking.',
            tool_calls: [
              { id: 'toolu_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
            ],
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 16, completion_tokens: 7, total_tokens: 23, prompt_tokens_details: { cached_tokens: 5 } },
    });
  });

  it.each([
    ['end_turn', 'stop'],
    ['max_tokens', 'length'],
    ['stop_sequence', 'stop'],
    ['tool_use', 'tool_calls'],
    ['refusal', 'content_filter'],
    ['pause_turn', 'stop'],
  ])('stop_reason %s -> finish_reason %s', (stop, finish) => {
    const ir = messagesCodec.responseToIr({
      id: 'msg_1',
      content: [{ type: 'text', text: 'x' }],
      stop_reason: stop,
      usage: {},
    });
    expect(
      (chatCodec.responseFromIr(ir, 'm', usage) as { choices: Array<{ finish_reason: string }> }).choices[0]
        .finish_reason,
    ).toBe(finish);
  });
});

describe('chat completion -> Anthropic answer', () => {
  it('maps content, tool calls, finish reason and usage', () => {
    const ir = chatCodec.responseToIr({
      id: 'chatcmpl-abc',
      object: 'chat.completion',
      model: 'gpt-4o-2024',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Rome"}' } },
            ],
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 20, completion_tokens: 9, total_tokens: 29 },
    });
    const out = messagesCodec.responseFromIr(ir, 'public-gpt', { promptTokens: 20, completionTokens: 9 });
    expect(out).toEqual({
      id: 'msg_abc',
      type: 'message',
      role: 'assistant',
      model: 'public-gpt',
      content: [{ type: 'tool_use', id: 'call_1', name: 'weather', input: { city: 'Rome' } }],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 20, output_tokens: 9, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    });
  });

  it.each([
    ['stop', 'end_turn'],
    ['length', 'max_tokens'],
    ['tool_calls', 'tool_use'],
    ['content_filter', 'refusal'],
    [null, 'end_turn'],
  ])('finish_reason %s -> stop_reason %s', (finish, stop) => {
    const ir = chatCodec.responseToIr({ id: 'c', choices: [{ message: { content: 'x' }, finish_reason: finish }] });
    expect((messagesCodec.responseFromIr(ir, 'm', usage) as { stop_reason: string }).stop_reason).toBe(stop);
  });

  it('reads a missing usage as unknown, and keeps broken tool arguments', () => {
    const ir = chatCodec.responseToIr({
      id: 'c',
      choices: [
        {
          message: { content: '', tool_calls: [{ id: 't', function: { name: 'f', arguments: '{oops' } }] },
          finish_reason: 'stop',
        },
      ],
    });
    expect(ir.usage).toBeUndefined();
    expect(ir.stopReason).toBe('tool_calls');
    const out = messagesCodec.responseFromIr(ir, 'm', usage) as { content: unknown[] };
    expect(out.content).toEqual([{ type: 'tool_use', id: 't', name: 'f', input: { _raw_arguments: '{oops' } }]);
  });
});
