import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { metricValue } from '../../support/metric-value.js';
import { startGatewayHarness, type GatewayHarness } from '../support/harness.js';

/**
 * The response cache on every endpoint, through the official SDKs: the second identical request is
 * answered without an upstream call (the recording upstreams count), streams are replayed in the
 * endpoint's own format and parsed by the SDKs, and a hit is a usage row with cached=1 and no tokens.
 */
describe('response cache on every endpoint', () => {
  let h: GatewayHarness;
  let secret: string;

  beforeAll(async () => {
    h = await startGatewayHarness({ cache: { enabled: true, ttl_seconds: 600 } });
    secret = (await h.issueKey({ scopes: ['chat', 'embeddings', 'responses'], team: 'endpoints' })).key;
  });
  beforeEach(async () => {
    h.openai.reset();
    h.anthropic.reset();
    await h.admin('POST', '/internal/cache/purge', {});
  });
  afterAll(async () => h.close());

  /** The newest usage rows, newest first, after the batch was written. */
  const latestRows = async (n: number): Promise<any[]> => (await h.usageRows(`limit=${n}`)).slice(0, n);

  it('chat completions: a miss then a hit, with X-Cache-Hit and no second upstream call', async () => {
    const client = h.openaiClient(secret);
    const ask = () =>
      client.chat.completions
        .create({ model: 'fast', temperature: 0, messages: [{ role: 'user', content: 'cache me' }] })
        .withResponse();
    const first = await ask();
    expect(first.response.headers.get('x-cache-hit')).toBe('false');
    const second = await ask();
    expect(second.response.headers.get('x-cache-hit')).toBe('true');
    expect(second.data.choices[0]!.message.content).toBe('You said: cache me');
    // The same answer under an id and a time of its own: a replay is a new answer, which clients log
    // and de-duplicate by id (it had the first one's).
    expect(second.data).toEqual({
      ...first.data,
      id: expect.stringMatching(/^chatcmpl-/),
      created: expect.any(Number),
    });
    expect(second.data.id).not.toBe(first.data.id);
    expect(h.openai.requests).toHaveLength(1);
    const [hit, miss] = await latestRows(2);
    expect(miss).toMatchObject({ cached: false, endpoint: 'chat', model: 'gpt-4o-mini' });
    expect(miss.prompt_tokens).toBeGreaterThan(0);
    expect(hit).toMatchObject({ cached: true, prompt_tokens: 0, completion_tokens: 0, cost_usd: 0, status: 200 });
  });

  it('says x-cache-hit: false on a provider failure too, beside where the limits stand', async () => {
    h.openai.setNext({ status: 500 });
    const answer = await fetch(`${h.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'fast', temperature: 0, messages: [{ role: 'user', content: 'failing' }] }),
    });
    expect(answer.status).toBe(502);
    expect(answer.headers.get('x-cache-hit')).toBe('false');
    // The failure is not kept: the next identical request goes upstream.
    expect(
      (
        await h
          .openaiClient(secret)
          .chat.completions.create({ model: 'fast', temperature: 0, messages: [{ role: 'user', content: 'failing' }] })
          .withResponse()
      ).response.headers.get('x-cache-hit'),
    ).toBe('false');
  });

  it('keys on the body as routed: an alias and its target share one entry', async () => {
    const client = h.openaiClient(secret);
    const messages = [{ role: 'user' as const, content: 'alias or not' }];
    await client.chat.completions.create({ model: 'fast', temperature: 0, messages });
    const { response } = await client.chat.completions
      .create({ model: 'gpt-4o-mini', temperature: 0, messages })
      .withResponse();
    expect(response.headers.get('x-cache-hit')).toBe('true');
    expect(h.openai.requests).toHaveLength(1);
  });

  it('chat completions stream: replayed as chunks the SDK parses, text and finish reason intact', async () => {
    const client = h.openaiClient(secret);
    const run = async (): Promise<{ text: string; finish: string | null; hit: string | null }> => {
      const { data: stream, response } = await client.chat.completions
        .create({
          model: 'gpt-4o-mini',
          temperature: 0,
          stream: true,
          stream_options: { include_usage: true },
          messages: [{ role: 'user', content: 'stream me please' }],
        })
        .withResponse();
      let text = '';
      let finish: string | null = null;
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? '';
        finish = chunk.choices[0]?.finish_reason ?? finish;
      }
      return { text, finish, hit: response.headers.get('x-cache-hit') };
    };
    const first = await run();
    const second = await run();
    expect(first).toEqual({ text: 'You said: stream me please', finish: 'stop', hit: 'false' });
    expect(second).toEqual({ ...first, hit: 'true' });
    expect(h.openai.requests).toHaveLength(1);
    const [hit] = await latestRows(1);
    expect(hit).toMatchObject({ cached: true, stream: true, prompt_tokens: 0, completion_tokens: 0 });
  });

  it('never keeps a stream that failed midway, nor an answer larger than max_entry_bytes', async () => {
    const client = h.openaiClient(secret);
    const streamed = async (): Promise<string> => {
      const stream = await client.chat.completions.create({
        model: 'gpt-4o-mini',
        temperature: 0,
        stream: true,
        messages: [{ role: 'user', content: 'this stream breaks' }],
      });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      return text;
    };
    h.openai.setNext({ streamErrorAfterFrames: 2 });
    await expect(streamed()).rejects.toThrow();
    expect(await streamed()).toBe('You said: this stream breaks');
    expect(await streamed()).toBe('You said: this stream breaks');
    expect(h.openai.requests).toHaveLength(2);

    await h.admin('PUT', '/internal/cache', { max_entry_bytes: 64 });
    try {
      const ask = () =>
        client.chat.completions
          .create({ model: 'gpt-4o-mini', temperature: 0, messages: [{ role: 'user', content: 'too big to keep' }] })
          .withResponse();
      await ask();
      expect((await ask()).response.headers.get('x-cache-hit')).toBe('false');
      expect(h.openai.requests).toHaveLength(4);
    } finally {
      await h.admin('PUT', '/internal/cache', { reset: true });
    }
  });

  it('a streamed and a whole answer are separate entries (the stream flag is part of the request)', async () => {
    const client = h.openaiClient(secret);
    const messages = [{ role: 'user' as const, content: 'whole first' }];
    await client.chat.completions.create({ model: 'gpt-4o-mini', temperature: 0, messages });
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      temperature: 0,
      messages,
      stream: true,
    });
    for await (const chunk of stream) void chunk;
    expect(h.openai.requests).toHaveLength(2);
  });

  it('gives a short id, as Ollama numbers its answers, a fresh one too', async () => {
    h.openai.setDefault({ reply: { id: 'chatcmpl-456', text: 'short id' } });
    try {
      const ask = () =>
        h.openaiClient(secret).chat.completions.create({
          model: 'fast',
          temperature: 0,
          messages: [{ role: 'user', content: 'ollama ids' }],
        });
      expect((await ask()).id).toBe('chatcmpl-456');
      expect((await ask()).id).toMatch(/^chatcmpl-[A-Za-z0-9]{24}$/);
    } finally {
      h.openai.setDefault({});
    }
  });

  it('a replayed stream carries one fresh id in every chunk, and a tool call keeps its id consistent', async () => {
    const client = h.openaiClient(secret);
    h.openai.setDefault({ reply: { toolCalls: [{ id: 'call_cached01', name: 'lookup', arguments: '{"q":"x"}' }] } });
    try {
      const ids = async (): Promise<{ chunk: string[]; call: string[] }> => {
        const stream = await client.chat.completions.create({
          model: 'fast',
          temperature: 0,
          stream: true,
          tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }],
          messages: [{ role: 'user', content: 'replay my ids' }],
        });
        const seen = { chunk: [] as string[], call: [] as string[] };
        for await (const chunk of stream) {
          seen.chunk.push(chunk.id);
          for (const call of chunk.choices[0]?.delta.tool_calls ?? []) if (call.id) seen.call.push(call.id);
        }
        return seen;
      };
      const first = await ids();
      const second = await ids();
      expect(h.openai.requests.filter((r) => r.body?.messages?.[0]?.content === 'replay my ids')).toHaveLength(1);
      expect(new Set(second.chunk).size).toBe(1);
      expect(second.chunk[0]).toMatch(/^chatcmpl-/);
      expect(second.chunk[0]).not.toBe(first.chunk[0]);
      expect(second.call).toHaveLength(1);
      expect(second.call[0]).toMatch(/^call_/);
      expect(second.call[0]).not.toBe('call_cached01');
    } finally {
      h.openai.setDefault({});
    }
  });

  it('Messages: JSON and streamed answers come from the cache through @anthropic-ai/sdk', async () => {
    const client = h.anthropicClient(secret);
    const body = {
      model: 'smart',
      max_tokens: 50,
      temperature: 0,
      system: 'be brief',
      messages: [{ role: 'user' as const, content: 'hello cache' }],
    };
    const first = await client.messages.create(body).withResponse();
    const second = await client.messages.create(body).withResponse();
    expect(first.response.headers.get('x-cache-hit')).toBe('false');
    expect(second.response.headers.get('x-cache-hit')).toBe('true');
    expect(second.data).toEqual({ ...first.data, id: expect.stringMatching(/^msg_/) });
    expect(second.data.id).not.toBe(first.data.id);
    expect(second.data.content).toEqual([{ type: 'text', text: 'You said: hello cache' }]);

    const streamed = async (): Promise<string> => {
      const stream = client.messages.stream({ ...body, messages: [{ role: 'user', content: 'stream cache' }] });
      const message = await stream.finalMessage();
      return message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
    };
    expect(await streamed()).toBe('You said: stream cache');
    expect(await streamed()).toBe('You said: stream cache');
    expect(h.anthropic.requests).toHaveLength(2);
    const [hit] = await latestRows(1);
    expect(hit).toMatchObject({ endpoint: 'messages', cached: true, stream: true, prompt_tokens: 0 });
  });

  it('Responses: JSON and the typed event stream are replayed, and the SDK assembles the final Response', async () => {
    const client = h.openaiClient(secret);
    const first = await client.responses.create({ model: 'gpt-4o-mini', temperature: 0, input: 'responses cache' });
    const again = await client.responses
      .create({ model: 'gpt-4o-mini', temperature: 0, input: 'responses cache' })
      .withResponse();
    expect(again.response.headers.get('x-cache-hit')).toBe('true');
    expect(again.response.headers.get('x-gateway-deployment')).toBeTruthy();
    expect(again.data.output_text).toBe(first.output_text);

    const streamed = async (): Promise<string> => {
      const stream = client.responses.stream({ model: 'gpt-4o-mini', temperature: 0, input: 'stream responses' });
      for await (const event of stream) void event;
      return (await stream.finalResponse()).output_text;
    };
    expect(await streamed()).toBe('You said: stream responses');
    expect(await streamed()).toBe('You said: stream responses');
    expect(h.openai.requests).toHaveLength(2);
    const [hit] = await latestRows(1);
    expect(hit).toMatchObject({ endpoint: 'responses', cached: true, stream: true, completion_tokens: 0 });
  });

  it('Responses with store: true are never cached (each one keeps its own response)', async () => {
    const client = h.openaiClient(secret);
    const a = await client.responses.create({ model: 'gpt-4o-mini', temperature: 0, input: 'kept', store: true });
    const b = await client.responses.create({ model: 'gpt-4o-mini', temperature: 0, input: 'kept', store: true });
    expect(a.id).not.toBe(b.id);
    expect(h.openai.requests).toHaveLength(2);
  });

  it('embeddings: always deterministic, cached without temperature; the hit is committed with cached=1', async () => {
    const client = h.openaiClient(secret);
    const first = await client.embeddings.create({ model: 'text-embedding-3-small', input: ['alpha', 'beta'] });
    const second = await client.embeddings
      .create({ model: 'text-embedding-3-small', input: ['alpha', 'beta'] })
      .withResponse();
    expect(second.response.headers.get('x-cache-hit')).toBe('true');
    expect(second.data.data.map((d) => d.embedding)).toEqual(first.data.map((d) => d.embedding));
    expect(h.openai.requests).toHaveLength(1);
    // Committed before the answer (as every embeddings answer is): visible without waiting for a batch.
    const requestId = second.response.headers.get('x-request-id')!;
    const rows = (await h.admin('GET', `/internal/usage/logs?request_id=${requestId}`)).body.data;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ endpoint: 'embeddings', cached: true, prompt_tokens: 0 });
    const audit = (await h.admin('GET', '/internal/audit?action=embeddings.create')).body.data;
    expect(audit.find((event: any) => event.request_id === requestId)?.details).toMatchObject({ prompt_tokens: 0 });
  });

  it('sampled requests (no temperature 0) are not cached unless the settings say so', async () => {
    const client = h.openaiClient(secret);
    const ask = () =>
      client.chat.completions
        .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'sampled' }] })
        .withResponse();
    const first = await ask();
    expect(first.response.headers.get('x-cache-hit')).toBeNull();
    await ask();
    expect(h.openai.requests).toHaveLength(2);
    await h.admin('PUT', '/internal/cache', { sampled: true });
    try {
      await ask();
      const hit = await ask();
      expect(hit.response.headers.get('x-cache-hit')).toBe('true');
      expect(h.openai.requests).toHaveLength(3);
    } finally {
      await h.admin('PUT', '/internal/cache', { sampled: false });
    }
  });

  it('leaves token counts alone: they run the policy stages but are never an answer to keep', async () => {
    const client = h.anthropicClient(secret);
    const body = { model: 'claude-opus-4-7', messages: [{ role: 'user' as const, content: 'count me' }] };
    const before = (await h.admin('GET', '/internal/cache')).body.stats;
    for (let i = 0; i < 2; i += 1) {
      const { response } = await client.messages.countTokens(body).withResponse();
      expect(response.headers.get('x-cache-hit')).toBeNull();
    }
    expect(h.anthropic.requests).toHaveLength(2);
    expect((await h.admin('GET', '/internal/cache')).body.stats).toEqual(before);
  });

  it('counts hits in gateway_cache_hits_total', async () => {
    const metric = async (): Promise<number> => {
      const text = await (await fetch(`${h.url}/metrics`)).text();
      return metricValue(text, 'gateway_cache_hits_total', 'model="demo/echo"');
    };
    const before = await metric();
    const client = h.openaiClient(secret);
    const ask = () =>
      client.chat.completions.create({
        model: 'demo/echo',
        temperature: 0,
        messages: [{ role: 'user', content: 'count' }],
      });
    await ask();
    await ask();
    await ask();
    expect((await metric()) - before).toBe(2);
  });
});
