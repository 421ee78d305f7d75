import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { base64ToFloats } from '../../../src/server/gateway/formats/embeddings/embeddings-encoding.js';
import { executeChat, executeEmbeddings, type Deployment } from '../../../src/server/gateway/providers/index.js';
import { startFrameServer, type FrameServer } from '../../support/upstreams/index.js';
import { asJson, asStream, deployment, frames, NEVER, payloadsOf, POOLS } from './helpers.js';

const echo: Deployment = deployment('demo', '', { id: 'demo', model: 'demo/echo', upstreamModel: 'demo/echo' });
const embed: Deployment = deployment('demo', '', {
  id: 'demo-embed',
  model: 'demo/embed',
  upstreamModel: 'demo/embed',
});

let sdkServer: FrameServer;
beforeAll(async () => {
  sdkServer = await startFrameServer();
});
afterAll(() => sdkServer.close());

const chat = (body: object) =>
  executeChat({
    pools: POOLS,
    format: 'chat',
    body: { model: 'demo/echo', ...body } as never,
    deployment: echo,
    signal: NEVER,
    requestId: 'r',
  });
const messages = (body: object) =>
  executeChat({
    pools: POOLS,
    format: 'messages',
    body: { model: 'demo/echo', max_tokens: 100, ...body } as never,
    deployment: echo,
    signal: NEVER,
    requestId: 'r',
  });

describe('demo/echo', () => {
  it('answers with the last user message and real token counts', async () => {
    const result = asJson(
      await chat({
        messages: [
          { role: 'system', content: 'Be nice' },
          { role: 'user', content: 'first' },
          { role: 'assistant', content: 'ok' },
          { role: 'user', content: 'Echo this, please.' },
        ],
      }),
    );
    expect(result.body).toMatchObject({
      object: 'chat.completion',
      model: 'demo/echo',
      choices: [{ message: { role: 'assistant', content: 'Echo this, please.' }, finish_reason: 'stop' }],
    });
    expect(result.usage).toEqual({ promptTokens: 2 + 1 + 1 + 3, completionTokens: 3 });
    expect((result.body as { usage: object }).usage).toEqual({
      prompt_tokens: 7,
      completion_tokens: 3,
      total_tokens: 10,
    });
  });

  it('streams word by word, ending with [DONE]', async () => {
    const result = asStream(await chat({ messages: [{ role: 'user', content: 'one two three' }], stream: true }));
    const all = await frames(result);
    const deltas = payloadsOf(all).map((chunk) => chunk.choices[0].delta.content);
    expect(deltas).toEqual(['', 'one', ' two', ' three', undefined]);
    expect(all.at(-1)).toBe('data: [DONE]\n\n');
    expect(result.usage()).toEqual({ promptTokens: 3, completionTokens: 3 });
  });

  it('honours max_tokens and stop sequences', async () => {
    const cut = asJson(await messages({ max_tokens: 2, messages: [{ role: 'user', content: 'a b c d' }] }));
    expect(cut.body).toMatchObject({
      content: [{ type: 'text', text: 'a b' }],
      stop_reason: 'max_tokens',
      usage: { output_tokens: 2 },
    });
    const stopped = asJson(
      await messages({ stop_sequences: ['STOP'], messages: [{ role: 'user', content: 'go go STOP never' }] }),
    );
    expect(stopped.body).toMatchObject({
      content: [{ type: 'text', text: 'go go' }],
      stop_reason: 'stop_sequence',
      stop_sequence: 'STOP',
    });
  });

  it('streams Messages events the Anthropic SDK reads', async () => {
    const result = asStream(
      await messages({ messages: [{ role: 'user', content: 'Hello demo world' }], stream: true }),
    );
    sdkServer.serveFrames(result.events);
    const client = new Anthropic({ baseURL: sdkServer.url, apiKey: 'k', maxRetries: 0 });
    const message = await client.messages
      .stream({ model: 'demo/echo', max_tokens: 100, messages: [{ role: 'user', content: 'x' }] })
      .finalMessage();
    expect(message).toMatchObject({
      model: 'demo/echo',
      content: [{ type: 'text', text: 'Hello demo world' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 3, output_tokens: 3 },
    });
  });

  it('streams chat the openai SDK reads, with the usage chunk when asked', async () => {
    const result = asStream(
      await chat({
        messages: [{ role: 'user', content: 'Hi you' }],
        stream: true,
        stream_options: { include_usage: true },
      }),
    );
    sdkServer.serveFrames(result.events);
    const client = new OpenAI({ baseURL: sdkServer.url, apiKey: 'k', maxRetries: 0 });
    const completion = await client.chat.completions
      .stream({ model: 'demo/echo', messages: [{ role: 'user', content: 'x' }] })
      .finalChatCompletion();
    expect(completion.choices[0].message.content).toBe('Hi you');
    expect(completion.usage).toMatchObject({ prompt_tokens: 2, completion_tokens: 2 });
  });

  it('stops when the client aborts', async () => {
    const controller = new AbortController();
    const result = asStream(await chat({ messages: [{ role: 'user', content: 'a b c d e f g h' }], stream: true }));
    controller.abort();
    const aborted = executeChat({
      pools: POOLS,
      format: 'chat',
      body: { model: 'demo/echo', messages: [{ role: 'user', content: 'x' }] } as never,
      deployment: echo,
      signal: controller.signal,
      requestId: 'r',
    });
    await expect(aborted).rejects.toMatchObject({ status: 0, retryable: false, upstreamType: 'aborted' });
    expect((await frames(result)).length).toBeGreaterThan(0);
  });
});

describe('demo embeddings', () => {
  const run = (body: object) =>
    executeEmbeddings({
      requestId: 'test-request',
      pools: POOLS,
      body: { model: 'demo/embed', ...body } as never,
      deployment: embed,
      signal: NEVER,
    });

  it('returns deterministic unit vectors of 256 dimensions by default', async () => {
    const first = await run({ input: ['hello world', 'other'] });
    const again = await run({ input: 'hello world' });
    const vectors = first.body.data.map((item) => item.embedding as number[]);
    expect(first.body).toMatchObject({
      object: 'list',
      model: 'demo/embed',
      usage: { prompt_tokens: 3, total_tokens: 3 },
    });
    expect(vectors[0]).toHaveLength(256);
    // Unit length to float32 precision: the components are float32 values, as OpenAI's are.
    expect(Math.hypot(...vectors[0])).toBeCloseTo(1, 6);
    expect(again.body.data[0].embedding).toEqual(vectors[0]);
    expect(vectors[1]).not.toEqual(vectors[0]);
    expect(first.usage).toEqual({ promptTokens: 3, completionTokens: 0 });
  });

  it('honours dimensions and base64', async () => {
    const floats = await run({ input: 'x', dimensions: 32 });
    const base64 = await run({ input: 'x', dimensions: 32, encoding_format: 'base64' });
    expect((floats.body.data[0].embedding as number[]).length).toBe(32);
    const decoded = base64ToFloats(base64.body.data[0].embedding as string);
    expect(decoded).toHaveLength(32);
    expect(decoded).toEqual(floats.body.data[0].embedding);
  });
});
