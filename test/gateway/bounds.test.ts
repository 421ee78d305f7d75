import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateResponsesRequest } from '../../src/server/gateway/formats/index.js';
import { loadConfig } from '../../src/server/config/load.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

// Every size a client controls is bounded, and crossing a bound is a 400 naming the field, the
// bound and the value, never an answer that costs the gateway gigabytes.

interface Answer {
  readonly status: number;
  readonly message: string;
}

describe('bounds on request fields', () => {
  let harness: GatewayHarness;
  let key: string;

  const call = async (path: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> => {
    const response = await fetch(`${harness.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as { error?: { message: string } };
    return { status: response.status, message: json.error?.message ?? '' };
  };
  const user = [{ role: 'user', content: 'hi' }];
  const chat = (extra: object) => call('/v1/chat/completions', { model: 'demo/echo', messages: user, ...extra });
  const messages = (extra: object) =>
    call('/v1/messages', { model: 'demo/echo', max_tokens: 16, messages: user, ...extra });
  const embeddings = (extra: object) => call('/v1/embeddings', { model: 'demo/embed', input: 'x', ...extra });
  const refused = (answer: Answer, message: string) => expect(answer).toEqual({ status: 400, message });
  const many = <T>(count: number, item: (index: number) => T): T[] => Array.from({ length: count }, (_, i) => item(i));

  beforeAll(async () => {
    harness = await startGatewayHarness();
    key = (await harness.issueKey({ scopes: ['*'] })).key;
  });
  afterAll(async () => harness.close());

  describe('embeddings', () => {
    it('refuses dimensions that would build a gigantic vector, for every provider', async () => {
      refused(await embeddings({ dimensions: 2147483647 }), 'dimensions must be at most 16384, got 2147483647');
      refused(await embeddings({ dimensions: 10_000_000 }), 'dimensions must be at most 16384, got 10000000');
      refused(
        await embeddings({ model: 'text-embedding-3-small', dimensions: 10_000_000 }),
        'dimensions must be at most 16384, got 10000000',
      );
      refused(await embeddings({ dimensions: 0 }), 'dimensions must be at least 1, got 0');
      const ok = await embeddings({ dimensions: 16384 });
      expect(ok.status).toBe(200);
    });

    it('bounds the batch and the numbers of the whole answer', async () => {
      refused(await embeddings({ input: many(2049, () => 'x') }), 'input must contain at most 2048 inputs, got 2049');
      refused(await embeddings({ input: many(2049, () => [1]) }), 'input must contain at most 2048 inputs, got 2049');
      refused(
        await embeddings({ input: many(2048, () => 'x'), dimensions: 8192 }),
        'dimensions must be at most 3072 for 2048 inputs (at most 6291456 numbers in all), got 8192',
      );
      expect((await embeddings({ input: many(10, () => 'x'), dimensions: 1000 })).status).toBe(200);
    });

    it('bounds token-array inputs', async () => {
      refused(
        await embeddings({ input: many(1_000_001, () => 1) }),
        'input must contain at most 1000000 items, got 1000001 items',
      );
      refused(
        await embeddings({ input: [[1], many(1_000_001, () => 1)] }),
        'input[1] must contain at most 1000000 items, got 1000001 items',
      );
    });
  });

  describe('chat completions', () => {
    it('bounds output tokens, choices and log probabilities', async () => {
      refused(await chat({ max_tokens: 2 ** 31 }), 'max_tokens must be at most 1000000, got 2147483648');
      refused(
        await chat({ max_completion_tokens: 1e15 }),
        'max_completion_tokens must be at most 1000000, got 1000000000000000',
      );
      refused(await chat({ max_tokens: 0 }), 'max_tokens must be at least 1, got 0');
      refused(await chat({ max_tokens: 2.5 }), 'max_tokens must be an integer, got 2.5');
      refused(await chat({ n: 1000 }), 'n must be at most 128, got 1000');
      refused(await chat({ top_logprobs: 21 }), 'top_logprobs must be at most 20, got 21');
      refused(await chat({ top_logprobs: -1 }), 'top_logprobs must be at least 0, got -1');
    });

    it('bounds lists: messages, parts, tools, stop sequences, logit_bias entries', async () => {
      refused(
        await chat({ messages: many(100_001, () => ({ role: 'user', content: 'x' })) }),
        'messages must contain at most 100000 items, got 100001 items',
      );
      refused(
        await chat({ messages: [{ role: 'user', content: many(10_001, () => ({ type: 'text', text: 'x' })) }] }),
        'messages[0].content must contain at most 10000 items, got 10001 items',
      );
      const tool = (index: number) => ({ type: 'function', function: { name: `t${index}` } });
      refused(await chat({ tools: many(1025, tool) }), 'tools must contain at most 1024 items, got 1025 items');
      refused(await chat({ stop: ['a', 'b', 'c', 'd', 'e'] }), 'stop must contain at most 4 items, got 5 items');
      const bias = Object.fromEntries(many(1025, (index) => [String(index), 1]));
      refused(await chat({ logit_bias: bias }), 'logit_bias must have at most 1024 entries, got 1025');
    });

    it('bounds identifiers, not prose', async () => {
      refused(await chat({ model: 'm'.repeat(1025) }), 'model must be at most 1024 characters, got 1025 characters');
      refused(await chat({ stop: 's'.repeat(1025) }), 'stop must be at most 1024 characters, got 1025 characters');
      refused(await chat({ user: 'u'.repeat(5000) }), 'user must be at most 1024 characters, got 5000 characters');
      const long = await chat({ messages: [{ role: 'user', content: 'word '.repeat(400_000) }] });
      expect(long.status).toBe(200);
    });
  });

  describe('messages', () => {
    it('bounds max_tokens, top_k, stop sequences and tools', async () => {
      refused(await messages({ max_tokens: 2 ** 40 }), 'max_tokens must be at most 1000000, got 1099511627776');
      refused(await messages({ top_k: 10_000_000 }), 'top_k must be at most 1000000, got 10000000');
      refused(
        await messages({ stop_sequences: many(257, (index) => `s${index}`) }),
        'stop_sequences must contain at most 256 items, got 257 items',
      );
      const tool = (index: number) => ({ name: `t${index}`, input_schema: { type: 'object' } });
      refused(await messages({ tools: many(1025, tool) }), 'tools must contain at most 1024 items, got 1025 items');
      refused(
        await messages({ messages: [{ role: 'user', content: many(10_001, () => ({ type: 'text', text: 'x' })) }] }),
        'messages[0].content must contain at most 10000 items, got 10001 items',
      );
      refused(
        await messages({ metadata: { user_id: 'u'.repeat(2000) } }),
        'metadata.user_id must be at most 1024 characters, got 2000 characters',
      );
    });
  });

  describe('responses', () => {
    const error = (body: object) => {
      const result = validateResponsesRequest({ model: 'm', input: 'hi', ...body });
      return result.ok ? undefined : result.message;
    };

    it('bounds output tokens, metadata, tools and input items', () => {
      expect(error({ max_output_tokens: 2 ** 31 })).toBe('max_output_tokens must be at most 1000000, got 2147483648');
      expect(error({ top_logprobs: 50 })).toBe('top_logprobs must be at most 20, got 50');
      const metadata = Object.fromEntries(many(17, (index) => [`k${index}`, 'v']));
      expect(error({ metadata })).toBe('metadata must have at most 16 entries, got 17');
      expect(error({ metadata: { ['k'.repeat(65)]: 'v' } })).toBe(
        'metadata keys must be at most 64 characters, got one of 65 characters',
      );
      expect(error({ input: many(100_001, () => ({ role: 'user', content: 'x' })) })).toBe(
        'input must contain at most 100000 items, got 100001 items',
      );
      expect(error({ tools: many(1025, (index) => ({ type: 'function', name: `t${index}` })) })).toBe(
        'tools must contain at most 1024 items, got 1025 items',
      );
      expect(error({ max_output_tokens: 100 })).toBeUndefined();
    });
  });
});

describe('bounds on admin query parameters', () => {
  let harness: GatewayHarness;

  const get = async (path: string): Promise<Answer> => {
    const answer = await harness.admin('GET', path);
    return { status: answer.status, message: answer.body?.error?.message ?? '' };
  };

  beforeAll(async () => {
    harness = await startGatewayHarness();
  });
  afterAll(async () => harness.close());

  it('refuses usage times no date can show, naming the parameter', async () => {
    const bound = 'must be at most 253402300799999 (the end of year 9999)';
    expect(await get('/internal/usage?until=99999999999999999999999')).toEqual({
      status: 400,
      message: `query parameter until ${bound}, got '99999999999999999999999'`,
    });
    expect(await get('/internal/usage?since=8640000000000001')).toEqual({
      status: 400,
      message: `query parameter since ${bound}, got '8640000000000001'`,
    });
    expect((await get('/internal/usage?since=0&until=253402300799999')).status).toBe(200);
    expect((await get('/internal/usage?since=0000-01-01T00:00:00Z&until=9999-12-31T23:59:59Z')).status).toBe(200);
  });

  it('refuses page sizes and cursors out of range, and integers that are not plain digits', async () => {
    for (const path of ['/internal/usage/logs', '/internal/audit']) {
      expect(await get(`${path}?limit=1001`)).toEqual({
        status: 400,
        message: 'query parameter limit must be at most 1000, got 1001',
      });
      expect(await get(`${path}?limit=0`)).toEqual({
        status: 400,
        message: 'query parameter limit must be at least 1, got 0',
      });
      expect(await get(`${path}?limit=1e3`)).toEqual({
        status: 400,
        message: "query parameter limit must be a number, got '1e3'",
      });
      expect(await get(`${path}?before=99999999999999999999999`)).toEqual({
        status: 400,
        message: 'query parameter before must be at most 9007199254740991, got 1e+23',
      });
      expect(await get(`${path}?before=${'9'.repeat(400)}`)).toMatchObject({
        status: 400,
        message: expect.stringContaining('query parameter before must be at most 9007199254740991'),
      });
      // Past both its own bound and every integer's, a value is named once, with its own bound.
      expect(await get(`${path}?limit=99999999999999999999`)).toEqual({
        status: 400,
        message: 'query parameter limit must be at most 1000, got 100000000000000000000',
      });
      expect((await get(`${path}?limit=1000&before=9007199254740991`)).status).toBe(200);
    }
    expect(await get('/internal/traffic?limit=10001')).toEqual({
      status: 400,
      message: 'query parameter limit must be at most 10000, got 10001',
    });
    expect(await get('/internal/traffic?after=-1')).toEqual({
      status: 400,
      message: 'query parameter after must be at least 0, got -1',
    });
    expect(await get('/internal/traffic/stream?after=0x10')).toEqual({
      status: 400,
      message: "query parameter after must be a number, got '0x10'",
    });
  });
});

describe('bounds on durations a timer waits for', () => {
  let harness: GatewayHarness;
  beforeAll(async () => {
    harness = await startGatewayHarness();
  });
  afterAll(async () => harness.close());

  it("refuses a deployment's timeout longer than a timer can wait, which would fire at once", async () => {
    const put = (timeout: number) =>
      harness.admin('PUT', '/internal/deployments', {
        deployments: [{ id: 'long', model: 'gpt-4o-mini', base_url: harness.openai.url, timeout_ms: timeout }],
      });
    const refused = await put(2 ** 31);
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe(
      'deployments[0].timeout_ms must be at most 2147483647 ms (some 24.8 days), the longest a timer can wait',
    );
    expect((await put(2 ** 31 - 1)).status).toBe(200);
    await harness.admin('PUT', '/internal/deployments', { reset: true });
  });

  it('refuses the same in the configuration file, for every timeout of the server', () => {
    for (const [overrides, key] of [
      [{ server: { shutdown_timeout_ms: 1e15 } }, 'server.shutdown_timeout_ms'],
      [{ server: { keep_alive_timeout_ms: 2 ** 31 } }, 'server.keep_alive_timeout_ms'],
      [{ deployments: [{ model: 'm', provider: 'demo', timeout_ms: 2 ** 40 }] }, 'deployments[0].timeout_ms'],
    ] as const)
      expect(() => loadConfig({ env: {}, overrides })).toThrow(`${key}: must be at most 2147483647 ms`);
  });
});
