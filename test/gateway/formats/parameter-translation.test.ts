import { describe, expect, it } from 'vitest';
import {
  chatCodec,
  messagesCodec,
  responsesRequestToIr,
  TranslationError,
  validateChatRequest,
  validateMessagesRequest,
  validateResponsesRequest,
} from '../../../src/server/gateway/formats/index.js';

/** Parameters beyond the conversation: JSON answers, refused and dropped parameters, tool-only histories. */

function chatToMessages(body: object) {
  const valid = validateChatRequest({ model: 'claude', messages: [{ role: 'user', content: 'x' }], ...body });
  if (!valid.ok) throw new Error(valid.message);
  return messagesCodec.requestFromIr(chatCodec.requestToIr(valid.value), 'claude-upstream');
}

function messagesToChat(body: object) {
  const valid = validateMessagesRequest({
    model: 'gpt',
    max_tokens: 10,
    messages: [{ role: 'user', content: 'x' }],
    ...body,
  });
  if (!valid.ok) throw new Error(valid.message);
  return chatCodec.requestFromIr(messagesCodec.requestToIr(valid.value), 'gpt-upstream');
}

const person = {
  type: 'object',
  properties: { name: { type: 'string' } },
  required: ['name'],
  additionalProperties: false,
};
const weather = {
  type: 'function',
  function: { name: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
};
const forcedAnswer = { type: 'tool', name: 'json_tool_call', disable_parallel_tool_use: true };

describe('response_format, chat -> Messages (LiteLLM: a forced tool whose input is the answer)', () => {
  it('turns json_schema into the answer tool and forces it', () => {
    const out = chatToMessages({
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'person', description: 'A person', schema: person, strict: true },
      },
    });
    expect(out.tools).toEqual([{ name: 'json_tool_call', description: 'A person', input_schema: person }]);
    expect(out.tool_choice).toEqual(forcedAnswer);
  });

  it('turns json_object into an open object schema, and llama.cpp-style json_object schemas into that schema', () => {
    expect(chatToMessages({ response_format: { type: 'json_object' } }).tools).toEqual([
      { name: 'json_tool_call', input_schema: { type: 'object', properties: {}, additionalProperties: true } },
    ]);
    expect(chatToMessages({ response_format: { type: 'json_object', schema: person } }).tools).toEqual([
      { name: 'json_tool_call', input_schema: person },
    ]);
  });

  it('wraps a non-object schema in {values}, keeping definitions at the root', () => {
    const list = { type: 'array', items: { $ref: '#/$defs/item' }, $defs: { item: { type: 'string' } } };
    const out = chatToMessages({
      response_format: { type: 'json_schema', json_schema: { name: 'list', schema: list } },
    });
    expect(out.tools).toEqual([
      {
        name: 'json_tool_call',
        input_schema: {
          type: 'object',
          properties: { values: { type: 'array', items: { $ref: '#/$defs/item' } } },
          required: ['values'],
          $defs: { item: { type: 'string' } },
        },
      },
    ]);
  });

  it("keeps the client's tools usable: any tool when it offered some, its own forced tool, the answer tool when it forbade them", () => {
    const schema = { type: 'json_schema', json_schema: { name: 'p', schema: person } };
    const auto = chatToMessages({ tools: [weather], response_format: schema, parallel_tool_calls: false });
    expect((auto.tools as Array<{ name: string }>).map((tool) => tool.name)).toEqual(['weather', 'json_tool_call']);
    expect(auto.tool_choice).toEqual({ type: 'any', disable_parallel_tool_use: true });
    expect(
      chatToMessages({
        tools: [weather],
        tool_choice: { type: 'function', function: { name: 'weather' } },
        response_format: schema,
      }).tool_choice,
    ).toEqual({ type: 'tool', name: 'weather' });
    expect(chatToMessages({ tools: [weather], tool_choice: 'none', response_format: schema }).tool_choice).toEqual(
      forcedAnswer,
    );
  });

  it('treats text as no format and refuses types it cannot translate, naming the field', () => {
    const out = chatToMessages({ response_format: { type: 'text' } });
    expect(out.tools).toBeUndefined();
    expect(out.tool_choice).toBeUndefined();
    expect(() => chatToMessages({ response_format: { type: 'structural_tag' } })).toThrow(
      new TranslationError(
        'response_format.type: "structural_tag" cannot be translated for this model',
        'response_format.type',
      ),
    );
    expect(
      validateChatRequest({ model: 'm', messages: [{ role: 'user', content: 'x' }], response_format: {} }),
    ).toEqual({ ok: false, message: 'response_format.type is required', param: 'response_format.type' });
  });
});

