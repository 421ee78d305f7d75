import { describe, expect, it } from 'vitest';
import {
  chatCodec,
  messagesCodec,
  TranslationError,
  validateChatRequest,
  validateMessagesRequest,
} from '../../../src/server/gateway/formats/index.js';

function chatToMessages(body: unknown) {
  const valid = validateChatRequest(body);
  if (!valid.ok) throw new Error(valid.message);
  return messagesCodec.requestFromIr(chatCodec.requestToIr(valid.value), 'claude-upstream');
}

function messagesToChat(body: unknown) {
  const valid = validateMessagesRequest(body);
  if (!valid.ok) throw new Error(valid.message);
  return chatCodec.requestFromIr(messagesCodec.requestToIr(valid.value), 'gpt-upstream');
}

const weatherTool = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

describe('chat completions -> Messages', () => {
  it('moves system prompts out, keeps turns and maps parameters', () => {
    const out = chatToMessages({
      model: 'claude',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'developer', content: [{ type: 'text', text: 'Use French.' }] },
        { role: 'user', content: 'Hello' },
        { role: 'assistant', content: 'Bonjour' },
        { role: 'user', content: 'Again' },
      ],
      max_tokens: 50,
      temperature: 1.7,
      top_p: 0.9,
      stop: 'END',
      user: 'u-1',
      stream: true,
      frequency_penalty: 1,
    });
    expect(out).toEqual({
      model: 'claude-upstream',
      max_tokens: 50,
      system: [
        { type: 'text', text: 'Be brief.' },
        { type: 'text', text: 'Use French.' },
      ],
      messages: [
        { role: 'user', content: 'Hello' },
        { role: 'assistant', content: 'Bonjour' },
        { role: 'user', content: 'Again' },
      ],
      temperature: 1.7, // as asked: the Anthropic provider clamps it to 1 on the way out
      // top_p left out: Claude models refuse it beside temperature.
      stop_sequences: ['END'],
      metadata: { user_id: 'u-1' },
      stream: true,
    });
  });

  it('defaults max_tokens and prefers max_completion_tokens', () => {
    expect(chatToMessages({ model: 'c', messages: [{ role: 'user', content: 'x' }] }).max_tokens).toBe(4096);
    expect(
      chatToMessages({
        model: 'c',
        messages: [{ role: 'user', content: 'x' }],
        max_tokens: 5,
        max_completion_tokens: 9,
      }).max_tokens,
    ).toBe(9);
  });

  it('translates tools, tool_choice, tool calls and merged tool results', () => {
    const out = chatToMessages({
      model: 'c',
      messages: [
        { role: 'user', content: 'Weather in Paris and Rome?' },
        {
          role: 'assistant',
          content: 'Let me check.',
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
            { id: 'call_2', type: 'function', function: { name: 'weather', arguments: '{"city":"Rome"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
        { role: 'tool', tool_call_id: 'call_2', content: [{ type: 'text', text: 'rainy' }] },
        { role: 'user', content: 'Thanks' },
      ],
      tools: [
        { type: 'function', function: { name: 'weather', description: 'Weather by city', parameters: weatherTool } },
      ],
      tool_choice: 'required',
      parallel_tool_calls: false,
    });
    expect(out.tools).toEqual([{ name: 'weather', description: 'Weather by city', input_schema: weatherTool }]);
    expect(out.tool_choice).toEqual({ type: 'any', disable_parallel_tool_use: true });
    expect(out.messages).toEqual([
      { role: 'user', content: 'Weather in Paris and Rome?' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me check.' },
          { type: 'tool_use', id: 'call_1', name: 'weather', input: { city: 'Paris' } },
          { type: 'tool_use', id: 'call_2', name: 'weather', input: { city: 'Rome' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_1', content: 'sunny' },
          { type: 'tool_result', tool_use_id: 'call_2', content: 'rainy' },
          { type: 'text', text: 'Thanks' },
        ],
      },
    ]);
  });

  it('maps each tool_choice form', () => {
    const base = {
      model: 'c',
      messages: [{ role: 'user', content: 'x' }],
      tools: [{ type: 'function', function: { name: 'f' } }],
    };
    expect(chatToMessages({ ...base, tool_choice: 'auto' }).tool_choice).toEqual({ type: 'auto' });
    expect(chatToMessages({ ...base, tool_choice: 'none' }).tool_choice).toEqual({ type: 'none' });
    expect(chatToMessages({ ...base, tool_choice: { type: 'function', function: { name: 'f' } } }).tool_choice).toEqual(
      { type: 'tool', name: 'f' },
    );
    expect(chatToMessages(base).tools).toEqual([{ name: 'f', input_schema: { type: 'object', properties: {} } }]);
  });

  it('turns data URLs into base64 image blocks and keeps web URLs', () => {
    const out = chatToMessages({
      model: 'c',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
            { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg', detail: 'high' } },
          ],
        },
      ],
    });
    expect(out.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
          { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
        ],
      },
    ]);
  });

  it('drops empty text and rejects parts Anthropic cannot take', () => {
    const out = chatToMessages({
      model: 'c',
      messages: [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: '' },
        { role: 'user', content: 'b' },
      ],
    });
    expect(out.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
    ]);
    expect(() =>
      chatToMessages({
        model: 'c',
        messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'x', format: 'wav' } }] }],
      }),
    ).toThrow(TranslationError);
  });

  it('reads data URLs with parameters and in any letter case as base64 images', () => {
    const out = chatToMessages({
      model: 'c',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image_url', image_url: { url: 'data:image/png;name=x.png;base64,iVBORw0KGgo=' } },
            { type: 'image_url', image_url: { url: 'DATA:IMAGE/JPEG;BASE64,AAAA' } },
          ],
        },
      ],
    });
    expect(out.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
          { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: 'AAAA' } },
        ],
      },
    ]);
  });

  it('leaves out whitespace-only text, which Anthropic refuses, and refuses a request left with none', () => {
    const out = chatToMessages({
      model: 'c',
      messages: [
        { role: 'system', content: '  ' },
        { role: 'user', content: 'weather?' },
        {
          role: 'assistant',
          content: '\n\n',
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
        { role: 'user', content: '   ' },
      ],
    });
    expect(out.system).toBeUndefined();
    expect(out.messages).toEqual([
      { role: 'user', content: 'weather?' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name: 'weather', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: 'sunny' }] },
    ]);
    expect(() => chatToMessages({ model: 'c', messages: [{ role: 'user', content: ' \n ' }] })).toThrow(
      /no user or assistant turn has content/,
    );
  });
});

