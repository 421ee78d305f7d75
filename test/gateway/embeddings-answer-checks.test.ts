import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI, { type APIError } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mockVector } from '../support/upstreams/index.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * An upstream answering every call 200 with `next` as it is written: the shared mock re-serialises
 * its scripts, and JSON.stringify writes Infinity as null.
 */
interface RawUpstream {
  next: string;
  calls: number;
  readonly url: string;
  readonly server: Server;
}

async function startRawUpstream(): Promise<RawUpstream> {
  const state = { next: '{}', calls: 0 };
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      state.calls += 1;
      response.writeHead(200, { 'content-type': 'application/json' }).end(state.next);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return Object.assign(state, { url, server });
}

/**
 * What the gateway does with an upstream's 200 embeddings answer that is no answer to the request
 * (a null vector, too few vectors, strings for numbers, fewer dimensions than asked), and with the
 * request fields Python clients send as None: the caller gets a 502 `invalid_response` it can read, or
 * its answer, never a 500 or a wrong answer relayed as a success, charged and cached.
 */
describe('embeddings answers checked against the request', () => {
  let h: GatewayHarness;
  let secret: string;
  let raw: RawUpstream;
  beforeAll(async () => {
    raw = await startRawUpstream();
    h = await startGatewayHarness({
      llm: {
        allowed_models: ['text-embedding-3-small', 'raw-embed'],
        default_embedding_model: 'text-embedding-3-small',
      },
      deployments: [
        { id: 'raw', model: 'raw-embed', provider: 'openai', base_url: raw.url, api_key: 'sk-raw-upstream-0123456789' },
      ],
      cache: { enabled: true, ttl_seconds: 600 },
      // One retry allowed, so a 2xx that is no answer shows as one upstream call, not two.
      gateway: { max_retries: 1, retry_backoff_ms: 1 },
    });
    secret = (await h.issueKey({ scopes: ['embeddings'] })).key;
  });
  afterAll(async () => {
    await h.close();
    await new Promise((resolve) => raw.server.close(resolve));
  });
  beforeEach(async () => {
    h.openai.reset();
    await h.admin('POST', '/internal/cache/purge', {});
  });

  interface Answer {
    readonly status: number;
    readonly headers: Headers;
    readonly body: any;
  }

  const post = async (body: Record<string, unknown>): Promise<Answer> => {
    const response = await fetch(`${h.url}/v1/embeddings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'text-embedding-3-small', encoding_format: 'float', ...body }),
    });
    return { status: response.status, headers: response.headers, body: await response.json() };
  };

  /** An upstream answer holding `data` as given. */
  const upstream = (data: unknown): { body: unknown } => ({
    body: { object: 'list', data, model: 'text-embedding-3-small', usage: { prompt_tokens: 2, total_tokens: 2 } },
  });
  const item = (index: unknown, embedding: unknown): Record<string, unknown> => ({
    object: 'embedding',
    index,
    embedding,
  });

  /** Asserts the answer is the 502 of a 2xx that is no answer, naming `problem`, asked of the upstream once. */
  const expectInvalid = async (answer: Answer, problem: string, calls = 1): Promise<void> => {
    expect(answer.status).toBe(502);
    expect(answer.body.error).toMatchObject({ type: 'upstream_error', code: 502 });
    expect(answer.body.error.upstream).toMatchObject({ type: 'invalid_response' });
    expect(answer.body.error.message).toContain('no embeddings answer');
    expect(answer.body.error.message).toContain(problem);
    // The deployment would answer the same again: the SDKs must not send it three times more.
    expect(answer.headers.get('x-should-retry')).toBe('false');
    expect(h.openai.requests).toHaveLength(calls);
    const rows = await h.usageRows(`request_id=${answer.headers.get('x-request-id')}`);
    expect(rows.map((row) => row.status)).toEqual([502]);
  };

  it('answers a null vector, a null item or a number as a vector as invalid_response, not a 500', async () => {
    const cases: Array<[unknown[], string]> = [
      [[item(0, null)], 'data[0].embedding is null'],
      [[null], 'data[0] is null'],
      [[item(0, 0.5)], 'data[0].embedding is 0.5, not a list of numbers'],
    ];
    for (const [data, problem] of cases) {
      h.openai.reset();
      h.openai.setNext(upstream(data));
      await expectInvalid(await post({ input: 'x' }), problem);
    }
  });

  it('the official SDK sees a 502 it is told not to resend', async () => {
    h.openai.setNext(upstream([item(0, null)]));
    const client = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: secret, maxRetries: 2 });
    const error = await client.embeddings
      .create({ model: 'text-embedding-3-small', input: 'x', encoding_format: 'float' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    expect((error as APIError).status).toBe(502);
    // Neither the gateway nor the SDK asked again.
    expect(h.openai.requests).toHaveLength(1);
  });

  it('refuses fewer or more vectors than inputs, and charges and caches none of them', async () => {
    const cases: Array<[unknown, unknown[], string]> = [
      [['a', 'b'], [], '0 embeddings for 2 inputs'],
      [['a', 'b', 'c'], [item(0, [0.1, 0.2])], '1 embedding for 3 inputs'],
      [['a'], [item(0, [0.1]), item(1, [0.2])], '2 embeddings for 1 input'],
    ];
    for (const [input, data, problem] of cases) {
      h.openai.reset();
      h.openai.setNext(upstream(data));
      await expectInvalid(await post({ input }), problem);
      // Not cached: the same request goes upstream again and gets a real answer.
      const again = await post({ input });
      expect(again.status).toBe(200);
      expect(again.body.data).toHaveLength((input as string[]).length);
      expect(h.openai.requests).toHaveLength(2);
    }
  });

  it('refuses an index outside the inputs, repeated, or not an integer', async () => {
    const cases: Array<[unknown[], string]> = [
      [[item(0, [0.1]), item(2, [0.2])], 'data[1].index is 2'],
      [[item(1, [0.1]), item(1, [0.2])], 'index 1 twice'],
      [[item(0, [0.1]), item(0.5, [0.2])], 'data[1].index is 0.5'],
      [[item(0, [0.1]), item('1', [0.2])], "data[1].index is '1'"],
    ];
    for (const [data, problem] of cases) {
      h.openai.reset();
      h.openai.setNext(upstream(data));
      await expectInvalid(await post({ input: ['a', 'b'] }), problem);
    }
  });

  it('puts vectors in input order, and numbers those without an index by their place', async () => {
    h.openai.setNext(upstream([item(1, [0, 1]), item(0, [1, 0])]));
    const sorted = await post({ input: ['a', 'b'] });
    expect(sorted.status).toBe(200);
    expect(sorted.body.data).toEqual([item(0, [1, 0]), item(1, [0, 1])]);

    h.openai.setNext(upstream([{ object: 'embedding', embedding: [1, 0] }, { embedding: [0, 1] }]));
    const placed = await post({ input: ['c', 'd'] });
    expect(placed.status).toBe(200);
    expect(placed.body.data).toEqual([item(0, [1, 0]), item(1, [0, 1])]);
  });

  it('refuses vectors of anything but finite numbers, and base64 nobody asked for', async () => {
    const floats = Buffer.from(new Float32Array([0.5, 0.5]).buffer).toString('base64');
    const cases: Array<[unknown[], string]> = [
      [[item(0, ['a', 'b'])], "data[0].embedding[0] is 'a'"],
      [[item(0, [0.1, null])], 'data[0].embedding[1] is null'],
      [[item(0, [])], 'data[0].embedding is empty'],
      [[item(0, floats)], 'data[0].embedding is a string (base64), but floats were asked for'],
    ];
    for (const [data, problem] of cases) {
      h.openai.reset();
      h.openai.setNext(upstream(data));
      await expectInvalid(await post({ input: 'x' }), problem);
    }
  });

  it('refuses a number JSON can write but a vector cannot hold (1e999 is Infinity)', async () => {
    raw.next = '{"object":"list","data":[{"object":"embedding","index":0,"embedding":[1e999]}],"model":"m"}';
    const response = await fetch(`${h.url}/v1/embeddings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'raw-embed', input: 'x' }),
    });
    expect(response.status).toBe(502);
    const body = (await response.json()) as any;
    expect(body.error.upstream).toMatchObject({ type: 'invalid_response' });
    expect(body.error.message).toContain('data[0].embedding[0] is Infinity');
    expect(raw.calls).toBe(1);
  });

  it('checks base64 vectors when base64 was asked of the upstream', async () => {
    const cases: Array<[unknown[], string]> = [
      [[item(0, 'not base64!')], 'data[0].embedding is not base64'],
      [[item(0, Buffer.from([1, 2, 3]).toString('base64'))], 'data[0].embedding is 3 bytes'],
      [[item(0, Buffer.from(new Float32Array([NaN]).buffer).toString('base64'))], 'data[0].embedding[0] is NaN'],
    ];
    for (const [data, problem] of cases) {
      h.openai.reset();
      h.openai.setNext(upstream(data));
      await expectInvalid(await post({ input: 'x', encoding_format: 'base64' }), problem);
    }
    // A server that ignores encoding_format and sends floats is still re-encoded for the caller.
    h.openai.setNext(upstream([item(0, [0.25, -0.5])]));
    const reencoded = await post({ input: 'x', encoding_format: 'base64' });
    expect(reencoded.status).toBe(200);
    const bytes = Buffer.from(reencoded.body.data[0].embedding as string, 'base64');
    expect([bytes.readFloatLE(0), bytes.readFloatLE(4), bytes.length]).toEqual([0.25, -0.5, 8]);
  });

  it('answers fewer dimensions than asked as an upstream answer problem naming both numbers', async () => {
    h.openai.setNext(upstream([item(0, mockVector('x', 12))]));
    const short = await post({ input: 'x', dimensions: 50 });
    expect(short.status).toBe(502);
    expect(short.body.error.upstream).toMatchObject({ type: 'invalid_response' });
    expect(short.body.error.message).toContain('the model returned 12 dimensions; the request asked for 50');
    // The model's length does not change on another try: not retried there, nor by the SDKs.
    expect(h.openai.requests).toHaveLength(1);
    expect(short.headers.get('x-should-retry')).toBe('false');
    // What the request asked is not the deployment's failure: a client asking too much cools nothing down.
    const health = (await h.admin('GET', '/internal/deployments/health')).body.data as Array<Record<string, unknown>>;
    expect(health.find((d) => d.id === 'text-embedding-3-small')).toMatchObject({ consecutive_failures: 0 });

    // Longer than asked is shortened and rescaled to unit length, as before.
    h.openai.reset();
    h.openai.setNext(upstream([item(0, [3, 4, 12])]));
    const long = await post({ input: 'x', dimensions: 2 });
    expect(long.status).toBe(200);
    expect(long.body.data[0].embedding[0]).toBeCloseTo(0.6, 6);
    expect(long.body.data[0].embedding[1]).toBeCloseTo(0.8, 6);
  });

  it('refuses vectors of different lengths in one answer', async () => {
    const data = [item(0, [0.1, 0.2]), item(1, [0.3])];
    h.openai.setNext(upstream(data));
    await expectInvalid(await post({ input: ['a', 'b'] }), 'data[1].embedding has 1 dimension, data[0].embedding 2');
  });

  it('takes null as absent for the optional fields, and forwards none of them', async () => {
    const answer = await post({ model: null, input: 'x', dimensions: null, encoding_format: null, user: null });
    expect(answer.status).toBe(200);
    // Floats (the default format), of the upstream's own length, from the default model.
    expect(answer.body.model).toBe('text-embedding-3-small');
    expect(answer.body.data[0].embedding).toHaveLength(8);
    const sent = h.openai.lastRequest()!.body;
    expect(sent.model).toBe('text-embedding-3-small');
    for (const field of ['dimensions', 'encoding_format', 'user']) expect(sent).not.toHaveProperty(field);
  });

  it('refuses negative token ids, naming where they are', async () => {
    for (const [input, where] of [
      [[-1], 'input[0]'],
      [
        [
          [1, 2],
          [3, -4],
        ],
        'input[1][1]',
      ],
    ] as const) {
      const answer = await post({ input });
      expect(answer.status).toBe(400);
      expect(answer.body.error.type).toBe('invalid_request_error');
      expect(answer.body.error.message).toContain(`${where} must be a non-negative integer (a token id), got -`);
    }
    expect(h.openai.requests).toHaveLength(0);
  });

  it('counts the inputs itself when the server reports 0 tokens for them', async () => {
    h.openai.setNext({
      body: {
        object: 'list',
        data: [item(0, [0.1, 0.2])],
        model: 'text-embedding-3-small',
        usage: { prompt_tokens: 0, total_tokens: 0 },
      },
    });
    const answer = await post({ input: 'a sentence of several words to embed' });
    expect(answer.status).toBe(200);
    expect(answer.body.usage.prompt_tokens).toBeGreaterThan(0);
    const [row] = await h.usageRows(`request_id=${answer.headers.get('x-request-id')}`);
    expect(row.prompt_tokens).toBe(answer.body.usage.prompt_tokens);
  });
});
