import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTempServers, TEST_MASTER_KEY, type TempServers } from '../support/temp-servers.js';
import {
  startFrameServer,
  startOpenAIUpstream,
  type FrameServer,
  type OpenAIUpstream,
} from '../support/upstreams/index.js';

const KEY = 'sk-retry-upstream-0123456789';

/**
 * Retries on the same deployment before falling back, Retry-After within a cap, and the signals the
 * official SDKs read so they do not resend what cannot succeed.
 */
describe('upstream retries and failure signals', () => {
  let primary: OpenAIUpstream;
  let secondary: OpenAIUpstream;
  let frames: FrameServer;
  let broken: Server;
  let brokenUrl: string;
  let servers: TempServers;
  let apiKey: string;

  const client = (maxRetries = 0) =>
    new OpenAI({ baseURL: `${servers.gatewayUrl}/v1`, apiKey, maxRetries, timeout: 20_000 });
  const ask = (model: string, maxRetries = 0) =>
    client(maxRetries).chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });

  beforeAll(async () => {
    [primary, secondary, frames] = await Promise.all([
      startOpenAIUpstream({ apiKey: KEY }),
      startOpenAIUpstream({ apiKey: KEY }),
      startFrameServer(),
    ]);
    // A provider whose 200 carries a body that is not JSON.
    broken = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"id": "chatcmpl-1", "choices": [');
      });
    });
    await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve));
    brokenUrl = `http://127.0.0.1:${(broken.address() as AddressInfo).port}/v1`;
    const deployment = (id: string, model: string, baseUrl: string, extra: Record<string, unknown> = {}) => ({
      id,
      model,
      provider: 'openai',
      upstream_model: 'gpt-4o-mini',
      base_url: baseUrl,
      api_key: KEY,
      ...extra,
    });
    servers = await startTempServers({
      llm: { allowed_models: ['retry-model', 'ha-model', 'once-model', 'frames-model', 'broken-model'] },
      gateway: { max_retries: 2, retry_backoff_ms: 20, max_retry_wait_ms: 1500 },
      deployments: [
        deployment('retry-primary', 'retry-model', primary.url),
        // Weights make the first the first choice (all but certainly), so fallback order is deterministic.
        deployment('ha-first', 'ha-model', primary.url, { weight: 1_000_000, max_retries: 1 }),
        deployment('ha-second', 'ha-model', secondary.url, { weight: 0.000001 }),
        deployment('once', 'once-model', primary.url, { max_retries: 0 }),
        deployment('frames', 'frames-model', `${frames.url}/v1`),
        deployment('broken', 'broken-model', brokenUrl, { max_retries: 0 }),
      ],
    });
    const created = await fetch(`${servers.gatewayUrl}/internal/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ scopes: ['chat'] }),
    });
    apiKey = ((await created.json()) as { key: string }).key;
  });
  beforeEach(() => {
    primary.reset();
    secondary.reset();
  });
  afterAll(async () => {
    await servers?.stop();
    await Promise.all([primary?.close(), secondary?.close(), frames?.close()]);
    await new Promise<void>((resolve) => broken?.close(() => resolve()));
  });

  it('retries the same deployment after a 500 and a 503, and answers from the third attempt', async () => {
    primary.setNext({ status: 500 }, { status: 503 });
    const answer = await ask('retry-model');
    expect(answer.choices[0]!.message.content).toBe('You said: hi');
    expect(primary.requests).toHaveLength(3);
  });

  it("waits as long as the upstream's Retry-After asks, when that is within the cap", async () => {
    primary.setNext({ status: 429, headers: { 'retry-after': '1' } });
    const started = Date.now();
    await ask('retry-model');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(primary.requests).toHaveLength(2);
  });

  it('falls back after its own retries, and at once when Retry-After is longer than the cap', async () => {
    // ha-first allows one retry of its own: two calls there, then the fallback.
    primary.setNext({ status: 500 }, { status: 502 });
    await ask('ha-model');
    expect(primary.requests).toHaveLength(2);
    expect(secondary.requests).toHaveLength(1);

    primary.reset();
    secondary.reset();
    // (Last: asked to wait 30 s, the deployment is cooled down that long, and tried after the other.)
    primary.setNext({ status: 429, headers: { 'retry-after': '30' } });
    const started = Date.now();
    await ask('ha-model');
    expect(Date.now() - started).toBeLessThan(1500);
    expect(primary.requests).toHaveLength(1);
    expect(secondary.requests).toHaveLength(1);
  });

  it('tells the SDK not to resend a failure the gateway already retried', async () => {
    primary.setNext({ status: 500 }, { status: 503 }, { status: 500 });
    const error = (await ask('retry-model', 2).catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(error.status).toBe(502);
    expect(error.message).toContain('after 3 attempts');
    expect(error.headers?.get('x-should-retry')).toBe('false');
    // Three calls in all, where the SDK's own two retries would have made nine.
    expect(primary.requests).toHaveLength(3);
  });

  it('also when the provider asked to wait: the gateway already waited, and the wait is still passed on', async () => {
    const limited = { status: 429, headers: { 'retry-after': '1' } };
    primary.setNext(limited, limited, limited);
    const error = (await ask('retry-model', 2).catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(error.status).toBe(502);
    expect(error.headers?.get('x-should-retry')).toBe('false');
    expect(error.headers?.get('retry-after')).toBe('1');
    // The SDK's two retries would each have run the gateway's chain again: nine calls to a provider refusing them.
    expect(primary.requests).toHaveLength(3);
  });

  it("honours a deployment's own max_retries over the gateway's default", async () => {
    primary.setNext({ status: 500 });
    const error = await ask('once-model').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
    expect(primary.requests).toHaveLength(1);
  });

  it('a provider 400 is not retried, and x-should-retry: false keeps the SDK from resending it', async () => {
    primary.setNext({ status: 400, error: { message: 'unsupported parameter: foo' } });
    const error = (await ask('retry-model', 2).catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(error.status).toBe(502);
    expect(error.headers?.get('x-should-retry')).toBe('false');
    expect(error.headers?.get('x-upstream-status')).toBe('400');
    expect(error.message).toContain('unsupported parameter: foo');
    expect(primary.requests).toHaveLength(1);
  });

  /** A chat request that must fail with the upstream's 200: its error body. */
  const failedWith200 = async (model: string): Promise<{ type: string; message: string }> => {
    const response = await fetch(`${servers.gatewayUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(502);
    expect(response.headers.get('x-upstream-status')).toBe('200');
    return ((await response.json()) as { error: { type: string; message: string } }).error;
  };

  it('a 200 whose body is not JSON reports x-upstream-status 200', async () => {
    const error = await failedWith200('broken-model');
    expect(error.type).toBe('upstream_error');
    expect(error.message).toContain('invalid JSON');
  });

  it('a 200 whose JSON is no completion is a failure, never relayed as an empty answer nor asked again there', async () => {
    // The deployment would answer the same again: its retries are for 429, 5xx, timeouts and lost connections.
    primary.setNext({ body: { id: 'c', object: 'chat.completion', choices: null } });
    expect((await failedWith200('retry-model')).message).toContain(
      "JSON that is no chat answer: its 'choices' is null, not a list",
    );
    expect(primary.requests).toHaveLength(1);

    primary.setNext({ body: { hello: 'world' } });
    const error = await failedWith200('once-model');
    expect(error.message).toContain("JSON that is no chat answer: it has no 'choices'");
  });

  it('a malformed frame from an OpenAI-compatible upstream ends the stream with an error, accounted as one', async () => {
    const chunk = (content: string) =>
      `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
    frames.serveFrames([chunk('Hello'), 'data: {"id": "c1", "choices": [ {\n\n', chunk(' world'), 'data: [DONE]\n\n']);
    const stream = await client().chat.completions.create({
      model: 'frames-model',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    const received: string[] = [];
    const failure = await (async () => {
      for await (const part of stream) received.push(part.choices[0]?.delta.content ?? '');
    })().catch((e: unknown) => e);
    expect(received.join('')).toBe('Hello');
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toContain('malformed stream chunk');

    await new Promise((resolve) => setTimeout(resolve, 100));
    const rows = await fetch(`${servers.gatewayUrl}/internal/usage/logs?limit=5`, {
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}` },
    });
    const latest = ((await rows.json()) as { data: Array<{ model: string; error_type: string | null }> }).data.find(
      (row) => row.model === 'frames-model',
    );
    expect(latest?.error_type).toBe('upstream_error');
  });
});
