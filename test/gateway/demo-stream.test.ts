import Anthropic from '@anthropic-ai/sdk';
import { connect, type Socket } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

// The demo provider produces its answer as the client reads it: a megabyte prompt whose streamed
// answer nobody reads costs no array of its words and no long synchronous work, so the gateway
// keeps answering everyone else; and a long answer is still exact, word for word.

/** About `chars` characters of words of varied length, separated by varied whitespace. */
function prompt(chars: number): string {
  const words = ['alpha', 'b', 'gamma-delta', 'é', '42', 'x_y', 'ω', 'zz'];
  const spaces = [' ', ' ', '  ', '\n', '\t', '\u00a0', '\u3000', ' \n '];
  const parts: string[] = [];
  let length = 0;
  for (let index = 0; length < chars; index += 1) {
    const part = words[index % words.length]! + spaces[(index * 7) % spaces.length]!;
    parts.push(part);
    length += part.length;
  }
  return parts.join('');
}

describe('demo/echo streams lazily', () => {
  let harness: GatewayHarness;
  let key: string;

  beforeAll(async () => {
    harness = await startGatewayHarness();
    key = (await harness.issueKey({ scopes: ['*'] })).key;
  });
  afterAll(async () => harness.close());

  it('keeps answering /healthz, without holding each prompt as words, while 20 megabyte-prompt streams are never read', async () => {
    const { hostname, port } = new URL(harness.url);
    // Half a million one-letter words: the most tokens a megabyte can hold.
    const body = Buffer.from(
      JSON.stringify({ model: 'demo/echo', stream: true, messages: [{ role: 'user', content: 'a '.repeat(500_000) }] }),
    );
    const head =
      `POST /v1/chat/completions HTTP/1.1\r\nhost: ${hostname}:${port}\r\nauthorization: Bearer ${key}\r\n` +
      `content-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`;
    const sockets: Socket[] = [];
    // The gateway runs in this process: its heap is this heap.
    const heapBefore = process.memoryUsage().heapUsed;
    const closed = new Set<Socket>();
    const latencies: number[] = [];
    let opening = true;
    const probing = (async () => {
      // Probes while the requests arrive and for a while after: bounded in count and time.
      for (let probe = 0; probe < 200 && (opening || probe < 60); probe += 1) {
        const started = performance.now();
        const health = await fetch(`${harness.url}/healthz`, { signal: AbortSignal.timeout(10_000) });
        expect(health.status).toBe(200);
        latencies.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    try {
      for (let index = 0; index < 20; index += 1) {
        const socket = connect(Number(port), hostname);
        // Never read: the answer piles up in the socket buffers until the gateway must wait.
        socket.pause();
        socket.on('error', () => closed.add(socket));
        socket.on('close', () => closed.add(socket));
        socket.write(head);
        socket.write(body);
        sockets.push(socket);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      opening = false;
      await probing;
      // Every probe was answered (each waits 10 s at most). How fast is left to the benchmarks: a
      // loaded machine delays a probe more than any work of the gateway's here does.
      expect(latencies.length).toBeGreaterThanOrEqual(60);
      // A prompt held as an array of its words cost some 17 MB per unread stream (over 330 MB for
      // these 20); cut one token at a time, the 20 streams add some 40 MB.
      expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(150 * 1024 * 1024);
      // Each answer is some 100 MB of frames: every stream is still open, waiting for its reader.
      expect(closed.size).toBe(0);
    } finally {
      opening = false;
      for (const socket of sockets) socket.destroy();
    }
    const after = await fetch(`${harness.url}/healthz`, { signal: AbortSignal.timeout(5_000) });
    expect(after.status).toBe(200);
  });

  it('streams a long prompt exactly, with exact token counts (chat)', async () => {
    const text = prompt(120_000);
    const words = text.trim().split(/\s+/).length;
    const client = new OpenAI({ baseURL: `${harness.url}/v1`, apiKey: key, maxRetries: 0 });
    const stream = await client.chat.completions.create({
      model: 'demo/echo',
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'user', content: 'an earlier turn' },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: text },
      ],
    });
    let answer = '';
    let deltas = 0;
    let usage: OpenAI.CompletionUsage | undefined | null;
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      if (choice?.delta.content) {
        answer += choice.delta.content;
        deltas += 1;
      }
      if (choice?.finish_reason) finish = choice.finish_reason;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(answer === text.trim()).toBe(true);
    expect(deltas).toBe(words);
    expect(finish).toBe('stop');
    expect(usage).toMatchObject({ prompt_tokens: words + 3 + 1, completion_tokens: words });
  });

  it('cuts a long streamed answer at max_tokens and a JSON answer matches it (Messages)', async () => {
    const text = prompt(100_000);
    const client = new Anthropic({ baseURL: harness.url, apiKey: key, maxRetries: 0 });
    const request = { model: 'demo/echo', max_tokens: 1000, messages: [{ role: 'user' as const, content: text }] };
    const streamed = await client.messages.stream(request).finalMessage();
    const expected = text
      .trim()
      .match(/\S+\s*/g)!
      .slice(0, 1000)
      .join('')
      .trimEnd();
    expect(streamed).toMatchObject({
      content: [{ type: 'text', text: expected }],
      stop_reason: 'max_tokens',
      usage: { output_tokens: 1000, input_tokens: text.trim().split(/\s+/).length },
    });
    const json = await client.messages.create(request);
    expect(json.content).toEqual(streamed.content);
    expect(json.usage).toMatchObject({ output_tokens: 1000 });
  });
});
