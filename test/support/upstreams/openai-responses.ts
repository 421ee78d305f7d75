import type { ServerResponse } from 'node:http';
import {
  pieces,
  sendJson,
  wordCount,
  writeFrames,
  type BaseScript,
  type Json,
  type RecordedRequest,
} from './mock-server.js';

/**
 * What the mock's Responses API says: `text` (default `You said: <last input text>`), `usage: null` for
 * a server that reports none, or an error mid-stream.
 */
export interface ResponsesScript extends BaseScript {
  readonly reply?: { readonly text?: string; /** Only `null` is read: no usage. */ readonly usage?: object | null };
  /** Streams: after this many events send `response.failed` and end. */
  readonly streamErrorAfterFrames?: number;
}

/** The text of the last user input (a string input, or the last user message's text parts). */
function lastInputText(input: unknown): string {
  if (typeof input === 'string') return input;
  if (!Array.isArray(input)) return '';
  for (let i = input.length - 1; i >= 0; i -= 1) {
    const item = input[i] as Json;
    if (item?.role !== 'user') continue;
    if (typeof item.content === 'string') return item.content;
    return (item.content as Json[]).map((part) => (typeof part.text === 'string' ? part.text : '')).join('');
  }
  return '';
}

const frame = (type: string, payload: Json): string =>
  `event: ${type}\ndata: ${JSON.stringify({ type, ...payload })}\n\n`;

/** `POST /v1/responses` as OpenAI answers it: a Response object, or its typed event stream. */
export function responses(
  request: RecordedRequest,
  response: ServerResponse,
  script: ResponsesScript,
): Promise<void> | void {
  const body = request.body;
  if (!body || typeof body.model !== 'string')
    return sendJson(response, 400, {
      error: { message: 'Missing required parameter: model', type: 'invalid_request_error' },
    });
  const text = script.reply?.text ?? `You said: ${lastInputText(body.input)}`;
  const model = `${body.model}-2025-04-14`;
  const id = 'resp_mock123';
  const message = {
    type: 'message',
    id: 'msg_mock123',
    status: 'completed',
    role: 'assistant',
    content: [{ type: 'output_text', text, annotations: [] }],
  };
  const usage = { input_tokens: wordCount(lastInputText(body.input)), output_tokens: wordCount(text), total_tokens: 0 };
  const object = (status: string, output: Json[], withUsage: boolean) => ({
    id,
    object: 'response',
    created_at: 1700000000,
    status,
    model,
    output,
    store: body.store,
    usage: withUsage && script.reply?.usage !== null ? usage : null,
  });
  if (body.stream !== true) return sendJson(response, 200, object('completed', [message], true));
  let sequence = 0;
  const events = [
    frame('response.created', { sequence_number: sequence++, response: object('in_progress', [], false) }),
    frame('response.in_progress', { sequence_number: sequence++, response: object('in_progress', [], false) }),
    frame('response.output_item.added', {
      sequence_number: sequence++,
      output_index: 0,
      item: { ...message, status: 'in_progress', content: [] },
    }),
    frame('response.content_part.added', {
      sequence_number: sequence++,
      item_id: message.id,
      output_index: 0,
      content_index: 0,
      part: { type: 'output_text', text: '', annotations: [] },
    }),
    ...pieces(text).map((delta) =>
      frame('response.output_text.delta', {
        sequence_number: sequence++,
        item_id: message.id,
        output_index: 0,
        content_index: 0,
        delta,
      }),
    ),
    frame('response.output_text.done', {
      sequence_number: sequence++,
      item_id: message.id,
      output_index: 0,
      content_index: 0,
      text,
    }),
    frame('response.content_part.done', {
      sequence_number: sequence++,
      item_id: message.id,
      output_index: 0,
      content_index: 0,
      part: message.content[0],
    }),
    frame('response.output_item.done', { sequence_number: sequence++, output_index: 0, item: message }),
    frame('response.completed', { sequence_number: sequence++, response: object('completed', [message], true) }),
  ];
  const failed = frame('response.failed', {
    sequence_number: 99,
    response: {
      ...object('failed', [], false),
      error: { code: 'server_error', message: 'The model failed mid-answer' },
    },
  });
  const all =
    script.streamErrorAfterFrames !== undefined ? [...events.slice(0, script.streamErrorAfterFrames), failed] : events;
  return writeFrames(response, all, script);
}
