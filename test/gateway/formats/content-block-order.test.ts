import { describe, expect, it } from 'vitest';
import { messagesCodec, chatCodec } from '../../../src/server/gateway/formats/index.js';
import { ContentBlockOrder } from '../../../src/server/gateway/formats/messages/content-block-order.js';
import { collect, eventsOf, OPENAI_INTERLEAVED_TOOL_STREAM, payloads } from './stream-fixtures.js';

/** Messages content blocks cannot interleave; chat tool calls can. */

describe('ContentBlockOrder', () => {
  it('streams sequential tool calls without holding anything back', () => {
    const order = new ContentBlockOrder();
    expect(order.text('Checking.')).toEqual([{ step: 'start_text' }, { step: 'text', text: 'Checking.' }]);
    expect(order.toolStart(0, 'a', 'f')).toEqual([{ step: 'stop' }, { step: 'start_tool', id: 'a', name: 'f' }]);
    expect(order.toolDelta(0, '{"x":1}')).toEqual([{ step: 'json', json: '{"x":1}' }]);
    expect(order.toolStart(1, 'b', 'g')).toEqual([{ step: 'stop' }, { step: 'start_tool', id: 'b', name: 'g' }]);
    expect(order.toolDelta(1, '{}')).toEqual([{ step: 'json', json: '{}' }]);
    expect(order.end()).toEqual([{ step: 'stop' }]);
  });

  it('holds a call that starts mid-arguments of another, and replays it once those complete', () => {
    const order = new ContentBlockOrder();
    order.toolStart(0, 'a', 'f');
    expect(order.toolDelta(0, '{"x":')).toEqual([{ step: 'json', json: '{"x":' }]);
    expect(order.toolStart(1, 'b', 'g')).toEqual([]);
    expect(order.toolDelta(1, '{"y":')).toEqual([]);
    expect(order.toolDelta(0, '1}')).toEqual([
      { step: 'json', json: '1}' },
      { step: 'stop' },
      { step: 'start_tool', id: 'b', name: 'g' },
      { step: 'json', json: '{"y":' },
    ]);
    // Call 1 is live now: its deltas stream again.
    expect(order.toolDelta(1, '2}')).toEqual([{ step: 'json', json: '2}' }]);
    expect(order.end()).toEqual([{ step: 'stop' }]);
  });

  it('keeps text that arrives mid-arguments in its place, and flushes arguments that never complete at the end', () => {
    const order = new ContentBlockOrder();
    order.toolStart(0, 'a', 'f');
    order.toolDelta(0, '{"x": [1');
    expect(order.text('Also')).toEqual([]);
    expect(order.text(' this.')).toEqual([]);
    expect(order.end()).toEqual([
      { step: 'stop' },
      { step: 'start_text' },
      { step: 'text', text: 'Also' },
      { step: 'text', text: ' this.' },
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
