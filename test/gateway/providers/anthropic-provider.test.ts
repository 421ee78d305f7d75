import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ANTHROPIC_VERSION, executeChat } from '../../../src/server/gateway/providers/index.js';
import { startAnthropicUpstream, type AnthropicUpstream } from '../../support/upstreams/index.js';
import { asJson, asStream, deployment, eventNames, frames, NEVER, payloadsOf, POOLS } from './helpers.js';

let upstream: AnthropicUpstream;
beforeAll(async () => {
  upstream = await startAnthropicUpstream({ apiKey: 'key-anthropic-secret' });
});
beforeEach(() => upstream.reset());
afterAll(async () => {
  await upstream.close();
  await POOLS.close();
});

const messages = (body: object) =>
  executeChat({
    pools: POOLS,
    format: 'messages',
    body: {
      model: 'public-anthropic',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'Hello there' }],
      ...body,
    } as never,
    deployment: deployment('anthropic', upstream.url),
    signal: NEVER,
    requestId: 'req-2',
  });

describe('Messages on Anthropic (native fast path)', () => {
  it('sends x-api-key and anthropic-version, rewrites only the model, answers with the public name', async () => {
    const result = asJson(await messages({ system: 'Be brief', top_k: 3, metadata: { user_id: 'u' } }));
    const received = upstream.lastRequest()!;
    expect(received.path).toBe('/v1/messages');
    expect(received.headers['x-api-key']).toBe('key-anthropic-secret');
    expect(received.headers['anthropic-version']).toBe(ANTHROPIC_VERSION);
    expect(received.headers.authorization).toBeUndefined();
    expect(received.body).toEqual({
      model: 'claude-upstream',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'Hello there' }],
      system: 'Be brief',
      top_k: 3,
      metadata: { user_id: 'u' },
    });
    expect(result.body).toMatchObject({
      type: 'message',
      model: 'public-anthropic',
      content: [{ type: 'text', text: 'You said: Hello there' }],
      stop_reason: 'end_turn',
    });
    const usage = (result.body as { usage: { input_tokens: number; output_tokens: number } }).usage;
    expect(result.usage).toEqual({
      promptTokens: usage.input_tokens,
      completionTokens: usage.output_tokens,
      cachedPromptTokens: 0,
    });
  });

  it('counts cached input as prompt tokens', async () => {
    upstream.setNext({
      reply: { text: 'x', usage: { input_tokens: 10, output_tokens: 1, cache_read_input_tokens: 90 } },
    });
    expect(asJson(await messages({})).usage).toEqual({
      promptTokens: 100,
      completionTokens: 1,
      cachedPromptTokens: 90,
    });
  });

  it('relays the full event sequence, ping included, with the model rewritten and usage captured', async () => {
    upstream.setNext({
      reply: {
        text: 'One two',
        toolUses: [{ name: 'weather', input: { city: 'Paris' } }],
        usage: { input_tokens: 21, output_tokens: 9 },
      },
    });
    const result = asStream(await messages({ stream: true }));
    const all = await frames(result);
    expect(eventNames(all)).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(payloadsOf(all)[0].message.model).toBe('public-anthropic');
    expect(result.usage()).toEqual({ promptTokens: 21, completionTokens: 9, cachedPromptTokens: 0 });
  });
});

describe('client headers', () => {
  // What Fastify hands the pipeline as request.headers, passed as is.
  const clientHeaders: IncomingHttpHeaders = {
    'anthropic-beta': 'prompt-caching-2024-07-31, not a beta!,output-128k-2025-02-19',
    'anthropic-version': '2025-01-01',
    authorization: 'Bearer client-secret',
    'x-api-key': 'client-key',
    'content-type': 'application/json',
  };
  const call = (format: 'chat' | 'messages', headers?: IncomingHttpHeaders) =>
    executeChat({
      pools: POOLS,
      format,
      body: {
        model: 'public-anthropic',
        max_tokens: 100,
        messages: [{ role: 'user', content: 'Hello there' }],
      } as never,
      deployment: deployment('anthropic', upstream.url),
      signal: NEVER,
      requestId: 'req-3',
      headers,
    });

  it('forwards the betas a Messages client opted into on the native path, and never its credentials', async () => {
    await call('messages', clientHeaders);
    const received = upstream.lastRequest()!.headers;
    expect(received['anthropic-beta']).toBe('prompt-caching-2024-07-31,output-128k-2025-02-19');
    // The body is the client's, written for the version it named.
    expect(received['anthropic-version']).toBe('2025-01-01');
    expect(received['x-api-key']).toBe('key-anthropic-secret');
    expect(received.authorization).toBeUndefined();
  });

  it('reads the header in any case and repeated, and sends none when there is none', async () => {
    await call('messages', { 'Anthropic-Beta': ['a-1', 'b-2,a-1'] });
    expect(upstream.lastRequest()!.headers['anthropic-beta']).toBe('a-1,b-2');
    await call('messages', { 'anthropic-beta': ' ,!' });
    expect(upstream.lastRequest()!.headers).not.toHaveProperty('anthropic-beta');
    await call('messages');
    expect(upstream.lastRequest()!.headers).not.toHaveProperty('anthropic-beta');
  });

  it('forwards nothing on the translated path, whose answer the gateway must be able to read', async () => {
    await call('chat', clientHeaders);
    expect(upstream.lastRequest()!.headers).not.toHaveProperty('anthropic-beta');
    expect(upstream.lastRequest()!.headers['anthropic-version']).toBe(ANTHROPIC_VERSION);
    expect(upstream.lastRequest()!.headers['x-api-key']).toBe('key-anthropic-secret');
  });
});
