import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { gatewayAdmin, startTempServers, type TempServers } from '../support/temp-servers.js';
import { startOpenAIUpstream, type OpenAIUpstream } from '../support/upstreams/index.js';
import { startLargeAnswerUpstream, type LargeAnswerUpstream } from './upstream-bytes-upstream.js';

/** The most the endless upstream sends, whatever the gateway does: far past the 1 MiB read of such an answer. */
const SENT_AT_MOST = 64 * 1024 * 1024;

/**
 * A stream request answered with JSON is an error the provider reports (a model still loading); one
 * answered with endless invalid JSON was read whole, hundreds of MB, and retried as a broken answer,
 * downloading as much again each time. It is read to 1 MiB like an error body and refused as too
 * large: the same deployment is not asked again, another one of the model is.
 */
describe('a stream request answered with endless JSON', () => {
  let endless: LargeAnswerUpstream;
  let sound: OpenAIUpstream;
  let servers: TempServers;
  let apiKey: string;

  beforeAll(async () => {
    endless = await startLargeAnswerUpstream(() => ({
      contentType: 'application/json',
      // Not JSON at all: before this, taken for a broken answer worth another try.
      head: '',
      bytes: SENT_AT_MOST,
      tail: '',
    }));
    sound = await startOpenAIUpstream();
    const deployment = (id: string, model: string, baseUrl: string, weight: number) => ({
      id,
      model,
      provider: 'openai',
      upstream_model: 'gpt-4o-mini',
      base_url: baseUrl,
      api_key: 'sk-bytes-0123456789',
      max_retries: 2,
      weight,
    });
    servers = await startTempServers({
      llm: { allowed_models: ['only-endless', 'endless-then-sound'] },
      gateway: { retry_backoff_ms: 20 },
      deployments: [
        deployment('only', 'only-endless', endless.url, 1),
        // Weights that put the endless deployment first every time.
        deployment('endless-first', 'endless-then-sound', endless.url, 1_000_000),
        deployment('sound-second', 'endless-then-sound', sound.url, 0.000001),
      ],
    });
    apiKey = (await gatewayAdmin(() => servers)('POST', '/internal/api-keys', { scopes: ['chat'] })).body.key;
  });
  afterAll(async () => {
    await servers?.stop();
    await sound?.close();
    await endless?.close();
  });
  beforeEach(() => {
    endless.reset();
    sound.reset();
  });

  const streamRequest = (model: string) =>
    fetch(`${servers.gatewayUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });

  it('is refused as too large after 1 MiB, once, and answered 502 that the SDKs do not resend', async () => {
    const answer = await streamRequest('only-endless');
    expect(answer.status).toBe(502);
    expect(answer.headers.get('x-should-retry')).toBe('false');
    const { error } = (await answer.json()) as { error: { message: string; upstream: { type: string } } };
    expect(error.message).toBe('openai upstream answered 200 with a body larger than 1 MiB, not read further');
    expect(error.upstream.type).toBe('answer_too_large');
    expect(endless.requests).toBe(1);
    expect(await endless.cutShort).toBe(true);
    expect(endless.sentBytes).toBeLessThan(SENT_AT_MOST / 2);
  });

  it('falls back to another deployment of the model without asking the same one again', async () => {
    const openai = new OpenAI({ baseURL: `${servers.gatewayUrl}/v1`, apiKey, maxRetries: 0 });
    const { data, response } = await openai.chat.completions
      .create({ model: 'endless-then-sound', stream: true, messages: [{ role: 'user', content: 'hi' }] })
      .withResponse();
    let text = '';
    for await (const part of data) text += part.choices[0]?.delta.content ?? '';
    expect(text).toBe('You said: hi');
    expect(response.headers.get('x-gateway-deployment')).toBe('sound-second');
    expect(endless.requests).toBe(1);
    expect(sound.requests).toHaveLength(1);
    expect(await endless.cutShort).toBe(true);
  });
});
