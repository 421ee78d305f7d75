import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayAdmin, startTempServers, type TempServers } from '../support/temp-servers.js';
import {
  startFrameServer,
  startOpenAIUpstream,
  type FrameServer,
  type OpenAIUpstream,
} from '../support/upstreams/index.js';

/**
 * A kept Response whose stream broke keeps what was written, its unfinished item `incomplete`. From a
 * provider's own Responses API it was kept with no output at all; over chat completions the message
 * it was writing stayed `in_progress` for ever.
 */
const KEY = 'sk-kept-partial-0123456789';
const event = (type: string, payload: object): string =>
  `event: ${type}\ndata: ${JSON.stringify({ type, ...payload })}\n\n`;
const response = (status: string) => ({
  id: 'resp_up1',
  object: 'response',
  created_at: 1700000000,
  status,
  model: 'gpt-x',
  output: [],
  usage: null,
});

describe('a kept Responses stream that breaks', () => {
  let frames: FrameServer;
  let chat: OpenAIUpstream;
  let servers: TempServers;
  let client: OpenAI;

  beforeAll(async () => {
    frames = await startFrameServer();
    chat = await startOpenAIUpstream({ apiKey: KEY });
    servers = await startTempServers({
      llm: { allowed_models: ['native-x', 'chat-x'] },
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
        {
          id: 'c',
          model: 'chat-x',
          provider: 'openai',
          upstream_model: 'gpt-4o-mini',
          base_url: chat.url,
          api_key: KEY,
        },
      ],
    });
    const { key } = (await gatewayAdmin(() => servers)('POST', '/internal/api-keys', { scopes: ['responses'] })).body;
    client = new OpenAI({ baseURL: `${servers.gatewayUrl}/v1`, apiKey: key, maxRetries: 0 });
  });
  afterAll(async () => {
    await servers.stop();
    await Promise.all([frames.close(), chat.close()]);
  });

  /** Streams until the stream fails; the id of the kept response. */
  async function brokenStream(model: string): Promise<string> {
    let id: string | undefined;
    const failure = await (async () => {
      const stream = await client.responses.create({ model, input: 'write', store: true, stream: true });
      for await (const streamed of stream) if (streamed.type === 'response.created') id = streamed.response.id;
    })().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    return id!;
  }

  it('from a native Responses API: the text written so far, in an incomplete message', async () => {
    const message = { type: 'message', id: 'msg_up1', status: 'in_progress', role: 'assistant', content: [] };
    frames.serveFrames([
      event('response.created', { sequence_number: 0, response: response('in_progress') }),
      event('response.output_item.added', { sequence_number: 1, output_index: 0, item: message }),
      event('response.content_part.added', {
        sequence_number: 2,
        item_id: 'msg_up1',
        output_index: 0,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [] },
      }),
      event('response.output_text.delta', {
        sequence_number: 3,
        item_id: 'msg_up1',
        output_index: 0,
        content_index: 0,
        delta: 'Hel',
      }),
      event('response.output_text.delta', {
        sequence_number: 4,
        item_id: 'msg_up1',
        output_index: 0,
        content_index: 0,
        delta: 'lo',
      }),
      // The body ends here, before response.completed.
    ]);
    const kept = await client.responses.retrieve(await brokenStream('native-x'));
    expect(kept.status).toBe('failed');
    expect(kept.output).toEqual([
      {
        type: 'message',
        id: 'msg_up1',
        status: 'incomplete',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Hello', annotations: [], logprobs: [] }],
      },
    ]);
  });

  it('over chat completions: the message being written is incomplete, not in progress', async () => {
    chat.setNext({ reply: { text: 'one two three four five' }, streamErrorAfterFrames: 3 });
    const kept = await client.responses.retrieve(await brokenStream('chat-x'));
    expect(kept.status).toBe('failed');
    expect(kept.output[0]).toMatchObject({ type: 'message', status: 'incomplete' });
  });
});
