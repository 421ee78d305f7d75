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

  it('gives the same events for a payload split into two or three chunks at every byte position', () => {
    // CRLF and LF frames, multi-line data, a comment, an event name with a trailing space, 2-, 3- and 4-byte
    // characters, and a final frame without its blank line.
    const text =
      ': ping\r\nevent: message_start\r\ndata: {"a":"é"}\r\n\r\n' +
      'data: line1 ✓\ndata: line2 🎉\n\nevent: delta \ndata: {"b":2}\n\ndata: [DONE]';
    const bytes = new TextEncoder().encode(text);
    const expected = [
      { event: 'message_start', data: '{"a":"é"}' },
      { data: 'line1 ✓\nline2 🎉' },
      { event: 'delta ', data: '{"b":2}' },
      { data: '[DONE]' },
    ];
    const parse = (cuts: number[]) => {
      const parser = new SseParser();
      const out = [];
      let start = 0;
      for (const cut of [...cuts, bytes.length]) {
        out.push(...parser.push(bytes.slice(start, cut)));
        start = cut;
      }
      return [...out, ...parser.end()];
    };
    expect(parse([])).toEqual(expected);
    for (let i = 0; i <= bytes.length; i++) {
      expect(parse([i]), `split at ${i}`).toEqual(expected);
      for (let j = i; j <= bytes.length; j++) expect(parse([i, j]), `split at ${i} and ${j}`).toEqual(expected);
    }
  });

  it('ends a final frame left on a lone CR or a single newline', () => {
    const parser = new SseParser();
    expect(parser.push('data: a\r')).toEqual([]);
    expect(parser.end()).toEqual([{ data: 'a' }]);
    expect(parser.push('data: b\n')).toEqual([]);
    expect(parser.end()).toEqual([{ data: 'b' }]);
  });

  it('ignores id, retry and unknown fields, and dispatches nothing for a frame without data', () => {
    const parser = new SseParser();
    const events = parser.push('id: 7\nretry: x\nfoo: bar\ndata: a\n\nevent: lonely\n\n');
    expect(events).toEqual([{ data: 'a' }]);
    expect(Object.keys(events[0]!)).toEqual(['data']);
  });

  it('re-encodes events', () => {
    expect(encodeEvent({ data: 'a\nb' })).toBe('data: a\ndata: b\n\n');
    expect(encodeEvent({ event: 'ping', data: '{}' })).toBe('event: ping\ndata: {}\n\n');
  });
});