describe('chat parameters with no Anthropic equivalent', () => {
  it.each([
    [{ n: 2 }, 'n: this model generates one choice per request, got 2'],
    [{ logprobs: true }, 'logprobs: this model does not return log probabilities'],
    [{ top_logprobs: 3 }, 'top_logprobs: this model does not return log probabilities'],
    [{ logit_bias: { 50256: -100 } }, 'logit_bias: this model does not take token biases'],
    [{ audio: { voice: 'alloy', format: 'wav' } }, 'audio: this model does not generate audio'],
    [{ modalities: ['text', 'audio'] }, 'modalities: this model does not generate audio'],
    [
      { functions: [{ name: 'f' }] },
      'functions: legacy function calling is not translated for this model; send tools and tool_choice',
    ],
    [{ web_search_options: {} }, 'web_search_options: web search is not available for this model'],
  ])('refuses %j with a message naming the parameter', (params, message) => {
    const param = message.slice(0, message.indexOf(':'));
    expect(() => chatToMessages(params)).toThrow(new TranslationError(message, param));
  });

  it('accepts their harmless settings and drops the sampling and account parameters', () => {
    const out = chatToMessages({
      n: 1,
      logprobs: false,
      logit_bias: {},
      modalities: ['text'],
      seed: 7,
      frequency_penalty: 0.5,
      presence_penalty: 0.5,
      service_tier: 'auto',
      store: true,
      metadata: { k: 'v' },
      prediction: { type: 'content', content: 'x' },
    });
    expect(out).toEqual({ model: 'claude-upstream', max_tokens: 4096, messages: [{ role: 'user', content: 'x' }] });
  });
});

describe('a history with tool calls but no tools, to Anthropic', () => {
  const history = [
    { role: 'user', content: 'Weather?' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }],
    },
    { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
    { role: 'user', content: 'Thanks, and so?' },
  ];
  const placeholder = {
    name: 'dummy_tool',
    description: 'This is a dummy tool call',
    input_schema: { type: 'object', properties: {} },
  };

  it('gets the placeholder tool Anthropic needs, and tool_choice none so the model cannot call it', () => {
    for (const extra of [{}, { tools: [] }]) {
      const out = chatToMessages({ messages: history, ...extra });
      expect(out.tools).toEqual([placeholder]);
      expect(out.tool_choice).toEqual({ type: 'none' });
      expect((out.messages as Array<{ content: Array<{ type: string }> }>)[1].content[0].type).toBe('tool_use');
    }
  });

  it('needs no placeholder when real tools or the answer tool are there', () => {
    expect((chatToMessages({ messages: history, tools: [weather] }).tools as unknown[]).length).toBe(1);
    expect(chatToMessages({ messages: history, response_format: { type: 'json_object' } }).tool_choice).toEqual(
      forcedAnswer,
    );
  });
});

describe('Messages -> chat completions', () => {
  it('maps structured outputs (GA output_config.format and the beta output_format) to response_format', () => {
    const expected = { type: 'json_schema', json_schema: { name: 'response', schema: person } };
    expect(
      messagesToChat({ output_config: { format: { type: 'json_schema', schema: person } } }).response_format,
    ).toEqual(expected);
    expect(messagesToChat({ output_format: { type: 'json_schema', schema: person } }).response_format).toEqual(
      expected,
    );
    expect(() => messagesToChat({ output_config: { format: { type: 'xml' } } })).toThrow(
      /^output_config\.format: only/,
    );
  });

  it('drops top_k and thinking, refuses MCP connectors and containers', () => {
    const out = messagesToChat({ top_k: 5, thinking: { type: 'enabled', budget_tokens: 1024 } });
    expect(out).toEqual({ model: 'gpt-upstream', messages: [{ role: 'user', content: 'x' }], max_tokens: 10 });
    expect(() => messagesToChat({ mcp_servers: [{ type: 'url', url: 'https://x', name: 'x' }] })).toThrow(
      new TranslationError('mcp_servers: only Anthropic models can run MCP connectors'),
    );
    expect(() => messagesToChat({ container: 'c_1' })).toThrow(/^container: /);
  });
});

describe('Responses -> IR', () => {
  it('reads text.format as the JSON answer format', () => {
    const valid = validateResponsesRequest({
      model: 'm',
      input: 'x',
      text: { format: { type: 'json_schema', name: 'person', schema: person, strict: true } },
    });
    if (!valid.ok) throw new Error(valid.message);
    expect(responsesRequestToIr(valid.value).responseFormat).toEqual({
      type: 'json',
      name: 'person',
      schema: person,
      strict: true,
    });
    const other = validateResponsesRequest({ model: 'm', input: 'x', text: { format: { type: 'grammar' } } });
    if (!other.ok) throw new Error(other.message);
    expect(() => responsesRequestToIr(other.value)).toThrow(/^text\.format\.type: /);
  });
});
