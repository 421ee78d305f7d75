import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayAdmin, startTempServers, type TempServers } from '../support/temp-servers.js';
import { startFrameServer, type FrameServer } from '../support/upstreams/index.js';
import { usageRowOf } from './fixes-usage-row.js';

/**
 * A provider's token counts are booked only when they can be one request's: non-negative whole numbers
 * up to 10 million (the largest context window any model has). Past that, or not a count at all, the
 * gateway books its own estimate.
 */
const response = (usage: Record<string, unknown>, status = 'completed'): Record<string, unknown> => ({
  id: 'resp_counts',
  object: 'response',
  created_at: 1700000000,
  status,
  model: 'gpt-x',
  output: [
    {
      type: 'message',
      id: 'msg_1',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'four words of answer', annotations: [] }],
    },
  ],
  usage,
});

const frame = (type: string, payload: object): string =>
  `event: ${type}\ndata: ${JSON.stringify({ type, ...payload })}\n\n`;

describe('token counts past any request', () => {
  let upstream: FrameServer;
  let servers: TempServers;
  let key: string;
  const admin = gatewayAdmin(() => servers);

  beforeAll(async () => {
    upstream = await startFrameServer();
    const deployment = (id: string) => ({
      id,
      model: 'gpt-x',
      provider: 'openai',
      base_url: `${upstream.url}/v1`,
      api_key: 'sk-counts-0123456789',
      responses_api: 'native',
    });
    servers = await startTempServers({
      llm: { allowed_models: ['gpt-x', 'gpt-y'] },
      gateway: { max_retries: 0 },
      deployments: [deployment('counts-whole'), { ...deployment('counts-stream'), model: 'gpt-y' }],
    });
    ({ key } = (await admin('POST', '/internal/api-keys', { scopes: ['responses'] })).body as { key: string });
  });
  afterAll(async () => {
    await servers.stop();
    await upstream.close();
  });

  const client = (): OpenAI => new OpenAI({ baseURL: `${servers.gatewayUrl}/v1`, apiKey: key, maxRetries: 0 });

  it('books the estimate for 20 million output tokens of a whole answer', async () => {
    upstream.serveJson(response({ input_tokens: 7, output_tokens: 20_000_000, total_tokens: 20_000_007 }));
    for (let round = 0; round < 2; round += 1) {
      const { response: answer, request_id: requestId } = await client()
        .responses.create({ model: 'gpt-x', input: 'a short question' })
        .withResponse()
        .then(async (result) => ({ response: result.data, request_id: result.response.headers.get('x-request-id') }));
      expect(answer.output_text).toBe('four words of answer');
      const row = await usageRowOf(admin, requestId!);
      expect(row).toMatchObject({ prompt_tokens: 7, completion_tokens: Math.ceil('four words of answer'.length / 4) });
    }
  });

  it('books the estimate for a negative or fractional count of a stream', async () => {
    const done = response({ input_tokens: -5, output_tokens: 2.5, total_tokens: 0 });
    upstream.serveFrames([
      frame('response.created', {
        sequence_number: 0,
        response: { ...done, status: 'in_progress', output: [], usage: null },
      }),
      frame('response.output_text.delta', {
        sequence_number: 1,
        item_id: 'msg_1',
        output_index: 0,
        content_index: 0,
        delta: 'four words of answer',
      }),
      frame('response.completed', { sequence_number: 2, response: done }),
    ]);
    const answer = await fetch(`${servers.gatewayUrl}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-y', input: 'a short question', stream: true }),
    });
    expect(await answer.text()).toContain('event: response.completed');
    const row = await usageRowOf(admin, answer.headers.get('x-request-id')!);
    expect(row.prompt_tokens).toBeGreaterThan(0);
    expect(row.prompt_tokens).toBeLessThan(20);
    expect(row.completion_tokens).toBe(Math.ceil('four words of answer'.length / 4));
  });
});
