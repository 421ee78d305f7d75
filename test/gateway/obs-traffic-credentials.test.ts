import { describe, expect, it } from 'vitest';
import { TEST_MASTER_KEY } from '../support/temp-servers.js';
import { harnessWithKey } from './support/harness.js';

/**
 * Credentials a client stores in free-form body fields under any name (`metadata`, here), and those
 * in URLs (query parameters, user info), never reach the traffic view or its live stream; token
 * counts and other settings whose names merely mention tokens or `k` stay as they are.
 */
const SECRETS = {
  openai_api_key: 'sk-proj-openai0123456789secret',
  private_key: '-----BEGIN PRIVATE KEY-----MIIEvQ0123',
  aws_secret_access_key: 'wJalrXUtnFEMI0123456789EXAMPLEKEY',
  session_token: 'FwoGZXIvYXdzEJr0123456789session',
  bearer: 'eyJhbGciOi0123456789bearer',
  passwd: 'correct-horse-battery-staple-0123',
};
const URL_TOKEN = 'sk-url0123456789querysecret';
const USER_INFO_PASSWORD = 'hunter2-userinfo-0123456789';
const CALLBACK = `https://hooks.example.com/done?page=2&token=${URL_TOKEN}`;
const MIRROR = `https://deploy:${USER_INFO_PASSWORD}@git.example.com/repo.git`;

describe('credentials under any name in recorded bodies', () => {
  const context = harnessWithKey();

  const body = (content: string) => ({
    model: 'demo/echo',
    max_tokens: 50,
    metadata: { ...SECRETS, callback: CALLBACK, mirror: MIRROR, purpose: 'nightly report' },
    messages: [{ role: 'user', content }],
  });
  const send = (payload: object) =>
    fetch(`${context.harness.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${context.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    }).then((response) => response.json() as Promise<{ usage: Record<string, number> }>);

  function expectNoSecrets(text: string): void {
    for (const secret of [...Object.values(SECRETS), URL_TOKEN, USER_INFO_PASSWORD]) expect(text).not.toContain(secret);
  }

  it('redacts them in GET /internal/traffic and keeps token counts', async () => {
    const h = context.harness;
    const answer = await send(body(`post the result to ${CALLBACK}`));
    expect(answer.usage.prompt_tokens).toBeGreaterThan(0);
    const [event] = (await h.admin('GET', '/internal/traffic?limit=1&bodies=true')).body.data;
    expectNoSecrets(JSON.stringify(event));
    expect(event.request_body).toMatchObject({
      max_tokens: 50,
      metadata: {
        openai_api_key: '[redacted]',
        private_key: '[redacted]',
        aws_secret_access_key: '[redacted]',
        session_token: '[redacted]',
        bearer: '[redacted]',
        passwd: '[redacted]',
        callback: 'https://hooks.example.com/done?page=2&token=[redacted]',
        mirror: 'https://[redacted]@git.example.com/repo.git',
        purpose: 'nightly report',
      },
    });
    expect(event.response_body.usage).toEqual(answer.usage);
    expect(event.response_body.choices[0].message.content).toBe(
      'post the result to https://hooks.example.com/done?page=2&token=[redacted]',
    );
  });

  it('keeps usage fields and sampling settings of every API as they are', async () => {
    const h = context.harness;
    // Messages takes top_k; the SDK's types no longer list it.
    const sampling = { top_k: 5 };
    const message = await h.anthropicClient(context.key).messages.create({
      model: 'claude-opus-4-7',
      max_tokens: 20,
      ...sampling,
      messages: [{ role: 'user', content: 'hi' }],
    });
    const [event] = (await h.admin('GET', '/internal/traffic?limit=1&bodies=true')).body.data;
    expect(event.request_body).toMatchObject({ max_tokens: 20, top_k: 5 });
    expect(event.response_body.usage).toMatchObject({
      input_tokens: message.usage.input_tokens,
      output_tokens: message.usage.output_tokens,
    });
  });

  it('redacts them in a body cut at the size limit, shown as text', async () => {
    const h = context.harness;
    await send(body(`${'long '.repeat(20_000)} ${CALLBACK}`));
    const [event] = (await h.admin('GET', '/internal/traffic?limit=1&bodies=true')).body.data;
    expect(event.truncated).toBe(true);
    expect(typeof event.request_body).toBe('string');
    expectNoSecrets(JSON.stringify(event));
    expect(event.request_body).toContain('"passwd":"[redacted]"');
    expect(event.request_body).toContain('"max_tokens":50');
  });

  it('redacts them on the live stream', async () => {
    const h = context.harness;
    const abort = new AbortController();
    const stream = await fetch(`${h.url}/internal/traffic/stream`, {
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}` },
      signal: abort.signal,
    });
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const read = (async () => {
      while (!text.includes('event: traffic')) {
        const { value, done } = await reader.read();
        if (done) break;
        text += value;
      }
    })();
    await send(body(`post the result to ${CALLBACK}`));
    await read;
    abort.abort();
    const frame = text.slice(text.indexOf('event: traffic'));
    const event = JSON.parse(frame.split('\ndata: ')[1]!.split('\n')[0]!);
    expectNoSecrets(frame);
    expect(event.request_body.metadata).toMatchObject({ passwd: '[redacted]', purpose: 'nightly report' });
    expect(event.request_body.max_tokens).toBe(50);
  });
});
