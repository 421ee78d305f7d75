import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { gatewayAdmin, startTempServers, type TempServers } from '../support/temp-servers.js';
import {
  mockVector,
  startAnthropicUpstream,
  startOpenAIUpstream,
  type AnthropicUpstream,
  type OpenAIUpstream,
} from '../support/upstreams/index.js';

const KEY = 'sk-invalid-answer-0123456789';

/**
 * A 2xx that is no answer (not JSON, a field missing, the wrong number of vectors) is what the same
 * deployment answers again: resending it there multiplied the cost by its retries and changed nothing.
 * Retries are for 429, 5xx, timeouts and connection errors; another deployment of the model is still tried.
 */
describe('a 2xx answer that is no answer', () => {
  let first: OpenAIUpstream;
  let second: OpenAIUpstream;
  let claude: AnthropicUpstream;
  let servers: TempServers;
  let apiKey: string;
  const admin = gatewayAdmin(() => servers);

  const post = async (path: string, body: unknown): Promise<{ status: number; headers: Headers; body: any }> => {
    const response = await fetch(`${servers.gatewayUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, headers: response.headers, body: await response.json() };
  };

  beforeAll(async () => {
    [first, second, claude] = await Promise.all([
      startOpenAIUpstream({ apiKey: KEY }),
      startOpenAIUpstream({ apiKey: KEY }),
      startAnthropicUpstream({ apiKey: KEY }),
    ]);
    const openai = (id: string, model: string, url: string, extra: Record<string, unknown> = {}) => ({
      id,
      model,
      provider: 'openai',
      upstream_model: 'gpt-4o-mini',
      base_url: url,
      api_key: KEY,
      ...extra,
    });
    servers = await startTempServers({
      llm: { allowed_models: ['lone-chat', 'pair-chat', 'lone-embed', 'lone-claude'] },
      gateway: { max_retries: 2, retry_backoff_ms: 5 },
      deployments: [
        openai('lone', 'lone-chat', first.url),
        // Weights make the first the first choice (all but certainly), so the fallback order is known.
        openai('pair-first', 'pair-chat', first.url, { weight: 1_000_000 }),
        openai('pair-second', 'pair-chat', second.url, { weight: 0.000001 }),
        openai('embed', 'lone-embed', first.url, { upstream_model: 'text-embedding-3-small' }),
        {
          id: 'claude',
          model: 'lone-claude',
          provider: 'anthropic',
          upstream_model: 'claude-opus-4-7',
          base_url: claude.url,
          api_key: KEY,
        },
      ],
    });
    apiKey = (await admin('POST', '/internal/api-keys', { scopes: ['chat', 'embeddings'] })).body.key;
  });
  beforeEach(() => {
    first.reset();
    second.reset();
    claude.reset();
  });
  afterAll(async () => {
    await servers?.stop();
    await Promise.all([first?.close(), second?.close(), claude?.close()]);
  });

  it('is asked once of a lone deployment, and the SDKs are told not to resend it', async () => {
    first.setNext({ body: { hello: 'world' } }, { body: { hello: 'world' } }, { body: { hello: 'world' } });
    const answer = await post('/v1/chat/completions', {
      model: 'lone-chat',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(answer.status).toBe(502);
    expect(answer.body.error.message).toContain("JSON that is no chat answer: it has no 'choices'");
    expect(answer.body.error.message).not.toContain('attempts');
    expect(answer.headers.get('x-upstream-status')).toBe('200');
    expect(answer.headers.get('x-should-retry')).toBe('false');
    expect(first.requests).toHaveLength(1);
  });

  it("goes to the model's next deployment at once, which answers", async () => {
    first.setNext({ body: { hello: 'world' } }, { body: { hello: 'world' } });
    const answer = await post('/v1/chat/completions', {
      model: 'pair-chat',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(answer.status).toBe(200);
    expect(answer.body.choices[0].message.content).toBe('You said: hi');
    expect(answer.headers.get('x-gateway-attempts')).toBe('2');
    expect(first.requests).toHaveLength(1);
    expect(second.requests).toHaveLength(1);
  });

  it('embeddings with the wrong number of vectors are asked once', async () => {
    const one = {
      object: 'list',
      data: [{ object: 'embedding', index: 0, embedding: mockVector('a', 8) }],
      model: 'text-embedding-3-small',
      usage: { prompt_tokens: 2, total_tokens: 2 },
    };
    first.setNext({ body: one }, { body: one }, { body: one });
    const answer = await post('/v1/embeddings', { model: 'lone-embed', input: ['a', 'b'], encoding_format: 'float' });
    expect(answer.status).toBe(502);
    expect(answer.body.error.message).toContain('1 embedding for 2 inputs');
    expect(answer.headers.get('x-should-retry')).toBe('false');
    expect(first.requests).toHaveLength(1);
  });

  it('a count_tokens answer without its count is asked once', async () => {
    claude.setNext({ body: { tokens: 3 } }, { body: { tokens: 3 } }, { body: { tokens: 3 } });
    const answer = await post('/v1/messages/count_tokens', {
      model: 'lone-claude',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(answer.status).toBe(502);
    expect(answer.body.error.message).toContain('without an input_tokens count');
    expect(claude.requests).toHaveLength(1);
  });

  it('a 503 is still retried on the same deployment', async () => {
    first.setNext({ status: 503 }, { status: 503 });
    const answer = await post('/v1/chat/completions', {
      model: 'lone-chat',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(answer.status).toBe(200);
    expect(first.requests).toHaveLength(3);
  });
});