describe('Messages -> chat completions', () => {
  it('puts the system prompt first and maps parameters', () => {
    const out = messagesToChat({
      model: 'gpt',
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'Hello' }],
      max_tokens: 64,
      temperature: 0.5,
      top_k: 5,
      stop_sequences: ['END'],
      metadata: { user_id: 'u-1' },
      stream: true,
    });
    expect(out).toEqual({
      model: 'gpt-upstream',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hello' },
      ],
      max_tokens: 64,
      temperature: 0.5,
      stop: ['END'],
      user: 'u-1',
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('leaves out a blank system prompt rather than sending an empty system message', () => {
    for (const system of ['', ' \n', [{ type: 'text', text: '' }]]) {
      const out = messagesToChat({ model: 'gpt', max_tokens: 8, system, messages: [{ role: 'user', content: 'Hi' }] });
      expect(out.messages).toEqual([{ role: 'user', content: 'Hi' }]);
    }
  });

  it('translates tools, tool_use and tool_result (results become tool messages before the text)', () => {
    const out = messagesToChat({
      model: 'gpt',
      max_tokens: 100,
      system: [
        { type: 'text', text: 'A' },
        { type: 'text', text: 'B' },
      ],
      tools: [{ name: 'weather', description: 'Weather by city', input_schema: weatherTool }],
      tool_choice: { type: 'tool', name: 'weather', disable_parallel_tool_use: true },
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'hmm', signature: 'sig' },
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Paris' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'sunny' }] },
            { type: 'text', text: 'And tomorrow?' },
          ],
        },
      ],
    });
    expect(out.messages).toEqual([
      // One system message: many local chat templates take no second one.
      { role: 'system', content: 'A\n\nB' },
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }],
      },
      { role: 'tool', tool_call_id: 'toolu_1', content: 'sunny' },
      { role: 'user', content: 'And tomorrow?' },
    ]);
    expect(out.tools).toEqual([
      { type: 'function', function: { name: 'weather', description: 'Weather by city', parameters: weatherTool } },
    ]);
    expect(out.tool_choice).toEqual({ type: 'function', function: { name: 'weather' } });
    expect(out.parallel_tool_calls).toBe(false);
  });

  it('maps any and none tool choices, and an assistant turn with only tool calls', () => {
    const base = { model: 'g', max_tokens: 10, tools: [{ name: 'f', input_schema: { type: 'object' } }] };
    const any = messagesToChat({ ...base, tool_choice: { type: 'any' }, messages: [{ role: 'user', content: 'x' }] });
    expect(any.tool_choice).toBe('required');
    const none = messagesToChat({
      ...base,
      tool_choice: { type: 'none' },
      messages: [
        { role: 'user', content: 'x' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: {} }] },
      ],
    });
    expect(none.tool_choice).toBe('none');
    expect((none.messages as unknown[])[1]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 't', type: 'function', function: { name: 'f', arguments: '{}' } }],
    });
  });

  it('turns image blocks into image_url parts, and tool-result images into the next user turn', () => {
    const out = messagesToChat({
      model: 'g',
      max_tokens: 10,
      messages: [
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 't1',
              is_error: true,
              content: [{ type: 'image', source: { type: 'url', url: 'https://x/y.png' } }],
            },
            { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: 'AAAA' } },
            { type: 'text', text: 'see' },
          ],
        },
      ],
    });
    expect(out.messages).toEqual([
      { role: 'tool', tool_call_id: 't1', content: 'Error' },
      {
        role: 'user',
        content: [
          { type: 'image_url', image_url: { url: 'https://x/y.png' } },
          { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,AAAA' } },
          { type: 'text', text: 'see' },
        ],
      },
    ]);
  });

  it('rejects what only Anthropic can do', () => {
    expect(() =>
      messagesToChat({
        model: 'g',
        max_tokens: 10,
        tools: [{ type: 'web_search_20250305', name: 'web_search' }],
        messages: [{ role: 'user', content: 'x' }],
      }),
    ).toThrow(/server tool web_search_20250305/);
    expect(() =>
      messagesToChat({
        model: 'g',
        max_tokens: 10,
        messages: [{ role: 'user', content: [{ type: 'document', source: {} }] }],
      }),
    ).toThrow(TranslationError);
  });
});

describe('round trips through the IR', () => {
  it('chat -> IR -> chat keeps a tool conversation', () => {
    const body = {
      model: 'm',
      messages: [
        { role: 'system', content: 'S' },
        { role: 'user', content: 'Q' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
        },
        { role: 'tool', tool_call_id: 'c', content: 'R' },
      ],
      tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
      tool_choice: 'auto',
    };
    const valid = validateChatRequest(body);
    if (!valid.ok) throw new Error(valid.message);
    const back = chatCodec.requestFromIr(chatCodec.requestToIr(valid.value), 'm');
    expect(back.messages).toEqual(body.messages);
    expect(back.tools).toEqual(body.tools);
    expect(back.tool_choice).toBe('auto');
  });
});
