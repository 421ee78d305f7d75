import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFrames } from '../../../src/server/gateway/guardrails/pii/stream-restore.js';
import { startTempServers, TEST_MASTER_KEY, type TempServers } from '../../support/temp-servers.js';
import { startFrameServer, type FrameServer } from '../../support/upstreams/index.js';

// The client's address becomes [EMAIL_1]; the model's answer breaks off inside a placeholder's start.
const PROMPT = 'Write to jane.doe@example.com.';

const chatFrames = (): string[] => {
  const chunk = (delta: object) =>
    `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`;
  return [chunk({ role: 'assistant', content: '' }), chunk({ content: 'Hi [EMA' })];
}; // prettier-ignore

const messagesFrames = (): string[] => {
  const ev = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  return [
    ev('message_start', {
      message: { id: 'msg', type: 'message', role: 'assistant', model: 'claude-x', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 5, output_tokens: 0 } },
    }),
    ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Hi [EMA' } }),
  ];
}; // prettier-ignore

const responsesFrames = (): string[] => {
  let seq = 0;
  const ev = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`;
  const message = { type: 'message', id: 'msg_1', status: 'in_progress', role: 'assistant', content: [] };
  return [
    ev('response.created', { response: { id: 'resp_1', object: 'response', created_at: 1, status: 'in_progress', model: 'gpt-4.1', output: [] } }),
    ev('response.output_item.added', { output_index: 0, item: message }),
    ev('response.content_part.added', { item_id: 'msg_1', output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } }),
    ev('response.output_text.delta', { item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'Hi [EMA', logprobs: [] }),
  ];
}; // prettier-ignore

/** The text a client reads from the deltas of one event, whatever the format. */
function deltaText(json: any): string {
  return json.choices?.[0]?.delta?.content ?? json.delta?.text ?? (typeof json.delta === 'string' ? json.delta : '');
}

/**
 * An upstream stream that breaks off while the PII restore holds back the start of a placeholder
 * (`Hi [EMA`): the error frame ends what the client reads, so the held piece goes out before it,
 * never after it (a client stops reading at the error, and a chunk after it reads as more answer).
 */
describe('PII restore when a stream breaks off mid-placeholder', () => {
  let frames: FrameServer;
  let servers: TempServers;
  let key: string;

  beforeAll(async () => {
    frames = await startFrameServer();
    const upstream = { base_url: `${frames.url}/v1`, api_key: 'sk-frames-0123456789' };
    servers = await startTempServers({
      llm: { allowed_models: ['cut-chat', 'cut-messages', 'cut-responses'] },
      gateway: { max_retries: 0 },
      pii: { mode: 'mask' },
      deployments: [
        { id: 'chat', model: 'cut-chat', provider: 'openai', upstream_model: 'gpt-4o-mini', ...upstream },
        { id: 'messages', model: 'cut-messages', provider: 'anthropic', upstream_model: 'claude-x', ...upstream, base_url: frames.url },
        { id: 'responses', model: 'cut-responses', provider: 'openai', upstream_model: 'gpt-4.1', responses_api: 'native', ...upstream },
      ],
    }); // prettier-ignore
    const created = await fetch(`${servers.gatewayUrl}/internal/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ scopes: ['chat', 'responses'] }),
    });
    key = ((await created.json()) as { key: string }).key;
  });
  afterAll(async () => {
    await servers.stop();
    await frames.close();
  });

  /** The events the gateway streams for one request, as sent. */
  async function streamed(path: string, body: object): Promise<Array<{ event?: string; data: string }>> {
    const response = await fetch(`${servers.gatewayUrl}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'x-api-key': key,
        'anthropic-version': '2023-06-01',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ ...body, stream: true }),
    });
    expect(response.status).toBe(200);
    return parseFrames(await response.text());
  }

  /** Asserts the error event is the last one (before chat's `[DONE]`), with the whole text before it. */
  function expectErrorLast(events: Array<{ event?: string; data: string }>, isError: (json: any) => boolean): void {
    const done = events.at(-1)?.data === '[DONE]';
    const json = events.filter((event) => event.data !== '[DONE]').map((event) => JSON.parse(event.data));
    const errorAt = json.findIndex(isError);
    expect(errorAt, 'an error event').toBeGreaterThanOrEqual(0);
    expect(json.slice(errorAt + 1), 'events after the error').toEqual([]);
    expect(json.map(deltaText).join('')).toBe('Hi [EMA');
    if (done) expect(events.filter((event) => event.data === '[DONE]')).toHaveLength(1);
  }

  it('chat: the held piece comes before the error chunk, and only [DONE] after it', async () => {
    frames.serveFrames(chatFrames());
    const events = await streamed('/v1/chat/completions', {
      model: 'cut-chat',
      messages: [{ role: 'user', content: PROMPT }],
    });
    expect(events.at(-1)?.data).toBe('[DONE]');
    expectErrorLast(events, (json) => json.error != null);
  });

  it('chat through the OpenAI SDK: the text read before the error holds the piece', async () => {
    frames.serveFrames(chatFrames());
    const openai = new OpenAI({ baseURL: `${servers.gatewayUrl}/v1`, apiKey: key, maxRetries: 0 });
    const stream = await openai.chat.completions.create({
      model: 'cut-chat',
      stream: true,
      messages: [{ role: 'user', content: PROMPT }],
    });
    let text = '';
    const failure = await (async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    })().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect(text).toBe('Hi [EMA');
  });

  it('Messages: the held piece comes before the error event', async () => {
    frames.serveFrames(messagesFrames());
    const events = await streamed('/v1/messages', {
      model: 'cut-messages',
      max_tokens: 50,
      messages: [{ role: 'user', content: PROMPT }],
    });
    expectErrorLast(events, (json) => json.type === 'error');
  });

  it('Responses: the held piece comes before the error event, numbered in order', async () => {
    frames.serveFrames(responsesFrames());
    const events = await streamed('/v1/responses', { model: 'cut-responses', store: false, input: PROMPT });
    expectErrorLast(events, (json) => json.type === 'error' || json.type === 'response.failed');
    const numbers = events.map((event) => JSON.parse(event.data).sequence_number as number | undefined);
    const numbered = numbers.filter((n): n is number => n !== undefined);
    expect(numbered).toEqual([...numbered].sort((a, b) => a - b));
    expect(new Set(numbered).size).toBe(numbered.length);
  });
});
