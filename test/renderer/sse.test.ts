import { describe, expect, it } from 'vitest';
import { readSse } from '../../src/renderer/src/lib/sse.js';

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function collect(chunks: string[]) {
  const out = [];
  for await (const message of readSse(streamOf(chunks))) out.push(message);
  return out;
}

describe('readSse', () => {
  it('parses events split across chunks', async () => {
    const messages = await collect([
      'event: traffic\nid: 7\nda',
      'ta: {"a":1}\n\n',
      ': keep-alive\n\ndata: x\n',
      'data: y\n\n',
    ]);
    expect(messages).toEqual([
      { event: 'traffic', data: '{"a":1}', id: '7' },
      { event: 'message', data: 'x\ny', id: '7' },
    ]);
  });

  it('accepts CRLF line endings', async () => {
    expect(await collect(['event: invalidate\r\ndata: {}\r\n\r\n'])).toEqual([
      { event: 'invalidate', data: '{}', id: undefined },
    ]);
  });
});
