import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayAdmin, startTempServers, type TempServers } from '../support/temp-servers.js';
import { startFrameServer, type FrameServer } from '../support/upstreams/index.js';

/**
 * A provider's own Responses API, relayed: its cached input tokens are priced at their own rate and
 * its reasoning tokens reach the client, as on the chat path; and a stream written without `event:`
 * lines (valid SSE: the SDKs read each type from its data) is relayed as one, not as events without
 * names that ended in an "ended before response.completed" error.
 */
const KEY = 'sk-native-usage-0123456789';
const USAGE = {
  input_tokens: 1000,
  input_tokens_details: { cached_tokens: 400 },
  output_tokens: 500,
  output_tokens_details: { reasoning_tokens: 200 },
  total_tokens: 1500,
};
// 600 plain input at $2, 400 cached at $0.5, 500 output at $8, per million.
const COST = (600 * 2 + 400 * 0.5 + 500 * 8) / 1e6;

const message = {
  type: 'message',
  id: 'msg_up1',
  status: 'completed',
  role: 'assistant',
  content: [{ type: 'output_text', text: 'Hello.', annotations: [] }],
};

function upstreamResponse(status: string, output: object[] = []): Record<string, unknown> {
  return {
    id: 'resp_up1',
    object: 'response',
    created_at: 1700000000,
    status,
    model: 'gpt-x-2025-01-01',
    output,
    usage: status === 'completed' ? USAGE : null,
  };
}

/** Frames as some servers write them: `data:` lines only, the type inside. */
const dataOnly = (type: string, payload: object): string => `data: ${JSON.stringify({ type, ...payload })}\n\n`;

function dataOnlyStream(): string[] {
  let sequence = 0;
  const at = () => ({ sequence_number: sequence++ });
  return [
    dataOnly('response.created', { ...at(), response: upstreamResponse('in_progress') }),
    dataOnly('response.output_item.added', { ...at(), output_index: 0, item: { ...message, content: [] } }),
    dataOnly('response.content_part.added', {
      ...at(),
      item_id: 'msg_up1',
      output_index: 0,
      content_index: 0,
      part: { type: 'output_text', text: '', annotations: [] },
    }),
    dataOnly('response.output_text.delta', {
      ...at(),
      item_id: 'msg_up1',
      output_index: 0,
      content_index: 0,
      delta: 'Hello.',
    }),
    dataOnly('response.content_part.done', {
      ...at(),
      item_id: 'msg_up1',
      output_index: 0,
      content_index: 0,
      part: message.content[0],
    }),
    dataOnly('response.output_item.done', { ...at(), output_index: 0, item: message }),
    dataOnly('response.completed', { ...at(), response: upstreamResponse('completed', [message]) }),
  ];
}

describe('native Responses usage and unnamed events', () => {
  let upstream: FrameServer;
  let servers: TempServers;
  let client: OpenAI;
  const admin = gatewayAdmin(() => servers);

  beforeAll(async () => {
    upstream = await startFrameServer();
    servers = await startTempServers({
      llm: { allowed_models: ['gpt-x', 'gpt-chat'] },
      gateway: { max_retries: 0 },
      pricing: { 'gpt-x': { input_per_mtok: 2, output_per_mtok: 8, cached_input_per_mtok: 0.5 } },
      deployments: [
        {
          id: 'native',
          model: 'gpt-x',
          provider: 'openai',
          base_url: `${upstream.url}/v1`,
          api_key: KEY,
          responses_api: 'native',
        },
        { id: 'chat', model: 'gpt-chat', provider: 'openai', base_url: `${upstream.url}/v1`, api_key: KEY },
      ],
    });
    const { key } = (await admin('POST', '/internal/api-keys', { scopes: ['responses'] })).body as { key: string };
    client = new OpenAI({ baseURL: `${servers.gatewayUrl}/v1`, apiKey: key, maxRetries: 0 });
  });
  afterAll(async () => {
    await servers.stop();
    await upstream.close();
  });

  async function lastRow(stream: boolean): Promise<{ cost_usd: number; status: number; error_type: string | null }> {
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const [row] = (await admin('GET', '/internal/usage/logs?limit=1')).body.data;
      if (row?.stream === stream) return row;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error('no usage row was written');
  }

  it('prices cached input at its own rate and reports reasoning tokens, whole', async () => {
    upstream.serveJson(upstreamResponse('completed', [message]));
    const response = await client.responses.create({ model: 'gpt-x', input: 'hi' });
    expect(response.usage).toMatchObject(USAGE);
    expect(await lastRow(false)).toMatchObject({ status: 200, cost_usd: expect.closeTo(COST, 12) });
  });

  it('relays a stream without event lines as named events, kept and priced like any other', async () => {
    upstream.serveFrames(dataOnlyStream());
    const raw = await fetch(`${servers.gatewayUrl}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${client.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-x', input: 'hi', stream: true }),
    });
    const frames = (await raw.text()).split('\n\n').filter(Boolean);
    expect(frames.map((frame) => frame.split('\n')[0])).toEqual([
      'event: response.created',
      'event: response.output_item.added',
      'event: response.content_part.added',
      'event: response.output_text.delta',
      'event: response.content_part.done',
      'event: response.output_item.done',
      'event: response.completed',
    ]);
    expect(frames[0]).toContain('"model":"gpt-x"');

    upstream.serveFrames(dataOnlyStream());
    const stream = client.responses.stream({ model: 'gpt-x', input: 'hi', store: true });
    const final = await stream.finalResponse();
    expect(final.output_text).toBe('Hello.');
    expect(final.usage?.output_tokens_details.reasoning_tokens).toBe(200);
    expect((await client.responses.retrieve(final.id)).status).toBe('completed');
    expect(await lastRow(true)).toMatchObject({ status: 200, error_type: null, cost_usd: expect.closeTo(COST, 12) });
  });

  it("reports a chat upstream's reasoning tokens to a Responses client, whole and streamed", async () => {
    const usage = {
      prompt_tokens: 10,
      completion_tokens: 50,
      total_tokens: 60,
      completion_tokens_details: { reasoning_tokens: 30 },
    };
    const chunk = (delta: object, finish: string | null, extra: object = {}) =>
      `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'o3', choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
    upstream.serveJson({
      id: 'c1',
      object: 'chat.completion',
      created: 1,
      model: 'o3',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hi.' }, finish_reason: 'stop' }],
      usage,
    });
    const whole = await client.responses.create({ model: 'gpt-chat', input: 'hi' });
    expect(whole.usage?.output_tokens_details.reasoning_tokens).toBe(30);
    upstream.serveFrames([
      chunk({ role: 'assistant', content: 'Hi.' }, null),
      chunk({}, 'stop'),
      `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'o3', choices: [], usage })}\n\n`,
      'data: [DONE]\n\n',
    ]);
    const streamed = await client.responses.stream({ model: 'gpt-chat', input: 'hi' }).finalResponse();
    expect(streamed.usage?.output_tokens_details.reasoning_tokens).toBe(30);
  });
});
