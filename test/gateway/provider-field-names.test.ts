import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { gatewayAdmin, startTempServers, type TempServers } from '../support/temp-servers.js';
import { startOpenAIUpstream, type OpenAIUpstream } from '../support/upstreams/index.js';

const KEY = 'sk-field-names-0123456789';

/**
 * The fast path forwards the client's chat body as written, with the gateway's own additions; a few
 * servers refuse some of them under the name used. OpenAI's reasoning models refuse `max_tokens`
 * (the name `per_model_max_tokens` adds when a request has no limit), and Mistral refuses
 * `stream_options` (which the gateway adds to every stream to count its tokens).
 */
describe('token and stream fields each server takes', () => {
  let upstream: OpenAIUpstream;
  let servers: TempServers;
  let openai: OpenAI;
  beforeAll(async () => {
    upstream = await startOpenAIUpstream({ apiKey: KEY });
    servers = await startTempServers({
      llm: { allowed_models: ['o3-mini', 'gpt-4o-mini', 'mistral-small'], per_model_max_tokens: { 'o3-mini': 1000 } },
      gateway: { max_retries: 0 },
      deployments: [
        { model: 'o3-mini', provider: 'openai', base_url: upstream.url, api_key: KEY },
        { model: 'gpt-4o-mini', provider: 'openai', base_url: upstream.url, api_key: KEY },
        { model: 'mistral-small', provider: 'mistral', base_url: upstream.url, api_key: KEY },
      ],
    });
    const created = await gatewayAdmin(() => servers)('POST', '/internal/api-keys', { scopes: ['*'] });
    const { key } = created.body;
    openai = new OpenAI({ baseURL: `${servers.gatewayUrl}/v1`, apiKey: key, maxRetries: 0 });
  });
  beforeEach(() => upstream.reset());
  afterAll(async () => {
    await servers.stop();
    await upstream.close();
  });
  const messages = [{ role: 'user' as const, content: 'hi' }];

  it('sends a reasoning model its cap, and a max_tokens, as max_completion_tokens', async () => {
    await openai.chat.completions.create({ model: 'o3-mini', messages });
    expect(upstream.lastRequest()!.body).toMatchObject({ max_completion_tokens: 1000 });
    expect(upstream.lastRequest()!.body).not.toHaveProperty('max_tokens');
    await openai.chat.completions.create({ model: 'o3-mini', messages, max_tokens: 300 });
    expect(upstream.lastRequest()!.body).toMatchObject({ max_completion_tokens: 300 });
    expect(upstream.lastRequest()!.body).not.toHaveProperty('max_tokens');
    await openai.chat.completions.create({ model: 'o3-mini', messages, max_tokens: 5000, max_completion_tokens: 700 });
    expect(upstream.lastRequest()!.body).toMatchObject({ max_completion_tokens: 700 });
    expect(upstream.lastRequest()!.body).not.toHaveProperty('max_tokens');
    // Other models keep the name the client used.
    await openai.chat.completions.create({ model: 'gpt-4o-mini', messages, max_tokens: 300 });
    expect(upstream.lastRequest()!.body).toMatchObject({ max_tokens: 300 });
  });

  it("gives a reasoning model a Responses client's reasoning effort over chat completions, and other models none", async () => {
    // It was dropped: an o-series model behind a chat API thought at its default effort whatever was asked.
    await openai.responses.create({ model: 'o3-mini', input: 'hi', reasoning: { effort: 'high' } });
    expect(upstream.lastRequest()!.path).toBe('/v1/chat/completions');
    expect(upstream.lastRequest()!.body).toMatchObject({ reasoning_effort: 'high' });
    // gpt-4o answers 400 to it.
    await openai.responses.create({ model: 'gpt-4o-mini', input: 'hi', reasoning: { effort: 'high' } });
    expect(upstream.lastRequest()!.body).not.toHaveProperty('reasoning_effort');
    await openai.responses.create({ model: 'o3-mini', input: 'hi' });
    expect(upstream.lastRequest()!.body).not.toHaveProperty('reasoning_effort');
  });

  it('asks Mistral for no stream_options, even when the client did', async () => {
    const stream = await openai.chat.completions.create({
      model: 'mistral-small',
      messages,
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('You said: hi');
    expect(upstream.lastRequest()!.body).not.toHaveProperty('stream_options');
    for await (const chunk of await openai.chat.completions.create({ model: 'gpt-4o-mini', messages, stream: true }))
      void chunk;
    expect(upstream.lastRequest()!.body).toMatchObject({ stream_options: { include_usage: true } });
  });

  it('leaves out the usage a client did not ask for: no usage chunk, and no "usage": null on every chunk', async () => {
    const raw = async (extra: Record<string, unknown>): Promise<string> => {
      const response = await fetch(`${servers.gatewayUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${openai.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages, stream: true, ...extra }),
      });
      return response.text();
    };
    const unasked = await raw({});
    expect(unasked).toContain('"delta":{"content"');
    expect(unasked).not.toContain('"usage"');
    // As OpenAI sends it when asked: null on each chunk, then the usage-only chunk.
    const asked = await raw({ stream_options: { include_usage: true } });
    expect(asked).toContain('"usage":null');
    expect(asked).toMatch(/"choices":\[\],"usage":\{"prompt_tokens":\d+/);
  });
});
