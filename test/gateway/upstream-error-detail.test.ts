import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { beforeEach, describe, expect, it } from 'vitest';
import { harnessWithKey, type GatewayHarness } from './support/harness.js';

/**
 * A provider failure is 502 `upstream_error` (the contract), which loses what the provider said of it
 * unless it is carried along: its status, type, code and param in `error.upstream`, which both SDKs
 * expose as `err.error`, and its request id, which the provider's support asks for, also in
 * `x-upstream-request-id`.
 */
describe("the provider's own account of a failure", () => {
  const context = harnessWithKey();
  let h: GatewayHarness;
  let key: string;
  beforeEach(() => {
    ({ harness: h, key } = context);
    h.openai.reset();
    h.anthropic.reset();
  });

  it('passes an OpenAI refusal through with its type, code, param and request id (openai SDK)', async () => {
    h.openai.setNext({
      status: 400,
      headers: { 'x-request-id': 'req_7f3a9c' },
      body: {
        error: {
          message: "Invalid value for 'reasoning_effort'",
          type: 'invalid_request_error',
          param: 'reasoning_effort',
          code: 'unsupported_value',
        },
      },
    });
    const client = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: key, maxRetries: 0 });
    const error = await client.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    const apiError = error as InstanceType<typeof OpenAI.APIError>;
    expect(apiError.status).toBe(502);
    expect(apiError.headers?.get('x-upstream-request-id')).toBe('req_7f3a9c');
    expect((apiError.error as { upstream: unknown }).upstream).toEqual({
      status: 400,
      type: 'invalid_request_error',
      code: 'unsupported_value',
      param: 'reasoning_effort',
      request_id: 'req_7f3a9c',
    });
  });

  it("passes Anthropic's overloaded error and request-id through (Anthropic SDK)", async () => {
    h.anthropic.setNext({ status: 529, headers: { 'request-id': 'req_011CUabc' } }, { status: 529 });
    const client = new Anthropic({ baseURL: h.url, apiKey: key, maxRetries: 0 });
    const error = await client.messages
      .create({ model: 'claude-opus-4-7', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
      .catch((caught: unknown) => caught);
    const apiError = error as InstanceType<typeof Anthropic.APIError>;
    expect(apiError.status).toBe(502);
    expect((apiError.error as { error: { upstream: unknown } }).error.upstream).toMatchObject({
      status: 529,
      type: 'overloaded_error',
      code: null,
      param: null,
    });
  });

  it('keeps the provider code of a refused key, and drops a request id that is no id', async () => {
    h.openai.setNext({ status: 401, headers: { 'x-request-id': 'not an id <script>' } });
    const answer = await fetch(`${h.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(answer.status).toBe(502);
    expect(answer.headers.get('x-upstream-request-id')).toBeNull();
    const body = (await answer.json()) as { error: { upstream: Record<string, unknown> } };
    expect(body.error.upstream).toEqual({
      status: 401,
      type: 'invalid_request_error',
      code: 'invalid_api_key',
      param: null,
      request_id: null,
    });
  });
});

/**
 * A successful answer names the provider's request id too: a wrong or slow answer is what a user
 * takes to the provider's support, who ask for that id, not the gateway's.
 */
describe("the provider's request id on an answer", () => {
  const context = harnessWithKey();
  let h: GatewayHarness;
  let openai: OpenAI;
  let anthropic: Anthropic;
  beforeEach(() => {
    ({ harness: h } = context);
    h.openai.reset();
    h.anthropic.reset();
    openai = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: context.key, maxRetries: 0 });
    anthropic = new Anthropic({ baseURL: h.url, apiKey: context.key, maxRetries: 0 });
  });

  it('sends the OpenAI id of a chat answer, whole and streamed, and of embeddings', async () => {
    const messages = [{ role: 'user' as const, content: 'hi' }];
    h.openai.setNext({ headers: { 'x-request-id': 'req_whole1' } });
    const whole = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages }).withResponse();
    expect(whole.response.headers.get('x-upstream-request-id')).toBe('req_whole1');

    h.openai.setNext({ headers: { 'x-request-id': 'req_stream1' } });
    const streamed = await openai.chat.completions
      .create({ model: 'gpt-4o-mini', messages, stream: true })
      .withResponse();
    for await (const chunk of streamed.data) void chunk;
    expect(streamed.response.headers.get('x-upstream-request-id')).toBe('req_stream1');

    h.openai.setNext({ headers: { 'x-request-id': 'req_embed1' } });
    const embedded = await openai.embeddings.create({ model: 'text-embedding-3-small', input: 'x' }).withResponse();
    expect(embedded.response.headers.get('x-upstream-request-id')).toBe('req_embed1');
  });

  it("sends Anthropic's request-id, on Messages and on a chat call translated to it", async () => {
    h.anthropic.setNext({ headers: { 'request-id': 'req_011CUmsg' } }, { headers: { 'request-id': 'req_011CUchat' } });
    const messages = await anthropic.messages
      .create({ model: 'claude-opus-4-7', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
      .withResponse();
    expect(messages.response.headers.get('x-upstream-request-id')).toBe('req_011CUmsg');
    const chat = await openai.chat.completions
      .create({ model: 'claude-opus-4-7', messages: [{ role: 'user', content: 'hi' }] })
      .withResponse();
    expect(chat.response.headers.get('x-upstream-request-id')).toBe('req_011CUchat');
  });

  it('names the attempt that answered, not an earlier failed one, and nothing for an answer without an id', async () => {
    h.openaiSecondary.reset();
    // The primary answers 200 with its id, then its stream breaks before the first event: the
    // secondary (which sends no id) answers instead.
    h.openai.setNext({ headers: { 'x-request-id': 'req_broken' }, streamErrorAfterFrames: 0 });
    const fallback = await openai.chat.completions
      .create({ model: 'ha-model', messages: [{ role: 'user', content: 'hi' }], stream: true })
      .withResponse();
    for await (const chunk of fallback.data) void chunk;
    expect([h.openai.requests.length, h.openaiSecondary.requests.length]).toEqual([1, 1]);
    expect(fallback.response.headers.get('x-gateway-deployment')).toBe('ha-secondary');
    expect(fallback.response.headers.get('x-upstream-request-id')).toBeNull();

    // A server that echoes the id it was sent (another gateway, vLLM) names no id of its own.
    const ours = '0b6f6c2e-8f0e-4d55-9d6a-2f4f3b1a9c11';
    h.openai.setNext({ headers: { 'x-request-id': ours } });
    const echoed = await openai.chat.completions
      .create(
        { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] },
        { headers: { 'x-request-id': ours } },
      )
      .withResponse();
    expect(echoed.response.headers.get('x-request-id')).toBe(ours);
    expect(echoed.response.headers.get('x-upstream-request-id')).toBeNull();
    // Behind another Gatehouse, the provider's id it passed on.
    h.openai.setNext({ headers: { 'x-request-id': 'req_gateway2', 'x-upstream-request-id': 'req_provider9' } });
    const chained = await openai.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] })
      .withResponse();
    expect(chained.response.headers.get('x-upstream-request-id')).toBe('req_provider9');

    const demo = await openai.chat.completions
      .create({ model: 'demo/echo', messages: [{ role: 'user', content: 'hi' }] })
      .withResponse();
    expect(demo.response.headers.get('x-upstream-request-id')).toBeNull();
  });
});
