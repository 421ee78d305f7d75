import { createServer } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { executeChat, UpstreamError, type Deployment } from '../../../src/server/gateway/providers/index.js';
import {
  startAnthropicUpstream,
  startOpenAIUpstream,
  type AnthropicUpstream,
  type OpenAIUpstream,
} from '../../support/upstreams/index.js';
import { asStream, deployment, frames, NEVER, payloadsOf, POOLS } from './helpers.js';

let openai: OpenAIUpstream;
let anthropic: AnthropicUpstream;
beforeAll(async () => {
  [openai, anthropic] = await Promise.all([startOpenAIUpstream(), startAnthropicUpstream()]);
});
beforeEach(() => {
  openai.reset();
  anthropic.reset();
});
afterAll(async () => {
  await Promise.all([openai.close(), anthropic.close()]);
  await POOLS.close();
});

const chatBody = (stream = false) =>
  ({ model: 'm', messages: [{ role: 'user', content: 'Hello' }], ...(stream ? { stream: true } : {}) }) as never;
const messagesBody = (stream = false) =>
  ({
    model: 'm',
    max_tokens: 10,
    messages: [{ role: 'user', content: 'Hello' }],
    ...(stream ? { stream: true } : {}),
  }) as never;

const chatOn = (target: Deployment, stream = false, signal = NEVER) =>
  executeChat({
    pools: POOLS,
    format: 'chat',
    body: chatBody(stream),
    deployment: target,
    signal,
    requestId: 'r',
  });

async function failure(promise: Promise<unknown>): Promise<UpstreamError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(UpstreamError);
  return error as UpstreamError;
}

