import type { Json } from '../../support/upstreams/index.js';
import { parseSse, type SseEvent } from '../../../src/server/gateway/formats/sse.js';

/** Upstream streams as providers send them, for translation tests. */

const chunk = (delta: object, finish: string | null = null, extra: object = {}) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-up1', object: 'chat.completion.chunk', created: 1700000000, model: 'gpt-4o-2024', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], usage: null, ...extra })}\n\n`;

/** An OpenAI stream: text, then two tool calls, finish, usage chunk, [DONE]. */
export const OPENAI_TOOL_STREAM: readonly string[] = [
  chunk({ role: 'assistant', content: '' }),
  chunk({ content: 'Let me' }),
  chunk({ content: ' check.' }),
  chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'weather', arguments: '' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }),
  chunk({
    tool_calls: [
      { index: 1, id: 'call_b', type: 'function', function: { name: 'weather', arguments: '{"city":"Rome"}' } },
    ],
  }),
  chunk({}, 'tool_calls'),
  `data: ${JSON.stringify({ id: 'chatcmpl-up1', object: 'chat.completion.chunk', created: 1700000000, model: 'gpt-4o-2024', choices: [], usage: { prompt_tokens: 31, completion_tokens: 12, total_tokens: 43 } })}\n\n`,
  'data: [DONE]\n\n',
];

/**
 * An OpenAI stream whose parallel tool calls interleave: call 0's arguments finish after call 1
 * started, and one chunk carries deltas of two calls.
 */
export const OPENAI_INTERLEAVED_TOOL_STREAM: readonly string[] = [
  chunk({ role: 'assistant', content: null }),
  chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'weather', arguments: '' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
  chunk({
    tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'time', arguments: '{"zone":' } }],
  }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }),
  chunk({ tool_calls: [{ index: 2, id: 'call_c', type: 'function', function: { name: 'weather', arguments: '' } }] }),
  chunk({
    tool_calls: [
      { index: 1, function: { arguments: '"CET"}' } },
      { index: 2, function: { arguments: '{"city":"Rome"}' } },
    ],
  }),
  chunk({}, 'tool_calls'),
  'data: [DONE]\n\n',
];

/** An OpenAI text stream without usage (servers that ignore stream_options). */
export const OPENAI_TEXT_STREAM_NO_USAGE: readonly string[] = [
  chunk({ role: 'assistant', content: '' }),
  chunk({ content: 'Hello' }),
  chunk({ content: ' world' }),
  chunk({}, 'length'),
  'data: [DONE]\n\n',
];

/** One event of an Anthropic stream, its `type` in the data too, as Anthropic sends it. */
export const anthropicEvent = (type: string, payload: object): string =>
  `event: ${type}\ndata: ${JSON.stringify({ type, ...payload })}\n\n`;
const event = anthropicEvent;

/** The `message_start` an Anthropic stream opens with: no content yet, the prompt's tokens counted. */
export const anthropicMessageStart = (id: string, model: string): string =>
  anthropicEvent('message_start', {
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 1 },
    },
  });

/** An Anthropic stream: text block, tool_use block, message_delta with usage. */
export const ANTHROPIC_TOOL_STREAM: readonly string[] = [
  event('message_start', {
    message: {
      id: 'msg_up1',
      type: 'message',
      role: 'assistant',
      model: 'claude-upstream',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 25, output_tokens: 1 },
    },
  }),
  event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
  event('ping', {}),
  event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Let me' } }),
  event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: ' check.' } }),
  event('content_block_stop', { index: 0 }),
  event('content_block_start', {
    index: 1,
    content_block: { type: 'tool_use', id: 'toolu_a', name: 'weather', input: {} },
  }),
  event('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: '' } }),
  event('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: '{"city": "Pa' } }),
  event('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: 'ris"}' } }),
  event('content_block_stop', { index: 1 }),
  event('message_delta', { delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 15 } }),
  event('message_stop', {}),
];

/** A text-only Anthropic stream stopped by a stop sequence. */
export const ANTHROPIC_STOP_SEQUENCE_STREAM: readonly string[] = [
  event('message_start', {
    message: {
      id: 'msg_up2',
      type: 'message',
      role: 'assistant',
      model: 'claude-upstream',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 8, output_tokens: 1 },
    },
  }),
  event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
  event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'One two' } }),
  event('content_block_stop', { index: 0 }),
  event('message_delta', {
    delta: { stop_reason: 'stop_sequence', stop_sequence: 'three' },
    usage: { output_tokens: 2 },
  }),
  event('message_stop', {}),
];

/** Parsed events of frames, as the upstream body parser yields them. */
export function eventsOf(frames: readonly string[]): AsyncIterable<SseEvent> {
  return parseSse(
    (async function* () {
      for (const frame of frames) yield frame;
    })(),
  );
}

/** Collects an async iterable. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** The JSON payloads of frames (skipping `[DONE]`), with their event names. */
export async function payloads(frames: readonly string[]): Promise<Array<{ event?: string; data: Json }>> {
  const out = [];
  for await (const item of eventsOf(frames))
    if (item.data !== '[DONE]') out.push({ event: item.event, data: JSON.parse(item.data) });
  return out;
}
