import { describe, expect, it } from 'vitest';
import { PiiRestorer } from '../../../src/server/gateway/guardrails/pii/restorer.js';
import {
  parseFrames,
  StreamRestore,
  type StreamFormat,
} from '../../../src/server/gateway/guardrails/pii/stream-restore.js';

const ORIGINALS = new Map([
  ['[EMAIL_1]', 'jane@example.com'],
  ['[PHONE_1]', '+1 415 555 0132'],
  ['[EMAIL_12]', 'joe@example.org'],
]);

// Known placeholders, one never restored (a secret), unfinished look-alikes, and one at the very end.
const TEXT = 'Hi [EMAIL_1], call [PHONE_1]; key [SECRET_1]; [EM dash [EMAIL_12] [x] [[EMAIL_1]][EMAIL_1';
const ARGS = '{"to":"[EMAIL_1]","cc":["[EMAIL_12]"],"note":"[PHONE_1]"}';

/** Frames of one streamed answer carrying `pieces` as text deltas and `argPieces` as tool-call argument deltas. */
function upstreamFrames(format: StreamFormat, pieces: string[], argPieces: string[]): string[] {
  switch (format) {
    case 'chat': {
      const chunk = (delta: object, finish: string | null = null) =>
        `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      return [
        chunk({ role: 'assistant', content: '' }),
        ...pieces.map((content) => chunk({ content })),
        chunk({
          tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'send', arguments: '' } }],
        }),
        ...argPieces.map((a) => chunk({ tool_calls: [{ index: 0, function: { arguments: a } }] })),
        chunk({}, 'tool_calls'),
        'data: [DONE]\n\n',
      ];
    }
    case 'messages': {
      const ev = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
      return [
        ev('message_start', { message: { id: 'm', content: [] } }),
        ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
        ...pieces.map((text) => ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text } })),
        ev('content_block_stop', { index: 0 }),
        ev('content_block_start', { index: 1, content_block: { type: 'tool_use', id: 't', name: 'send', input: {} } }),
        ...argPieces.map((p) =>
          ev('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: p } }),
        ),
        ev('content_block_stop', { index: 1 }),
        ev('message_delta', { delta: { stop_reason: 'tool_use' } }),
        ev('message_stop', {}),
      ];
    }
    case 'responses': {
      let seq = 0;
      const ev = (type: string, data: object) =>
        `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`;
      return [
        ev('response.created', { response: { id: 'r', output: [] } }),
        ...pieces.map((delta) =>
          ev('response.output_text.delta', { item_id: 'msg', output_index: 0, content_index: 0, delta, logprobs: [] }),
        ),
        ev('response.output_text.done', { item_id: 'msg', output_index: 0, content_index: 0, text: TEXT }),
        ...argPieces.map((delta) =>
          ev('response.function_call_arguments.delta', { item_id: 'fc', output_index: 1, delta }),
        ),
        ev('response.function_call_arguments.done', { item_id: 'fc', output_index: 1, arguments: ARGS }),
        ev('response.completed', { response: { id: 'r', output: [{ type: 'message', content: [{ text: TEXT }] }] } }),
      ];
    }
  }
}

/** The text and argument deltas a client reads, concatenated, plus every event as parsed. */
function clientView(format: StreamFormat, frames: string): { text: string; args: string; events: any[] } {
  let text = '';
  let args = '';
  const events: any[] = [];
  for (const event of parseFrames(frames)) {
    if (event.data === '[DONE]') continue;
    const json = JSON.parse(event.data);
    events.push(json);
    if (format === 'chat') {
      const delta = json.choices[0]?.delta ?? {};
      text += delta.content ?? '';
      for (const call of delta.tool_calls ?? []) args += call.function?.arguments ?? '';
    } else if (format === 'messages' && json.type === 'content_block_delta') {
      if (json.index === 0) text += json.delta.text;
      else args += json.delta.partial_json;
    } else if (format === 'responses') {
      if (json.type === 'response.output_text.delta') text += json.delta;
      if (json.type === 'response.function_call_arguments.delta') args += json.delta;
    }
  }
  return { text, args, events };
}

const split = (text: string, at: number): string[] => [text.slice(0, at), text.slice(at)];

describe('stream restore', () => {
  const expected = new PiiRestorer(ORIGINALS);
  const wantText = expected.text(TEXT);
  const wantArgs = expected.text(ARGS);

  it('restores whole texts, leaving unknown placeholders (secrets) as they are', () => {
    expect(wantText).toBe(
      'Hi jane@example.com, call +1 415 555 0132; key [SECRET_1]; [EM dash joe@example.org [x] [jane@example.com][EMAIL_1',
    );
    expect(JSON.parse(wantArgs)).toEqual({ to: 'jane@example.com', cc: ['joe@example.org'], note: '+1 415 555 0132' });
  });

  for (const format of ['chat', 'messages', 'responses'] as const) {
    it(`${format}: every split of the text and of the arguments restores exactly`, () => {
      const longest = Math.max(TEXT.length, ARGS.length);
      for (let at = 0; at <= longest; at += 1) {
        const restore = new StreamRestore(format, new PiiRestorer(ORIGINALS));
        const out = upstreamFrames(format, split(TEXT, at), split(ARGS, at))
          .map((frame) => restore.frame(frame))
          .join('');
        const view = clientView(format, out);
        expect(view.text, `text split at ${at}`).toBe(wantText);
        expect(view.args, `arguments split at ${at}`).toBe(wantArgs);
        if (format === 'responses') {
          // Sequence numbers stay strictly increasing when a held piece gets an event of its own.
          const numbers = view.events.map((event) => event.sequence_number);
          expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
          expect(new Set(numbers).size).toBe(numbers.length);
          expect(view.events.at(-1).response.output[0].content[0].text).toBe(wantText);
        }
      }
    });

    it(`${format}: one character per delta, holding back no more than an unfinished placeholder`, () => {
      const restorer = new PiiRestorer(ORIGINALS);
      const restore = new StreamRestore(format, restorer);
      const frames = upstreamFrames(format, [...TEXT], [...ARGS]);
      let out = '';
      let fed = '';
      for (const frame of frames) {
        out += restore.frame(frame);
        const view = clientView(format, out);
        const piece = clientView(format, frame).text;
        fed += piece;
        // What the client has is the restored text so far, short of at most one unfinished placeholder.
        expect(wantText.startsWith(view.text)).toBe(true);
        expect(expected.text(fed).length - view.text.length).toBeLessThan(24);
      }
      const view = clientView(format, out);
      expect(view.text).toBe(wantText);
      expect(view.args).toBe(wantArgs);
    });
  }

  it("leaves the model's reasoning as it wrote it: thinking blocks and deltas, reasoning items", () => {
    const restorer = new PiiRestorer(ORIGINALS);
    const answer = {
      content: [
        { type: 'thinking', thinking: 'mail [EMAIL_1]', signature: 'sig' },
        { type: 'text', text: 'mail [EMAIL_1]' },
      ],
    };
    expect(JSON.parse(restorer.json(JSON.stringify(answer))).content).toEqual([
      { type: 'thinking', thinking: 'mail [EMAIL_1]', signature: 'sig' },
      { type: 'text', text: 'mail jane@example.com' },
    ]);
    const response = { output: [{ type: 'reasoning', summary: [{ type: 'summary_text', text: '[EMAIL_1]' }] }] };
    expect(restorer.json(JSON.stringify(response))).toBe(JSON.stringify(response));
    const restore = new StreamRestore('messages', restorer);
    const thinking =
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"[EMAIL_1]"}}\n\n';
    expect(restore.frame(thinking)).toBe(thinking);
    const summary =
      'event: response.reasoning_summary_text.done\ndata: {"type":"response.reasoning_summary_text.done","text":"[EMAIL_1]"}\n\n';
    expect(new StreamRestore('responses', restorer).frame(summary)).toBe(summary);
    // A chat answer's reasoning text, whole or streamed, as DeepSeek's API and OpenRouter write it.
    const chat = { choices: [{ message: { content: '[EMAIL_1]', reasoning_content: 'to [EMAIL_1]' } }] };
    expect(JSON.parse(restorer.json(JSON.stringify(chat))).choices[0].message).toEqual({
      content: 'jane@example.com',
      reasoning_content: 'to [EMAIL_1]',
    });
    const delta = 'data: {"id":"x","choices":[{"index":0,"delta":{"reasoning":"to [EMAIL_1]"}}]}\n\n';
    expect(new StreamRestore('chat', restorer).frame(delta)).toBe(delta);
  });

  it('passes frames without placeholders on untouched', () => {
    const restore = new StreamRestore('chat', new PiiRestorer(ORIGINALS));
    const frame = 'data: {"id":"x","choices":[{"index":0,"delta":{"content":"plain"}}]}\n\n';
    expect(restore.frame(frame)).toBe(frame);
  });
});