describe('upstream errors before the answer', () => {
  it('429 is retryable, names provider, status and message, keeps retry-after', async () => {
    openai.setNext({
      status: 429,
      headers: { 'retry-after': '7' },
      error: { message: 'Rate limit reached for gpt-upstream' },
    });
    const error = await failure(chatOn(deployment('openai', openai.url)));
    expect(error).toMatchObject({ status: 429, retryable: true, upstreamType: 'requests', retryAfterSeconds: 7 });
    expect(error.message).toBe('openai upstream returned 429 requests: Rate limit reached for gpt-upstream');
  });

  it('5xx is retryable on both providers (Anthropic overloaded 529 too)', async () => {
    openai.setNext({ status: 500 });
    expect(await failure(chatOn(deployment('openai', openai.url)))).toMatchObject({ status: 500, retryable: true });
    anthropic.setNext({ status: 529 });
    const error = await failure(
      executeChat({
        pools: POOLS,
        format: 'messages',
        body: messagesBody(),
        deployment: deployment('anthropic', anthropic.url),
        signal: NEVER,
        requestId: 'r',
      }),
    );
    expect(error).toMatchObject({ status: 529, retryable: true, upstreamType: 'overloaded_error' });
    expect(error.message).toBe('anthropic upstream returned 529 overloaded_error: mock overloaded_error');
  });

  it('400 is not retryable, on the translated path too', async () => {
    anthropic.setNext({ status: 400, error: { message: 'messages: roles must alternate' } });
    const error = await failure(chatOn(deployment('anthropic', anthropic.url)));
    expect(error).toMatchObject({ status: 400, retryable: false, upstreamType: 'invalid_request_error' });
    expect(error.message).toContain('roles must alternate');
  });

  it('never puts the API key in the message', async () => {
    openai.setNext({ status: 401, error: { message: 'Incorrect API key provided: key-openai-secret' } });
    const error = await failure(chatOn(deployment('openai', openai.url)));
    expect(error.status).toBe(401);
    expect(error.message).not.toContain('key-openai-secret');
    expect(error.message).toContain('[redacted]');
  });

  it('a hanging upstream times out as a retryable status 0', async () => {
    openai.setNext({ hang: true });
    const started = Date.now();
    const error = await failure(chatOn(deployment('openai', openai.url, { timeoutMs: 150 })));
    expect(error).toMatchObject({ status: 0, retryable: true, upstreamType: 'timeout' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('a refused connection is a retryable status 0', async () => {
    const port = await freePort();
    const error = await failure(chatOn(deployment('openai', `http://127.0.0.1:${port}/v1`)));
    expect(error).toMatchObject({ status: 0, retryable: true, upstreamType: 'connection_error' });
    expect(error.message).toMatch(/openai upstream connection failed/);
  });

  it('a stream dropped before its first event still rejects (fallback is possible)', async () => {
    openai.setNext({ dropAfterFrames: 0 });
    expect(await failure(chatOn(deployment('openai', openai.url), true))).toMatchObject({ status: 0, retryable: true });
  });

  it('an error event first in a stream rejects with its status', async () => {
    anthropic.setNext({ streamErrorAfterFrames: 0 });
    const error = await failure(
      executeChat({
        pools: POOLS,
        format: 'messages',
        body: messagesBody(true),
        deployment: deployment('anthropic', anthropic.url),
        signal: NEVER,
        requestId: 'r',
      }),
    );
    expect(error).toMatchObject({ status: 529, retryable: true, upstreamType: 'overloaded_error' });
  });

  it('a JSON answer to a stream request is an upstream error, not an empty stream', async () => {
    openai.setNext({ body: { error: { message: 'model is still loading', type: 'unavailable' } } });
    const error = await failure(chatOn(deployment('openai', openai.url), true));
    expect(error).toMatchObject({ status: 200, retryable: true, upstreamType: 'unavailable' });
    expect(error.message).toContain('model is still loading');
  });

  it('a deployment with no base URL is a retryable configuration error', async () => {
    const error = await failure(
      chatOn(deployment('openai_compatible', '', { id: 'x', model: 'm', upstreamModel: 'm', baseUrl: undefined })),
    );
    expect(error).toMatchObject({ status: 0, retryable: true, upstreamType: 'configuration' });
  });
});

describe('upstream errors after the stream started', () => {
  it('a dropped connection ends the stream with an error frame in the client format', async () => {
    openai.setNext({ dropAfterFrames: 3 });
    const result = asStream(await chatOn(deployment('openai', openai.url), true));
    const all = await frames(result);
    expect(all).toHaveLength(4);
    expect(payloadsOf(all).at(-1)).toMatchObject({ error: { type: 'upstream_error', code: 502 } });
    expect(result.error()).toMatchObject({ status: 0, retryable: true });
  });

  it('an error chunk mid-stream becomes an error frame; Messages clients get event: error', async () => {
    openai.setNext({ streamErrorAfterFrames: 2, error: { message: 'model crashed' } });
    const result = asStream(
      await executeChat({
        pools: POOLS,
        format: 'messages',
        body: messagesBody(true),
        deployment: deployment('openai', openai.url),
        signal: NEVER,
        requestId: 'r',
      }),
    );
    const all = await frames(result);
    expect(all.at(-1)).toMatch(
      /^event: error\ndata: \{"type":"error","error":\{"type":"upstream_error","message":".*model crashed.*","code":502,"upstream":\{"status":200,"type":"server_error",.*\}\}\}\n\n$/,
    );
    expect(result.error()?.message).toContain('model crashed');
  });
});

describe('client aborts', () => {
  it('aborting mid-stream destroys the upstream request and ends the stream quietly', async () => {
    openai.setNext({ frameDelayMs: 100, reply: { text: 'one two three four five six seven eight' } });
    const controller = new AbortController();
    const result = asStream(await chatOn(deployment('openai', openai.url), true, controller.signal));
    const iterator = result.events[Symbol.asyncIterator]();
    expect((await iterator.next()).done).toBe(false);
    controller.abort();
    expect(await openai.waitForOutcome(0)).toBe('aborted');
    let next = await iterator.next();
    while (!next.done) next = await iterator.next();
    expect(result.error()).toBeUndefined();
  });

  it('aborting while waiting for headers rejects as a non-retryable abort', async () => {
    anthropic.setNext({ hang: true });
    const controller = new AbortController();
    const pending = executeChat({
      pools: POOLS,
      format: 'messages',
      body: messagesBody(),
      deployment: deployment('anthropic', anthropic.url),
      signal: controller.signal,
      requestId: 'r',
    });
    await anthropic.waitForRequests(1);
    controller.abort();
    expect(await failure(pending)).toMatchObject({ status: 0, retryable: false, upstreamType: 'aborted' });
    expect(await anthropic.waitForOutcome(0)).toBe('aborted');
  });

  it('a consumer that stops reading early destroys the upstream request', async () => {
    anthropic.setNext({ frameDelayMs: 100, reply: { text: 'one two three four five six' } });
    const result = asStream(
      await executeChat({
        pools: POOLS,
        format: 'chat',
        body: chatBody(true),
        deployment: deployment('anthropic', anthropic.url),
        signal: NEVER,
        requestId: 'r',
      }),
    );
    for await (const frame of result.events) {
      expect(frame).toMatch(/^data: /);
      break;
    }
    expect(await anthropic.waitForOutcome(0)).toBe('aborted');
  });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
