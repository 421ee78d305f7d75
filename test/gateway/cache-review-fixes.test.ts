import type Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { withCachingGateway } from './cachectl-gateway.js';
import { usageRowOf } from './fixes-usage-row.js';

const DEADLINE = 'x-gatehouse-timeout-ms';
type ApiError = InstanceType<typeof OpenAI.APIError>;

/**
 * The response cache as frameworks and local servers meet it: a request waiting for an identical one
 * keeps its own deadline, short upstream ids still give every hit an id of its own, and a body that
 * spells out a default (`stream: false`, a null) shares the entry of one that leaves it out.
 */
describe('cache: deadlines of waiting requests, short ids, spelt-out defaults', () => {
  const gateway = withCachingGateway();

  const chat = (content: string) => ({
    model: 'gpt-4o-mini',
    temperature: 0,
    messages: [{ role: 'user' as const, content }],
  });

  it('ends the wait for an identical request in flight at the waiting request’s own deadline', async () => {
    gateway.h.openai.setDefault({ delayMs: 2000 });
    const client = gateway.h.openaiClient(gateway.key);
    const finished: string[] = [];
    const leader = client.chat.completions
      .create(chat('slow together'))
      .withResponse()
      .finally(() => finished.push('leader'));
    // The leader's call is under way before the second request arrives.
    while (gateway.h.openai.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const waiter = (await client.chat.completions
      .create(chat('slow together'), { headers: { [DEADLINE]: '200' } })
      .finally(() => finished.push('waiter'))
      .then(
        () => undefined,
        (caught: unknown) => caught,
      )) as ApiError;
    expect(waiter, 'the waiting request should have failed').toBeInstanceOf(OpenAI.APIError);
    // Answered as any request whose deadline passed before an upstream call: the gateway's timeout.
    expect(waiter.status).toBe(502);
    expect(waiter.message).toContain(
      `no answer within the request's 200 ms deadline (${DEADLINE}), before any upstream call`,
    );
    expect((waiter.error as { upstream?: unknown }).upstream).toMatchObject({ status: null, type: 'timeout' });
    expect(waiter.headers?.get('x-should-retry')).toBe('false');
    expect(waiter.headers?.get('x-cache-hit')).toBe('false');
    expect(waiter.headers?.get('x-gateway-attempts')).toBeNull();
    expect(await usageRowOf(gateway.h.admin, waiter.headers!.get('x-request-id')!)).toMatchObject({
      status: 502,
      error_type: 'upstream_error',
    });
    // It did not wait for the leader's answer, nor call the provider itself.
    expect(finished).toEqual(['waiter']);
    expect(gateway.h.openai.requests).toHaveLength(1);
    const { response } = await leader;
    expect(response.headers.get('x-cache-hit')).toBe('false');
  });

  it('gives every hit a new id of a safe length when the upstream’s ids are short', async () => {
    gateway.h.openai.setDefault({ reply: { id: 'chatcmpl-B8', text: 'short' } });
    const client = gateway.h.openaiClient(gateway.key);
    const first = await client.chat.completions.create(chat('short ids'));
    expect(first.id).toBe('chatcmpl-B8');
    const ids = new Set<string>();
    for (let hit = 0; hit < 20; hit += 1) {
      const { data, response } = await client.chat.completions.create(chat('short ids')).withResponse();
      expect(response.headers.get('x-cache-hit')).toBe('true');
      expect(data.id).toMatch(/^chatcmpl-[A-Za-z0-9]{16,}$/);
      ids.add(data.id);
    }
    expect(ids.size).toBe(20);
    expect(ids.has('chatcmpl-B8')).toBe(false);
    expect(gateway.h.openai.requests).toHaveLength(1);
  });

  it('keeps the prefix and length of an id long enough to draw afresh', async () => {
    const long = 'chatcmpl-AbCdEfGhIjKlMnOpQrStUvWxYz012';
    gateway.h.openai.setDefault({ reply: { id: long, text: 'long' } });
    const client = gateway.h.openaiClient(gateway.key);
    await client.chat.completions.create(chat('long ids'));
    const hit = await client.chat.completions.create(chat('long ids'));
    expect(hit.id).toMatch(/^chatcmpl-[A-Za-z0-9]+$/);
    expect(hit.id).toHaveLength(long.length);
    expect(hit.id).not.toBe(long);
  });

  it('hits for a chat body with `stream: false` or a top-level null where the SDK leaves them out', async () => {
    const client = gateway.h.openaiClient(gateway.key);
    const hitOf = async (body: OpenAI.ChatCompletionCreateParamsNonStreaming) =>
      (await client.chat.completions.create(body).withResponse()).response.headers.get('x-cache-hit');
    expect(await hitOf(chat('defaults'))).toBe('false');
    expect(await hitOf({ ...chat('defaults'), stream: false })).toBe('true');
    expect(await hitOf({ ...chat('defaults'), max_tokens: null, stop: null, stream: false })).toBe('true');
    // A value is still a value.
    expect(await hitOf({ ...chat('defaults'), max_tokens: 5 })).toBe('false');
    expect(gateway.h.openai.requests).toHaveLength(2);
  });

  it('hits for a Messages body with `stream: false`, and keeps streamed answers apart', async () => {
    const client: Anthropic = gateway.h.anthropicClient(gateway.key);
    const body = {
      model: 'claude-opus-4-7',
      max_tokens: 64,
      temperature: 0,
      messages: [{ role: 'user' as const, content: 'defaults' }],
    };
    const hitOf = async (stream: false | undefined) =>
      (
        await client.messages.create(stream === undefined ? body : { ...body, stream }).withResponse()
      ).response.headers.get('x-cache-hit');
    expect(await hitOf(undefined)).toBe('false');
    expect(await hitOf(false)).toBe('true');
    const streamed = await client.messages.create({ ...body, stream: true }).withResponse();
    expect(streamed.response.headers.get('x-cache-hit')).toBe('false');
    for await (const event of streamed.data) void event;
  });
});
