import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayAdmin, startTempServers, type TempServers } from '../support/temp-servers.js';
import { startFrameServer, type FrameServer } from '../support/upstreams/index.js';

/**
 * A provider's own Responses stream that ends in `response.failed` after text went out: the client's
 * `error` event says the provider answered a failed Response (as the non-stream answer words it, not as
 * an error event it never sent), and the kept copy keeps the text written so far, as the other
 * mid-stream failures keep it, with the provider's error and usage.
 */
const KEY = 'sk-native-failed-mid-0123456789';
const USAGE = { input_tokens: 12, output_tokens: 3, total_tokens: 15 };
const event = (type: string, payload: object): string =>
  `event: ${type}\ndata: ${JSON.stringify({ type, ...payload })}\n\n`;
const upstreamResponse = (status: string, extra: object = {}) => ({
  id: 'resp_up1',
  object: 'response',
  created_at: 1700000000,
  status,
  model: 'gpt-x',
  output: [],
  usage: null,
  ...extra,
});

describe('a native Responses stream ending in response.failed', () => {
  let frames: FrameServer;
  let servers: TempServers;
  let client: OpenAI;

  beforeAll(async () => {
    frames = await startFrameServer();
    servers = await startTempServers({
      llm: { allowed_models: ['native-x'] },
      gateway: { max_retries: 0 },
      deployments: [
        {
          id: 'n',
          model: 'native-x',
          provider: 'openai',
          base_url: `${frames.url}/v1`,
          api_key: KEY,
          responses_api: 'native',
        },
      ],
    });
    const { key } = (
      await gatewayAdmin(() => servers)('POST', '/internal/api-keys', {
        scopes: ['responses'],
      })
    ).body;
    client = new OpenAI({
      baseURL: `${servers.gatewayUrl}/v1`,
      apiKey: key,
      maxRetries: 0,
    });
  });
  afterAll(async () => {
    await servers.stop();
    await frames.close();
  });

  it('is reported as a failed Response, and the kept copy keeps the partial text', async () => {
    const message = {
      type: 'message',
      id: 'msg_up1',
      status: 'in_progress',
      role: 'assistant',
      content: [],
    };
    const part = { item_id: 'msg_up1', output_index: 0, content_index: 0 };
    frames.serveFrames([
      event('response.created', {
        sequence_number: 0,
        response: upstreamResponse('in_progress'),
      }),
      event('response.output_item.added', {
        sequence_number: 1,
        output_index: 0,
        item: message,
      }),
      event('response.content_part.added', {
        sequence_number: 2,
        ...part,
        part: { type: 'output_text', text: '', annotations: [] },
      }),
      event('response.output_text.delta', {
        sequence_number: 3,
        ...part,
        delta: 'Partial',
      }),
      event('response.failed', {
        sequence_number: 4,
        response: upstreamResponse('failed', {
          usage: USAGE,
          error: { code: 'server_error', message: 'The model crashed.' },
        }),
      }),
    ]);
    let id: string | undefined;
    const sequence: number[] = [];
    const failure = await (async () => {
      const stream = await client.responses.create({
        model: 'native-x',
        input: 'write',
        store: true,
        stream: true,
      });
      for await (const streamed of stream) {
        sequence.push(streamed.sequence_number);
        if (streamed.type === 'response.created') id = streamed.response.id;
      }
    })().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect((failure as Error).message).toContain('answered a failed Response, server_error: The model crashed.');
    expect((failure as Error).message).not.toContain('error event');
    expect(sequence).toEqual([0, 1, 2, 3]);

    const kept = await client.responses.retrieve(id!);
    expect(kept).toMatchObject({
      status: 'failed',
      error: { code: 'server_error', message: 'The model crashed.' },
      usage: USAGE,
    });
    expect(kept.output).toEqual([
      {
        type: 'message',
        id: 'msg_up1',
        status: 'incomplete',
        role: 'assistant',
        content: [
          {
            type: 'output_text',
            text: 'Partial',
            annotations: [],
            logprobs: [],
          },
        ],
      },
    ]);
  });
});
