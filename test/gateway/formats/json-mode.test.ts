import { describe, expect, it } from 'vitest';
import {
  chatCodec,
  messagesCodec,
  validateChatRequest,
  type IrRequest,
} from '../../../src/server/gateway/formats/index.js';
import { collect, eventsOf, payloads } from './stream-fixtures.js';

/** Anthropic answers to JSON-mode requests: the answer tool's input comes back as the text (LiteLLM's json_mode). */

function irOf(responseFormat: object): IrRequest {
  const valid = validateChatRequest({
    model: 'claude',
    messages: [{ role: 'user', content: 'Who?' }],
    response_format: responseFormat,
  });
  if (!valid.ok) throw new Error(valid.message);
  return chatCodec.requestToIr(valid.value);
}

const person = irOf({
  type: 'json_schema',
  json_schema: { name: 'person', schema: { type: 'object', properties: { name: { type: 'string' } } } },
});
const names = irOf({
  type: 'json_schema',
  json_schema: { name: 'names', schema: { type: 'array', items: { type: 'string' } } },
});
const usage = { promptTokens: 9, completionTokens: 4 };

const answer = (content: object[], stopReason = 'tool_use') => ({
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-upstream',
  content,
  stop_reason: stopReason,
  stop_sequence: null,
  usage: { input_tokens: 9, output_tokens: 4 },
});
const answerCall = (input: object) => ({ type: 'tool_use', id: 'toolu_1', name: 'json_tool_call', input });

describe('a JSON answer', () => {
  it('becomes the message content with finish_reason stop', () => {
    const ir = messagesCodec.responseToIr(answer([answerCall({ name: 'Ada' })]), person);
    expect(ir.content).toEqual([{ type: 'text', text: '{"name":"Ada"}' }]);
    expect(ir.stopReason).toBe('stop');
    const chat = chatCodec.responseFromIr(ir, 'public-claude', usage) as {
      choices: Array<{ message: object; finish_reason: string }>;
    };
    expect(chat.choices[0]).toMatchObject({
      message: { role: 'assistant', content: '{"name":"Ada"}', refusal: null },
      finish_reason: 'stop',
    });
    expect(chat.choices[0].message).not.toHaveProperty('tool_calls');
  });

  it('is unwrapped from {values} when the schema was not an object', () => {
    expect(messagesCodec.responseToIr(answer([answerCall({ values: ['Ada', 'Alan'] })]), names).content).toEqual([
      { type: 'text', text: '["Ada","Alan"]' },
    ]);
  });

  it("leaves the client's own tool calls as they are, and answers without a JSON format untouched", () => {
    const mixed = messagesCodec.responseToIr(
      answer([
        { type: 'tool_use', id: 'toolu_0', name: 'weather', input: { city: 'Rome' } },
        answerCall({ name: 'Ada' }),
      ]),
      person,
    );
    expect(mixed.content).toEqual([
      { type: 'tool_call', id: 'toolu_0', name: 'weather', arguments: '{"city":"Rome"}' },
      { type: 'text', text: '{"name":"Ada"}' },
    ]);
    expect(mixed.stopReason).toBe('tool_calls');
    const plain = messagesCodec.responseToIr(answer([answerCall({ name: 'Ada' })]));
    expect(plain.content[0]).toMatchObject({ type: 'tool_call', name: 'json_tool_call' });
  });
});

const event = (type: string, payload: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...payload })}\n\n`;
const jsonStream = (parts: readonly string[]) => [
  event('message_start', { message: answer([], null as never) }),
  event('content_block_start', {
    index: 0,
    content_block: { type: 'tool_use', id: 'toolu_1', name: 'json_tool_call', input: {} },
  }),
  event('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '' } }),
  ...parts.map((part) =>
    event('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: part } }),
  ),
  event('content_block_stop', { index: 0 }),
  event('message_delta', { delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 4 } }),
  event('message_stop', {}),
];

async function chatDeltas(frames: readonly string[], request: IrRequest) {
  const ir = messagesCodec.decodeStream(eventsOf(frames), request);
  const chunks = (
    await payloads(
      await collect(chatCodec.encodeStream(ir, { id: 'msg_1', model: 'm', usage: () => usage, includeUsage: false })),
    )
  ).map((item) => item.data);
  return { deltas: chunks.map((chunk) => chunk.choices[0].delta), finish: chunks.at(-1).choices[0].finish_reason };
}

describe('a streamed JSON answer', () => {
  it('streams the answer tool input as content deltas, as they arrive, ending with stop', async () => {
    const { deltas, finish } = await chatDeltas(jsonStream(['{"name"', ': "Ada"}']), person);
    expect(deltas).toEqual([{ role: 'assistant', content: '' }, { content: '{"name"' }, { content: ': "Ada"}' }, {}]);
    expect(finish).toBe('stop');
  });

  it('holds a wrapped answer until the call ends, then sends it unwrapped', async () => {
    const { deltas, finish } = await chatDeltas(jsonStream(['{"values": ["A', 'da"]}']), names);
    expect(deltas).toEqual([{ role: 'assistant', content: '' }, { content: '["Ada"]' }, {}]);
    expect(finish).toBe('stop');
  });
});
