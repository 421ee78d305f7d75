import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTempServers, TEST_MASTER_KEY, type TempServers } from '../../support/temp-servers.js';
import { startFrameServer, type FrameServer } from '../../support/upstreams/index.js';

const EMAIL = 'jane.doe@example.com';
const PHONE = '+1 415 555 0132';
// The client's request: its e-mail address becomes [EMAIL_1], its phone number [PHONE_1].
const PROMPT = `Write to ${EMAIL}, or call ${PHONE}.`;
// What the model answers, split below at every position.
const ANSWER = 'Reach [EMAIL_1] or [PHONE_1]; keep [SECRET_1].';
const RESTORED = `Reach ${EMAIL} or ${PHONE}; keep [SECRET_1].`;

const chatFrames = (pieces: string[]): string[] => {
  const chunk = (delta: object, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  return [
    chunk({ role: 'assistant', content: '' }),
    ...pieces.map((content) => chunk({ content })),
    chunk({}, 'stop'),
    'data: [DONE]\n\n',
  ];
};

const messagesFrames = (pieces: string[]): string[] => {
  const ev = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  return [
    ev('message_start', {
      message: {
        id: 'msg',
        type: 'message',
        role: 'assistant',
        model: 'claude-x',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 5, output_tokens: 0 },
      },
    }),
    ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    ...pieces.map((text) => ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text } })),
    ev('content_block_stop', { index: 0 }),
    ev('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 7 } }),
    ev('message_stop', {}),
  ];
};

const responsesFrames = (pieces: string[]): string[] => {
  let seq = 0;
  const ev = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`;
  const response = (status: string, output: object[]) => ({
    id: 'resp_1', object: 'response', created_at: 1, status, model: 'gpt-4.1', output,
    usage: status === 'completed' ? { input_tokens: 5, output_tokens: 7, total_tokens: 12 } : null,
  });
  const message = { type: 'message', id: 'msg_1', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: ANSWER, annotations: [] }] };
  return [
    ev('response.created', { response: response('in_progress', []) }),
    ev('response.output_item.added', { output_index: 0, item: { ...message, status: 'in_progress', content: [] } }),
    ev('response.content_part.added', { item_id: 'msg_1', output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } }),
    ...pieces.map((delta) => ev('response.output_text.delta', { item_id: 'msg_1', output_index: 0, content_index: 0, delta, logprobs: [] })),
    ev('response.output_text.done', { item_id: 'msg_1', output_index: 0, content_index: 0, text: ANSWER, logprobs: [] }),
    ev('response.content_part.done', { item_id: 'msg_1', output_index: 0, content_index: 0, part: message.content[0] }),
    ev('response.output_item.done', { output_index: 0, item: message }),
    ev('response.completed', { response: response('completed', [message]) }),
  ];
}; // prettier-ignore

/**
 * Streamed answers whose placeholder is cut at every position between two deltas, through the
 * gateway to the official SDKs: each SDK reads the originals, whole.
 */
describe('PII restore in streams split at every position, through the SDKs', () => {
  let frames: FrameServer;
  let servers: TempServers;
  let openai: OpenAI;
  let anthropic: Anthropic;

  beforeAll(async () => {
    frames = await startFrameServer();
    const upstream = { base_url: `${frames.url}/v1`, api_key: 'sk-frames-0123456789' };
    servers = await startTempServers({
      llm: { allowed_models: ['split-chat', 'split-messages', 'split-responses'] },
      gateway: { max_retries: 0 },
      pii: { mode: 'mask' },
      deployments: [
        { id: 'chat', model: 'split-chat', provider: 'openai', upstream_model: 'gpt-4o-mini', ...upstream },
        { id: 'messages', model: 'split-messages', provider: 'anthropic', upstream_model: 'claude-x', ...upstream, base_url: frames.url },
        { id: 'responses', model: 'split-responses', provider: 'openai', upstream_model: 'gpt-4.1', responses_api: 'native', ...upstream },
      ],
    }); // prettier-ignore
    const created = await fetch(`${servers.gatewayUrl}/internal/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ scopes: ['chat', 'responses'] }),
    });
    const key = ((await created.json()) as { key: string }).key;
    openai = new OpenAI({ baseURL: `${servers.gatewayUrl}/v1`, apiKey: key, maxRetries: 0 });
    anthropic = new Anthropic({ baseURL: servers.gatewayUrl, apiKey: key, maxRetries: 0 });
  });
  afterAll(async () => {
    await servers.stop();
    await frames.close();
  });

  const splits = (): string[][] =>
    Array.from({ length: ANSWER.length + 1 }, (_, at) => [ANSWER.slice(0, at), ANSWER.slice(at)]);

  it('chat completions (openai)', async () => {
    for (const pieces of splits()) {
      frames.serveFrames(chatFrames(pieces));
      const stream = await openai.chat.completions.create({
        model: 'split-chat',
        stream: true,
        messages: [{ role: 'user', content: PROMPT }],
      });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      expect(text, `split after ${pieces[0]!.length}`).toBe(RESTORED);
    }
  });

  it('Messages (@anthropic-ai/sdk)', async () => {
    for (const pieces of splits()) {
      frames.serveFrames(messagesFrames(pieces));
      const stream = anthropic.messages.stream({
        model: 'split-messages',
        max_tokens: 50,
        messages: [{ role: 'user', content: PROMPT }],
      });
      let text = '';
      stream.on('text', (delta) => {
        text += delta;
      });
      const final = await stream.finalMessage();
      expect(text, `split after ${pieces[0]!.length}`).toBe(RESTORED);
      expect(final.content[0]).toMatchObject({ type: 'text', text: RESTORED });
    }
  });

  it('Responses (openai)', async () => {
    for (const pieces of splits()) {
      frames.serveFrames(responsesFrames(pieces));
      const stream = openai.responses.stream({ model: 'split-responses', input: PROMPT });
      let text = '';
      stream.on('response.output_text.delta', (event) => {
        text += event.delta;
      });
      const final = await stream.finalResponse();
      expect(text, `split after ${pieces[0]!.length}`).toBe(RESTORED);
      expect(final.output_text).toBe(RESTORED);
    }
  });
});
