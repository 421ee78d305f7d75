import { describe, expect, it } from 'vitest';
import {
  chatCodec,
  encodeResponsesStream,
  messagesCodec,
  responseEnvelope,
  type IrStreamEvent,
} from '../../../src/server/gateway/formats/index.js';
import { ContentBlockOrder } from '../../../src/server/gateway/formats/messages/content-block-order.js';
import { withoutUnsignedThinking } from '../../../src/server/gateway/formats/messages/unsigned-thinking.js';
import { anthropicEvent, anthropicMessageStart, collect, eventsOf, payloads } from './stream-fixtures.js';

const usage = () => ({ promptTokens: 3, completionTokens: 7 });

async function* irEvents(events: IrStreamEvent[]): AsyncGenerator<IrStreamEvent> {
  yield* events;
}

describe('a Claude model’s thinking for a chat client', () => {
  it('streams as reasoning_content deltas before the content', async () => {
    const upstream = [
      anthropicMessageStart('msg_1', 'claude-opus-4-7'),
      anthropicEvent('content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '' } }),
      anthropicEvent('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: 'Let me think.' } }),
      anthropicEvent('content_block_delta', { index: 0, delta: { type: 'signature_delta', signature: 'EqQB' } }),
      anthropicEvent('content_block_stop', { index: 0 }),
      anthropicEvent('content_block_start', { index: 1, content_block: { type: 'text', text: '' } }),
      anthropicEvent('content_block_delta', { index: 1, delta: { type: 'text_delta', text: 'Hi.' } }),
      anthropicEvent('content_block_stop', { index: 1 }),
      anthropicEvent('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 7 } }),
      anthropicEvent('message_stop', {}),
    ];
    const frames = await collect(
      chatCodec.encodeStream(messagesCodec.decodeStream(eventsOf(upstream)), {
        id: 'msg_1',
        model: 'claude',
        usage,
        includeUsage: false,
      }),
    );
    const deltas = (await payloads(frames)).flatMap(({ data }) => (data.choices ?? []).map((c: any) => c.delta));
    expect(deltas.filter((delta) => delta.reasoning_content !== undefined)).toEqual([
      { reasoning_content: 'Let me think.' },
    ]);
    const order = deltas.flatMap((delta) => (delta.reasoning_content ? ['reasoning'] : delta.content ? ['text'] : []));
    expect(order).toEqual(['reasoning', 'text']);
  });
});

describe('reasoning in Messages content blocks', () => {
  it('reasoning after text ends the text block and opens a thinking block', () => {
    const order = new ContentBlockOrder();
    const steps = [
      ...order.text('Hi', 'thinking'),
      ...order.text('A'),
      ...order.text('more', 'thinking'),
      ...order.end(false),
    ];
    expect(steps.map((step) => step.step)).toEqual([
      'start_thinking',
      'thinking',
      'stop',
      'start_text',
      'text',
      'stop',
      'start_thinking',
      'thinking',
      'stop',
    ]);
  });
});

describe('reasoning in a Responses stream', () => {
  it('is done before a tool call that follows it is added', async () => {
    const envelope = responseEnvelope({ model: 'm', input: 'hi' } as never, 'm');
    const frames = await collect(
      encodeResponsesStream(
        irEvents([
          { type: 'start', id: 'x', model: 'm' },
          { type: 'reasoning', text: 'Need the weather.' },
          { type: 'tool_call_start', index: 0, id: 'call_1', name: 'weather' },
          { type: 'tool_call_delta', index: 0, arguments: '{}' },
          { type: 'finish', stopReason: 'tool_calls', stopSequence: null },
        ]),
        envelope,
        usage,
      ),
    );
    const events = (await payloads(frames)).map(({ data }) => data);
    const types = events.map((event) => `${event.type}${event.item ? `:${event.item.type}` : ''}`);
    expect(types.indexOf('response.output_item.done:reasoning')).toBeLessThan(
      types.indexOf('response.output_item.added:function_call'),
    );
    const final = events.at(-1).response;
    expect(final.output.map((item: any) => item.type)).toEqual(['reasoning', 'function_call']);
    expect(final.output[0].summary).toEqual([{ type: 'summary_text', text: 'Need the weather.' }]);
  });
});

describe('thinking blocks the gateway wrote, sent on to Anthropic', () => {
  const signed = { type: 'thinking', thinking: 'Claude thought', signature: 'EqQBCgIYAhIM' };
  const unsigned = { type: 'thinking', thinking: 'another model thought', signature: '' };

  it('are left out, as Anthropic refuses a thinking block whose signature does not verify', () => {
    const body = {
      model: 'claude',
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: [unsigned, { type: 'text', text: 'Hello' }] },
        { role: 'user', content: 'And?' },
        { role: 'assistant', content: [signed, { type: 'text', text: 'So.' }] },
      ],
    };
    const sent = withoutUnsignedThinking(body);
    expect(sent.messages[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Hello' }] });
    expect(sent.messages[3]).toBe(body.messages[3]);
    expect(body.messages[1]!.content).toHaveLength(2);
  });

  it('take a turn holding nothing else with them, and leave a body without any untouched', () => {
    const body = {
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: [unsigned] },
      ],
    };
    expect(withoutUnsignedThinking(body).messages).toEqual([{ role: 'user', content: 'Hi' }]);
    const clean = { messages: [{ role: 'assistant', content: [signed] }] };
    expect(withoutUnsignedThinking(clean)).toBe(clean);
  });
});
