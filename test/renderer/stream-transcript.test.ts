import { describe, expect, it } from 'vitest';
import { transcriptEvents } from '../../src/renderer/src/lib/stream-transcript.js';

describe('stream transcripts in the traffic drawer', () => {
  it('lists a Responses stream by event name, with deltas, items and the final status', () => {
    const frame = (type: string, payload: object) =>
      `event: ${type}\ndata: ${JSON.stringify({ type, ...payload })}\n\n`;
    const text =
      frame('response.created', { response: { status: 'in_progress' } }) +
      frame('response.output_item.added', { item: { type: 'function_call', name: 'get_weather' } }) +
      frame('response.output_text.delta', { delta: 'Hello' }) +
      frame('response.completed', { response: { status: 'completed' } });
    expect(transcriptEvents(text)).toEqual([
      { name: 'response.created', summary: 'status in_progress' },
      { name: 'response.output_item.added', summary: 'function_call get_weather' },
      { name: 'response.output_text.delta', summary: '"Hello"' },
      { name: 'response.completed', summary: 'status completed' },
    ]);
  });

  it('reads chat chunks, Messages deltas and errors, and leaves plain JSON alone', () => {
    const chat = `data: {"choices":[{"delta":{"content":"Hi"}}]}\n\ndata: {"error":{"message":"boom"}}\n\ndata: [DONE]\n\n`;
    expect(transcriptEvents(chat)).toEqual([
      { name: 'chunk', summary: '"Hi"' },
      { name: 'chunk', summary: 'error: boom' },
      { name: 'done', summary: '[DONE]' },
    ]);
    const messages = `event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"type":"text_delta","text":"Yo"}}\n\n`;
    expect(transcriptEvents(messages)).toEqual([{ name: 'content_block_delta', summary: '"Yo"' }]);
    expect(transcriptEvents('{"object":"response"}')).toBeUndefined();
  });

  it('says how a stream ended: the finish reason and the token counts', () => {
    const chat =
      'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n' +
      'data: {"choices":[],"usage":{"prompt_tokens":12,"completion_tokens":9,"total_tokens":21}}\n\n';
    expect(transcriptEvents(chat)).toEqual([
      { name: 'chunk', summary: 'finish stop' },
      { name: 'chunk', summary: 'usage 12+9' },
    ]);
    const messages =
      'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":7}}\n\n';
    expect(transcriptEvents(messages)).toEqual([{ name: 'message_delta', summary: 'finish end_turn, usage 7' }]);
  });
});
