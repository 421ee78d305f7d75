import { describe, expect, it } from 'vitest';
import { messagesCodec, chatCodec } from '../../../src/server/gateway/formats/index.js';
import { ContentBlockOrder } from '../../../src/server/gateway/formats/messages/content-block-order.js';
import { collect, eventsOf, OPENAI_INTERLEAVED_TOOL_STREAM, payloads } from './stream-fixtures.js';

/** Messages content blocks cannot interleave; chat tool calls can. */

describe('ContentBlockOrder', () => {
  it('streams text as it arrives, and a tool call as one block once its arguments are complete JSON', () => {
    const order = new ContentBlockOrder();
    expect(order.text('Checking.')).toEqual([{ step: 'start_text' }, { step: 'text', text: 'Checking.' }]);
    expect(order.text(' Now.')).toEqual([{ step: 'text', text: ' Now.' }]);
    expect(order.toolStart(0, 'a', 'f')).toEqual([]);
    expect(order.toolDelta(0, '{"x":')).toEqual([]);
    expect(order.toolDelta(0, '1}')).toEqual([
      { step: 'stop' },
      { step: 'start_tool', id: 'a', name: 'f' },
      { step: 'json', json: '{"x":1}' },
      { step: 'stop' },
    ]);
    order.toolStart(1, 'b', 'g');
    expect(order.toolDelta(1, '{}')).toEqual([
      { step: 'start_tool', id: 'b', name: 'g' },
      { step: 'json', json: '{}' },
      { step: 'stop' },
    ]);
    expect(order.toolDelta(1, '}')).toEqual([]);
    expect(order.end(false)).toEqual([]);
  });

  it('holds a call that starts mid-arguments of another, and sends both in order once the first completes', () => {
    const order = new ContentBlockOrder();
    order.toolStart(0, 'a', 'f');
    expect(order.toolDelta(0, '{"x":')).toEqual([]);
    expect(order.toolStart(1, 'b', 'g')).toEqual([]);
    expect(order.toolDelta(1, '{"y":2}')).toEqual([]);
    expect(order.toolDelta(0, '1}')).toEqual([
      { step: 'start_tool', id: 'a', name: 'f' },
      { step: 'json', json: '{"x":1}' },
      { step: 'stop' },
      { step: 'start_tool', id: 'b', name: 'g' },
      { step: 'json', json: '{"y":2}' },
      { step: 'stop' },
    ]);
    expect(order.end(false)).toEqual([]);
  });

  it('keeps text that arrives mid-arguments in its place, and sends arguments that never complete at the end, wrapped', () => {
    const order = new ContentBlockOrder();
    order.toolStart(0, 'a', 'f');
    order.toolDelta(0, '{"x": [1');
    expect(order.text('Also')).toEqual([]);
    expect(order.text(' this.')).toEqual([]);
    expect(order.end(false)).toEqual([
      { step: 'start_tool', id: 'a', name: 'f' },
      { step: 'json', json: '{"_raw_arguments":"{\\"x\\": [1"}' },
      { step: 'stop' },
      { step: 'start_text' },
      { step: 'text', text: 'Also' },
      { step: 'text', text: ' this.' },
      { step: 'stop' },
    ]);
  });

  it('leaves out a call the token limit cut off, and nothing else', () => {
    const order = new ContentBlockOrder();
    order.text('Writing.');
    order.toolStart(0, 'a', 'f');
    order.toolDelta(0, '{"path": "a.txt", "content": "Dea');
    order.toolStart(1, 'b', 'g');
    order.toolDelta(1, '{}');
    expect(order.end(true)).toEqual([
      { step: 'stop' },
      { step: 'start_tool', id: 'b', name: 'g' },
      { step: 'json', json: '{}' },
      { step: 'stop' },
    ]);
  });
});

describe('interleaved OpenAI tool calls -> Messages events', () => {
  it('emits one complete block per call, never interleaved, losing no delta', async () => {
    const ir = chatCodec.decodeStream(eventsOf(OPENAI_INTERLEAVED_TOOL_STREAM));
    const out = await payloads(
      await collect(
        messagesCodec.encodeStream(ir, {
          id: 'x',
          model: 'm',
          usage: () => ({ promptTokens: 1, completionTokens: 1 }),
          includeUsage: false,
        }),
      ),
    );
    const open: number[] = [];
    const input = new Map<number, string>();
    for (const { event, data } of out) {
      if (event === 'content_block_start') {
        expect(open).toEqual([]);
        open.push(data.index);
        input.set(data.index, '');
      } else if (event === 'content_block_delta') {
        expect(open).toEqual([data.index]);
        input.set(data.index, input.get(data.index) + data.delta.partial_json);
      } else if (event === 'content_block_stop') {
        expect(open).toEqual([data.index]);
        open.pop();
      }
    }
    expect([...input.values()].map((text) => JSON.parse(text))).toEqual([
      { city: 'Paris' },
      { zone: 'CET' },
      { city: 'Rome' },
    ]);
    expect(
      out.filter((item) => item.event === 'content_block_start').map((item) => item.data.content_block.id),
    ).toEqual(['call_a', 'call_b', 'call_c']);
  });
});
