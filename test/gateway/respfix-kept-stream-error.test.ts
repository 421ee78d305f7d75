import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAIClientWithNewKey } from '../support/sdk-clients.js';
import { startTempServers, type TempServers } from '../support/temp-servers.js';
import {
  startFrameServer,
  startOpenAIUpstream,
  type FrameServer,
  type OpenAIUpstream,
} from '../support/upstreams/index.js';

const KEY = 'sk-respfix-kept-error-0123456789';

const frame = (type: string, payload: Record<string, unknown>): string =>
  `event: ${type}\ndata: ${JSON.stringify({ type, ...payload })}\n\n`;

/**
 * A kept response whose stream the provider ended with an error keeps the provider's error (its type
 * and message, the deployment's key redacted as in the relayed error), as the client's stream
 * reported it, not only that the stream ended early.
 */
describe('a kept response whose stream failed with a provider error', () => {
  let frames: FrameServer;
  let upstream: OpenAIUpstream;
  let servers: TempServers;
  let client: OpenAI;

  beforeAll(async () => {
    frames = await startFrameServer();
    upstream = await startOpenAIUpstream({ apiKey: KEY });
    const deployment = { provider: 'openai', upstream_model: 'gpt-4.1', api_key: KEY };
    servers = await startTempServers({
      llm: { allowed_models: ['native-model', 'bridged-model'] },
      gateway: { max_retries: 0 },
      deployments: [
        { id: 'native', model: 'native-model', responses_api: 'native', base_url: `${frames.url}/v1`, ...deployment },
        { id: 'bridged', model: 'bridged-model', base_url: upstream.url, ...deployment },
      ],
    });
    client = await openAIClientWithNewKey(servers, { scopes: ['responses'] });
  });
  afterAll(async () => {
    await servers.stop();
    await frames.close();
    await upstream.close();
  });

  /** Streams a kept response to its end; the id it was kept under and the message of the error event. */
  async function streamed(model: string): Promise<{ id: string; streamError: string }> {
    const stream = await client.responses.create({ model, input: 'Tell me', store: true, stream: true });
    let id = '';
    const streamError = await (async () => {
      for await (const event of stream) if (event.type === 'response.created') id = event.response.id;
      return '';
    })().catch((error: Error) => error.message);
    return { id, streamError };
  }

  it("keeps a native upstream's error event", async () => {
    const response = { id: 'resp_native_1', object: 'response', status: 'in_progress', model: 'gpt-4.1', output: [] };
    const item = { type: 'message', id: 'msg_native_1', status: 'in_progress', role: 'assistant', content: [] };
    frames.serveFrames([
      frame('response.created', { sequence_number: 0, response }),
      frame('response.output_item.added', { sequence_number: 1, output_index: 0, item }),
      frame('response.output_text.delta', {
        sequence_number: 2,
        item_id: 'msg_native_1',
        output_index: 0,
        content_index: 0,
        delta: 'Once',
      }),
      frame('error', {
        sequence_number: 3,
        code: 'rate_limit_exceeded',
        message: `Rate limit reached for key ${KEY} on tokens per min`,
        param: null,
      }),
    ]);
    const { id, streamError } = await streamed('native-model');
    expect(streamError).toContain('Rate limit reached');
    const kept = await client.responses.retrieve(id);
    expect(kept.status).toBe('failed');
    expect(kept.error).toEqual({
      code: 'rate_limit_exceeded',
      message: 'Rate limit reached for key [redacted] on tokens per min',
    });
  });

  it("keeps a translated upstream's error chunk", async () => {
    upstream.setNext({
      reply: { text: 'A long answer that breaks off' },
      streamErrorAfterFrames: 3,
      error: { message: `The engine is overloaded (key ${KEY})`, type: 'server_error' },
    });
    const { id, streamError } = await streamed('bridged-model');
    expect(streamError).toContain('The engine is overloaded');
    const kept = await client.responses.retrieve(id);
    expect(kept.status).toBe('failed');
    expect(kept.error).toEqual({ code: 'server_error', message: 'The engine is overloaded (key [redacted])' });
  });
});
