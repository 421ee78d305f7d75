import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayAdmin, startTempServers, type TempServers } from '../support/temp-servers.js';
import { startFrameServer, type FrameServer } from '../support/upstreams/index.js';

/**
 * A native Responses stream that ends in `response.failed` is accounted with the usage the failed
 * Response reports (what the provider bills), as one ending in `response.incomplete` is, not with the
 * gateway's estimate from the text it relayed.
 */
const USAGE = { input_tokens: 503, output_tokens: 53, total_tokens: 556 };
// 503 input at $2, 53 output at $8, per million.
const COST = (503 * 2 + 53 * 8) / 1e6;

function upstreamResponse(status: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id: 'resp_up1', object: 'response', created_at: 1700000000, status, model: 'gpt-x', output: [], ...extra };
}

const frame = (type: string, payload: object): string =>
  `event: ${type}\ndata: ${JSON.stringify({ type, ...payload })}\n\n`;

function streamEndingIn(type: 'response.failed' | 'response.incomplete'): string[] {
  const last =
    type === 'response.failed'
      ? upstreamResponse('failed', { usage: USAGE, error: { code: 'server_error', message: 'The model crashed.' } })
      : upstreamResponse('incomplete', { usage: USAGE, incomplete_details: { reason: 'max_output_tokens' } });
  return [
    frame('response.created', { sequence_number: 0, response: upstreamResponse('in_progress', { usage: null }) }),
    frame('response.output_text.delta', {
      sequence_number: 1,
      item_id: 'msg_up1',
      output_index: 0,
      content_index: 0,
      delta: 'Partial answer.',
    }),
    frame(type, { sequence_number: 2, response: last }),
  ];
}

describe('usage of a native Responses stream that fails', () => {
  let upstream: FrameServer;
  let servers: TempServers;
  let key: string;
  const admin = gatewayAdmin(() => servers);

  beforeAll(async () => {
    upstream = await startFrameServer();
    servers = await startTempServers({
      llm: { allowed_models: ['gpt-x'] },
      gateway: { max_retries: 0 },
      pricing: { 'gpt-x': { input_per_mtok: 2, output_per_mtok: 8 } },
      deployments: [
        {
          id: 'native',
          model: 'gpt-x',
          provider: 'openai',
          base_url: `${upstream.url}/v1`,
          api_key: 'sk-native-failed-0123456789',
          responses_api: 'native',
        },
      ],
    });
    ({ key } = (await admin('POST', '/internal/api-keys', { scopes: ['responses'] })).body as { key: string });
  });
  afterAll(async () => {
    await servers.stop();
    await upstream.close();
  });

  async function rowOf(requestId: string): Promise<Record<string, unknown>> {
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const rows = (await admin('GET', '/internal/usage/logs?limit=20')).body.data as Array<Record<string, unknown>>;
      const row = rows.find((candidate) => candidate.request_id === requestId);
      if (row) return row;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`no usage row for ${requestId}`);
  }

  async function streamed(type: 'response.failed' | 'response.incomplete'): Promise<Record<string, unknown>> {
    upstream.serveFrames(streamEndingIn(type));
    const response = await fetch(`${servers.gatewayUrl}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-x', input: 'hi', stream: true }),
    });
    await response.text();
    return rowOf(response.headers.get('x-request-id')!);
  }

  it('bills the usage a response.failed event reports, as it does for response.incomplete', async () => {
    const incomplete = await streamed('response.incomplete');
    expect(incomplete).toMatchObject({ prompt_tokens: 503, completion_tokens: 53, cost_usd: expect.closeTo(COST, 12) });

    const failed = await streamed('response.failed');
    expect(failed).toMatchObject({
      prompt_tokens: 503,
      completion_tokens: 53,
      cost_usd: expect.closeTo(COST, 12),
      error_type: expect.any(String),
    });
  });

  it('counts the reported tokens in the token metrics', async () => {
    const client = new OpenAI({ baseURL: `${servers.gatewayUrl}/v1`, apiKey: key, maxRetries: 0 });
    const before = await tokenCounter();
    upstream.serveFrames(streamEndingIn('response.failed'));
    const stream = client.responses.stream({ model: 'gpt-x', input: 'hi' });
    await expect(stream.finalResponse()).rejects.toThrow();
    for (let attempt = 0; attempt < 50 && (await tokenCounter()) === before; attempt += 1)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await tokenCounter()) - before).toBe(503);
  });

  async function tokenCounter(): Promise<number> {
    const text = await (await fetch(`${servers.gatewayUrl}/metrics`)).text();
    const line = text
      .split('\n')
      .find((entry) => entry.startsWith('gateway_tokens_total{model="gpt-x",type="prompt"}'));
    return Number(line?.split(' ').pop() ?? 0);
  }
});
