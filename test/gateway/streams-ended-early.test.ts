import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTempServers, TEST_MASTER_KEY, type TempServers } from '../support/temp-servers.js';
import { startFrameServer, type FrameServer } from '../support/upstreams/index.js';

const KEY = 'sk-cut-upstream-0123456789';

const chatChunk = (delta: Record<string, unknown>, finish: string | null = null): string =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const event = (name: string, data: Record<string, unknown>): string =>
  `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;

/** An OpenAI chat stream cut after its first delta: no finish_reason, no [DONE]. */
const CUT_CHAT = [chatChunk({ role: 'assistant', content: 'Hel' })];
/** A Messages stream cut after its first delta: no message_delta, no message_stop. */
const CUT_MESSAGES = [
  event('message_start', {
    message: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-x',
      content: [],
      stop_reason: null,
      usage: { input_tokens: 5, output_tokens: 1 },
    },
  }),
  event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
  event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Hel' } }),
];
/** A native Responses stream cut before response.completed. */
const CUT_RESPONSES = [
  event('response.created', {
    sequence_number: 0,
    response: { id: 'resp_cut', object: 'response', status: 'in_progress', model: 'gpt-4o-mini', output: [] },
  }),
  event('response.output_text.delta', {
    sequence_number: 1,
    item_id: 'msg_1',
    output_index: 0,
    content_index: 0,
    delta: 'Hel',
  }),
];

/**
 * An upstream whose stream body ends cleanly before the event that finishes it (a restarting
 * provider, a proxy cutting a long answer): the client must see a failure, never a made-up finish, and
 * nothing may be accounted, cached or kept as a complete answer.
 */
describe('upstream streams that end before they finish', () => {
  let frames: FrameServer;
  let servers: TempServers;
  let apiKey: string;

  const openai = () => new OpenAI({ baseURL: `${servers.gatewayUrl}/v1`, apiKey, maxRetries: 0 });
  const anthropic = () => new Anthropic({ baseURL: servers.gatewayUrl, apiKey, maxRetries: 0 });
  const admin = (path: string) =>
    fetch(`${servers.gatewayUrl}${path}`, { headers: { authorization: `Bearer ${TEST_MASTER_KEY}` } });

  /** Drains an SDK stream: the text it delivered and what it threw. */
  async function drain<T>(stream: AsyncIterable<T>, text: (part: T) => string) {
    const received: string[] = [];
    const failure = await (async () => {
      for await (const part of stream) received.push(text(part));
    })().catch((error: unknown) => error);
    return { text: received.join(''), failure };
  }

  /** The usage row of a request, once its batch is written (polled: rows are written in batches). */
  async function rowOf(response: Response) {
    const requestId = response.headers.get('x-request-id');
    for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
      const rows = (await (await admin('/internal/usage/logs?limit=50')).json()) as {
        data: Array<{ request_id: string; status: number; error_type: string | null }>;
      };
      const row = rows.data.find((candidate) => candidate.request_id === requestId);
      if (row !== undefined) return row;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no usage row for request ${requestId}`);
  }

  beforeAll(async () => {
    frames = await startFrameServer();
    const deployment = (model: string, provider: string, extra: Record<string, unknown> = {}) => ({
      id: model,
      model,
      provider,
      upstream_model: provider === 'anthropic' ? 'claude-x' : 'gpt-4o-mini',
      base_url: provider === 'anthropic' ? frames.url : `${frames.url}/v1`,
      api_key: KEY,
      max_retries: 0,
      ...extra,
    });
    servers = await startTempServers({
      llm: { allowed_models: ['cut-openai', 'cut-anthropic', 'cut-native-responses'] },
      cache: { enabled: true },
      deployments: [
        deployment('cut-openai', 'openai'),
        deployment('cut-anthropic', 'anthropic'),
        deployment('cut-native-responses', 'openai', { responses_api: 'native' }),
      ],
    });
    const created = await fetch(`${servers.gatewayUrl}/internal/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ scopes: ['chat', 'responses'] }),
    });
    apiKey = ((await created.json()) as { key: string }).key;
  });
  afterAll(async () => {
    await servers?.stop();
    await frames?.close();
  });

  const chat = (model: string) =>
    openai().chat.completions.create({
      model,
      temperature: 0,
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });

  it('a chat stream relayed from an OpenAI upstream fails, is accounted as failed and is not cached', async () => {
    frames.serveFrames(CUT_CHAT);
    const { data, response } = await chat('cut-openai').withResponse();
    const first = await drain(data, (part) => part.choices[0]?.delta.content ?? '');
    expect(first.text).toBe('Hel');
    expect((first.failure as Error).message).toContain('upstream stream ended before a finish_reason or [DONE]');
    expect(await rowOf(response)).toMatchObject({ status: 200, error_type: 'upstream_error' });

    // Not kept by the cache: the same request goes upstream again and fails again.
    const again = await chat('cut-openai').withResponse();
    expect(again.response.headers.get('x-cache-hit')).not.toBe('true');
    expect((await drain(again.data, () => '')).failure).toBeInstanceOf(Error);
  });

  it('a chat stream that ends after its finish_reason without [DONE] is complete', async () => {
    frames.serveFrames([chatChunk({ role: 'assistant', content: 'Hello' }), chatChunk({}, 'stop')]);
    const { data, response } = await openai()
      .chat.completions.create({ model: 'cut-openai', messages: [{ role: 'user', content: 'complete' }], stream: true })
      .withResponse();
    const done = await drain(data, (part) => part.choices[0]?.delta.content ?? '');
    expect(done).toEqual({ text: 'Hello', failure: undefined });
    expect(await rowOf(response)).toMatchObject({ status: 200, error_type: null });
  });

  it('a chat stream of two choices cut after only the first finished fails', async () => {
    const choice = (index: number, delta: Record<string, unknown>, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index, delta, finish_reason: finish }] })}\n\n`;
    frames.serveFrames([choice(0, { content: 'A' }), choice(1, { content: 'B' }), choice(0, {}, 'stop')]);
    const stream = await openai().chat.completions.create({
      model: 'cut-openai',
      n: 2,
      messages: [{ role: 'user', content: 'two' }],
      stream: true,
    });
    const result = await drain(stream, () => '');
    expect((result.failure as Error).message).toContain('upstream stream ended before a finish_reason or [DONE]');
  });

  it('a Messages stream translated to chat fails instead of gaining a made-up finish', async () => {
    frames.serveFrames(CUT_MESSAGES);
    const { data, response } = await chat('cut-anthropic').withResponse();
    const result = await drain(data, (part) => part.choices[0]?.delta.content ?? '');
    expect(result.text).toBe('Hel');
    expect((result.failure as Error).message).toContain('upstream stream ended before message_stop');
    expect(await rowOf(response)).toMatchObject({ error_type: 'upstream_error' });
  });

  /** What the Anthropic SDK's finalMessage() throws for a Messages stream of `model`. */
  const messagesFailure = async (model: string): Promise<string> => {
    const stream = anthropic().messages.stream({ model, max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] });
    return ((await stream.finalMessage().catch((error: unknown) => error)) as Error).message;
  };

  it('a Messages stream relayed from an Anthropic upstream fails in the Anthropic SDK', async () => {
    frames.serveFrames(CUT_MESSAGES);
    expect(await messagesFailure('cut-anthropic')).toContain('upstream stream ended before message_stop');
  });

  it('a chat stream translated to Messages fails in the Anthropic SDK', async () => {
    frames.serveFrames(CUT_CHAT);
    expect(await messagesFailure('cut-openai')).toContain('upstream stream ended before a finish_reason or [DONE]');
  });

  it('a Responses stream fails, translated or native, and a kept response is marked failed', async () => {
    frames.serveFrames(CUT_CHAT);
    const translated = await drain(
      await openai().responses.create({ model: 'cut-openai', input: 'hi', stream: true, store: true }),
      () => '',
    );
    expect((translated.failure as Error).message).toContain('upstream stream ended before');

    frames.serveFrames(CUT_RESPONSES);
    let id = '';
    const { data, response } = await openai()
      .responses.create({ model: 'cut-native-responses', input: 'hi', stream: true, store: true })
      .withResponse();
    const native = await drain(data, (part) => {
      if (part.type === 'response.created') id = part.response.id;
      return '';
    });
    expect((native.failure as Error).message).toContain('upstream stream ended before response.completed');
    expect(await rowOf(response)).toMatchObject({ error_type: 'upstream_error' });
    expect(id).toBe('resp_cut');
    const kept = await openai().responses.retrieve(id);
    expect(kept.status).toBe('failed');
  });
});
