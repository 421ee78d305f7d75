import OpenAI from 'openai';
import { beforeEach, describe, expect, it } from 'vitest';
import { harnessWithKey } from './support/harness.js';

const chat = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'hello' }] };

describe("an upstream's Retry-After on the gateway's 502", () => {
  // The harness tries each deployment once, so the upstream's 429 is the answer's cause at once.
  const context = harnessWithKey();
  beforeEach(() => {
    context.harness.openai.reset();
    context.harness.anthropic.reset();
  });

  it('is passed on, in both formats, when the provider asked to wait', async () => {
    const { harness, key } = context;
    harness.openai.setNext({ status: 429, headers: { 'retry-after': '30' } });
    const chatAnswer = await fetch(`${harness.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(chat),
    });
    expect(chatAnswer.status).toBe(502);
    expect(chatAnswer.headers.get('x-upstream-status')).toBe('429');
    expect(chatAnswer.headers.get('retry-after')).toBe('30');
    expect(chatAnswer.headers.get('x-should-retry')).toBeNull();

    harness.anthropic.setNext({ status: 529, headers: { 'retry-after-ms': '1500' } });
    const messagesAnswer = await fetch(`${harness.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'claude-opus-4-7', max_tokens: 10, messages: chat.messages }),
    });
    expect(messagesAnswer.status).toBe(502);
    expect(messagesAnswer.headers.get('retry-after')).toBe('2');
  });

  it('leaves a wait longer than a minute to the caller, whatever its form', async () => {
    const { harness, key } = context;
    const client = harness.openaiClient(key);
    for (const retryAfter of ['99999999', 'Wed, 01 Jan 2099 00:00:00 GMT']) {
      harness.openai.reset();
      harness.openai.setNext({ status: 429, headers: { 'retry-after': retryAfter } });
      const error = (await client.chat.completions.create(chat).catch((e: unknown) => e)) as InstanceType<
        typeof OpenAI.APIError
      >;
      expect(error.status).toBe(502);
      expect(error.headers!.get('x-should-retry')).toBe('false');
      expect(Number(error.headers!.get('retry-after'))).toBeGreaterThan(60);
      // The SDK (two retries by default) did not resend: one call, not three.
      expect(harness.openai.requests).toHaveLength(1);
    }
  });

  it('is absent when the provider did not say, and on failures no retry can fix', async () => {
    const { harness, key } = context;
    const client = harness.openaiClient(key);
    harness.openai.setNext({ status: 503 });
    const unsaid = await client.chat.completions.create(chat).catch((error: unknown) => error);
    expect((unsaid as InstanceType<typeof OpenAI.APIError>).headers!.get('retry-after')).toBeNull();
    harness.openai.setNext({ status: 400, headers: { 'retry-after': '5' } });
    const final = await client.chat.completions.create(chat).catch((error: unknown) => error);
    const headers = (final as InstanceType<typeof OpenAI.APIError>).headers!;
    expect(headers.get('x-should-retry')).toBe('false');
    expect(headers.get('retry-after')).toBeNull();
  });

  it('makes the official client wait as long as the provider asked before resending', async () => {
    const { harness, key } = context;
    const client = new OpenAI({ baseURL: `${harness.url}/v1`, apiKey: key, maxRetries: 1 });
    harness.openai.setNext({ status: 429, headers: { 'retry-after': '2' } });
    const started = performance.now();
    const completion = await client.chat.completions.create(chat);
    const waited = performance.now() - started;
    expect(completion.choices[0]!.message.content).toBe('You said: hello');
    expect(harness.openai.requests).toHaveLength(2);
    // Without the header the client resends after its own backoff, under a second.
    expect(waited).toBeGreaterThanOrEqual(1900);
  });
});
