import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTempServers, TEST_MASTER_KEY, type TempServers } from '../support/temp-servers.js';
import { startFrameServer, type FrameServer } from '../support/upstreams/index.js';
import { anthropicEvent, anthropicMessageStart } from './formats/stream-fixtures.js';

/**
 * The native relays (Messages to Anthropic, Responses to a provider's own Responses API) pass the
 * provider's events through, but each is read first: a malformed one must end the stream with the
 * gateway's error event, which the SDKs raise as an APIError, never reach the client as it is.
 */

const KEY = 'sk-native-relay-0123456789';
const event = anthropicEvent;
const BROKEN = (type: string) => `event: ${type}\ndata: {"type": broken\n\n`;

function messagesFrames(broken: string): string[] {
  return [
    anthropicMessageStart('msg_1', 'claude-opus-4-7'),
    event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Hel' } }),
    broken,
    // The upstream carries on as if nothing happened: none of it may reach the client.
    event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'lo' } }),
    event('content_block_stop', { index: 0 }),
    event('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 2 } }),
    event('message_stop', {}),
  ];
}

function upstreamResponse(status: string, output: object[] = []): Record<string, unknown> {
  return {
    id: 'resp_up1',
    object: 'response',
    created_at: 1700000000,
    status,
    model: 'gpt-4o-mini-2024-07-18',
    previous_response_id: null,
    output,
    usage: status === 'completed' ? { input_tokens: 5, output_tokens: 2, total_tokens: 7 } : null,
  };
}

const hello = {
  type: 'message',
  id: 'msg_up1',
  status: 'completed',
  role: 'assistant',
  content: [{ type: 'output_text', text: 'Hello.', annotations: [] }],
};

function responsesFrames(broken: string): string[] {
  return [
    event('response.created', { sequence_number: 0, response: upstreamResponse('in_progress') }),
    broken,
    event('response.completed', { sequence_number: 2, response: upstreamResponse('completed', [hello]) }),
  ];
}

describe('native relays', () => {
  let upstream: FrameServer;
  let servers: TempServers;
  let key: string;

  beforeAll(async () => {
    upstream = await startFrameServer();
    servers = await startTempServers({
      llm: { allowed_models: ['claude-opus-4-7', 'gpt-4o-mini'] },
      gateway: { max_retries: 0 },
      deployments: [
        { id: 'claude', model: 'claude-opus-4-7', provider: 'anthropic', base_url: upstream.url, api_key: KEY },
        {
          id: 'oa-native',
          model: 'gpt-4o-mini',
          provider: 'openai',
          base_url: `${upstream.url}/v1`,
          api_key: KEY,
          responses_api: 'native',
        },
      ],
    });
    const created = await fetch(`${servers.gatewayUrl}/internal/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ scopes: ['*'] }),
    });
    key = ((await created.json()) as { key: string }).key;
  });
  afterAll(async () => {
    await servers.stop();
    await upstream.close();
  });

  const claude = () => new Anthropic({ baseURL: servers.gatewayUrl, apiKey: key, maxRetries: 0 });
  const gpt = () => new OpenAI({ baseURL: `${servers.gatewayUrl}/v1`, apiKey: key, maxRetries: 0 });

  /** The usage row of the newest request, once its batch was written. */
  async function lastUsageRow(): Promise<{ status: number; error_type: string | null }> {
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const response = await fetch(`${servers.gatewayUrl}/internal/usage/logs?limit=1`, {
        headers: { authorization: `Bearer ${TEST_MASTER_KEY}` },
      });
      const rows = ((await response.json()) as { data: Array<{ status: number; error_type: string | null }> }).data;
      if (rows[0] !== undefined && rows[0].error_type !== null) return rows[0];
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error('no failed usage row was written');
  }

  it('Messages to Anthropic: a malformed delta ends the stream as an APIError, accounted as the upstream failing', async () => {
    for (const type of ['content_block_delta', 'ping']) {
      upstream.serveFrames(messagesFrames(BROKEN(type)));
      const stream = claude().messages.stream({
        model: 'claude-opus-4-7',
        max_tokens: 16,
        messages: [{ role: 'user', content: 'hi' }],
      });
      let text = '';
      stream.on('text', (delta) => (text += delta));
      const failure = await stream.finalMessage().then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(Anthropic.APIError);
      expect((failure as Error).message).toContain('malformed');
      expect(text).toBe('Hel');
      expect(await lastUsageRow()).toMatchObject({ status: 200, error_type: 'upstream_error' });
    }
  });

  it('Responses to a native API: a malformed event ends the stream as an APIError', async () => {
    upstream.serveFrames(responsesFrames(BROKEN('response.output_text.delta')));
    const stream = gpt().responses.stream({ model: 'gpt-4o-mini', input: 'hi' });
    const failure = await stream.finalResponse().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect((failure as Error).message).toContain('malformed');
    expect(await lastUsageRow()).toMatchObject({ status: 200, error_type: 'upstream_error' });
  });

  it("Responses to a native API: the answer carries the client's previous_response_id, streamed, not and kept", async () => {
    upstream.serveJson(upstreamResponse('completed', [hello]));
    const first = await gpt().responses.create({ model: 'gpt-4o-mini', input: 'hi', store: true });
    expect(first.previous_response_id).toBeNull();

    upstream.serveJson(upstreamResponse('completed', [hello]));
    const second = await gpt().responses.create({
      model: 'gpt-4o-mini',
      input: 'again',
      previous_response_id: first.id,
      store: true,
    });
    expect(second.previous_response_id).toBe(first.id);
    expect(second.model).toBe('gpt-4o-mini');
    expect((await gpt().responses.retrieve(second.id)).previous_response_id).toBe(first.id);

    upstream.serveFrames(responsesFrames(''));
    const stream = gpt().responses.stream({
      model: 'gpt-4o-mini',
      input: 'and again',
      previous_response_id: second.id,
      store: true,
    });
    const created: Array<string | null | undefined> = [];
    stream.on('response.created', (e) => created.push(e.response.previous_response_id));
    const third = await stream.finalResponse();
    expect(created).toEqual([second.id]);
    expect(third.previous_response_id).toBe(second.id);
    expect(third.model).toBe('gpt-4o-mini');
    expect((await gpt().responses.retrieve(third.id)).previous_response_id).toBe(second.id);
  });
});
