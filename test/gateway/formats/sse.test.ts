import { describe, expect, it } from 'vitest';
import { encodeEvent, parseSse, SseParser } from '../../../src/server/gateway/formats/sse.js';

async function* chunks(...parts: string[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield new TextEncoder().encode(part);
}

async function collect(parts: string[]) {
  const out = [];
  for await (const event of parseSse(chunks(...parts))) out.push(event);
  return out;
}

describe('SSE parser', () => {
  it('parses data and event frames split anywhere', async () => {
    const text = 'event: message_start\ndata: {"a":1}\n\ndata: {"b":2}\n\ndata: [DONE]\n\n';
    const whole = await collect([text]);
    const byteByByte = await collect([...text]);
    expect(whole).toEqual([{ event: 'message_start', data: '{"a":1}' }, { data: '{"b":2}' }, { data: '[DONE]' }]);
    expect(byteByByte).toEqual(whole);
  });

  it('handles CRLF split between chunks, comments, multi-line data and a missing final blank line', async () => {
    const events = await collect([
      ': keep-alive\r',
      '\n\r\ndata: line1\r',
      '\ndata: line2\r\n\r',
      '\nevent: x\ndata:nospace',
    ]);
    expect(events).toEqual([{ data: 'line1\nline2' }, { event: 'x', data: 'nospace' }]);
  });

  it('decodes UTF-8 split inside a character', () => {
    const bytes = new TextEncoder().encode('data: héllo ✓\n\n');
    const parser = new SseParser();
    const first = parser.push(bytes.slice(0, 9));
    const second = parser.push(bytes.slice(9));
    expect([...first, ...second]).toEqual([{ data: 'héllo ✓' }]);
  });

  it('re-encodes events', () => {
    expect(encodeEvent({ data: 'a\nb' })).toBe('data: a\ndata: b\n\n');
    expect(encodeEvent({ event: 'ping', data: '{}' })).toBe('event: ping\ndata: {}\n\n');
  });
});
