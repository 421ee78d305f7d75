import type { ServerResponse } from 'node:http';
import {
  fragments,
  pieces,
  sendJson,
  startMockServer,
  wordCount,
  writeFrames,
  type BaseScript,
  type Json,
  type MockUpstream,
  type RecordedRequest,
} from './mock-server.js';

/**
 * A mock Anthropic Messages API: `POST /v1/messages`, JSON and the full SSE event sequence
 * (message_start, content_block_start, ping, content_block_delta with text_delta and
 * input_json_delta, content_block_stop, message_delta, message_stop), tool_use, Anthropic's exact
 * error bodies `{type: "error", error: {type, message}, request_id}`, and `POST /v1/messages/count_tokens`.
 */

/** What the mock model answers. */
export interface AnthropicReply {
  readonly text?: string;
  readonly toolUses?: ReadonlyArray<{ readonly id?: string; readonly name: string; readonly input: object }>;
  readonly stopReason?: string;
  readonly stopSequence?: string | null;
  readonly usage?: {
    readonly input_tokens: number;
    readonly output_tokens: number;
    readonly cache_read_input_tokens?: number;
    readonly cache_creation_input_tokens?: number;
    /** The cache writes by lifetime, as Anthropic details them; in `message_start` of a stream. */
    readonly cache_creation?: {
      readonly ephemeral_5m_input_tokens: number;
      readonly ephemeral_1h_input_tokens: number;
    };
    /** Server tools run; in the answer and in a stream's `message_delta`, as Anthropic reports them. */
    readonly server_tool_use?: { readonly web_search_requests: number };
  };
  readonly model?: string;
  readonly id?: string;
}

/** One scripted answer. */
export interface AnthropicScript extends BaseScript {
  readonly reply?: AnthropicReply;
  /** Override the error body's fields for non-2xx `status`. */
  readonly error?: { readonly type?: string; readonly message?: string };
  /** Streams: after this many frames, send `event: error` (overloaded_error unless `error` says) and end. */
  readonly streamErrorAfterFrames?: number;
  /** Streams: `data:` lines only, no `event:` lines, as some Anthropic-compatible servers send them. */
  readonly omitEventLines?: boolean;
}

/** Options of the Anthropic mock. */
export interface AnthropicUpstreamOptions {
  /** Require `x-api-key: <apiKey>` (401 otherwise). */
  readonly apiKey?: string;
  /** Default answer per request (default: `You said: <last user text>`). */
  readonly reply?: (body: Json) => AnthropicReply;
}

/** The Anthropic mock; its `url` is the origin, like ANTHROPIC_BASE_URL. */
export type AnthropicUpstream = MockUpstream<AnthropicScript>;

const TYPE_OF_STATUS: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

/** The body Anthropic sends with an error status. */
export function anthropicErrorBody(status: number, override: AnthropicScript['error'] = {}): object {
  const type = override.type ?? TYPE_OF_STATUS[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
  return { type: 'error', error: { type, message: override.message ?? `mock ${type}` }, request_id: 'req_mock' };
}

/** Starts the Anthropic mock on 127.0.0.1. */
export function startAnthropicUpstream(options: AnthropicUpstreamOptions = {}): Promise<AnthropicUpstream> {
  return startMockServer<AnthropicScript>('', async (request, response, script) => {
    if (script.body !== undefined) return sendJson(response, script.status ?? 200, script.body);
    if (script.status !== undefined && (script.status < 200 || script.status >= 300))
      return sendJson(response, script.status, anthropicErrorBody(script.status, script.error));
    if (options.apiKey !== undefined && request.headers['x-api-key'] !== options.apiKey) {
      return sendJson(response, 401, anthropicErrorBody(401, { message: 'invalid x-api-key' }));
    }
    if (request.headers['anthropic-version'] === undefined) {
      return sendJson(response, 400, anthropicErrorBody(400, { message: 'anthropic-version: header is required' }));
    }
    const path = request.path.split('?')[0];
    if (request.method === 'POST' && path === '/v1/messages') return messages(request, response, script, options);
    if (request.method === 'POST' && path === '/v1/messages/count_tokens')
      return countTokens(request, response, script);
    return sendJson(response, 404, anthropicErrorBody(404, { message: `Not found: ${request.method} ${path}` }));
  });
}

async function messages(
  request: RecordedRequest,
  response: ServerResponse,
  script: AnthropicScript,
  options: AnthropicUpstreamOptions,
): Promise<void> {
  const body = request.body;
  if (!body || typeof body.model !== 'string')
    return sendJson(response, 400, anthropicErrorBody(400, { message: 'model: Field required' }));
  if (typeof body.max_tokens !== 'number')
    return sendJson(response, 400, anthropicErrorBody(400, { message: 'max_tokens: Field required' }));
  if (!Array.isArray(body.messages))
    return sendJson(response, 400, anthropicErrorBody(400, { message: 'messages: Field required' }));
  if (typeof body.temperature === 'number' && (body.temperature < 0 || body.temperature > 1)) {
    return sendJson(response, 400, anthropicErrorBody(400, { message: 'temperature: range: 0..1' }));
  }
  if (typeof body.temperature === 'number' && typeof body.top_p === 'number') {
    const message = '`temperature` and `top_p` cannot both be specified for this model. Please use only one.';
    return sendJson(response, 400, anthropicErrorBody(400, { message }));
  }
  if (!(Array.isArray(body.tools) && body.tools.length > 0) && body.messages.some(hasToolBlocks)) {
    return sendJson(
      response,
      400,
      anthropicErrorBody(400, {
        message: 'Requests which include `tool_use` or `tool_result` blocks must define tools.',
      }),
    );
  }
  const untyped = untypedToolSchema(body.tools);
  if (untyped !== undefined)
    return sendJson(response, 400, anthropicErrorBody(400, { message: `${untyped}: Field required` }));
  const badId = invalidToolId(body.messages);
  if (badId !== undefined)
    return sendJson(
      response,
      400,
      anthropicErrorBody(400, { message: `${badId}: String should match pattern '^[a-zA-Z0-9_-]+$'` }),
    );
  const reply = script.reply ??
    options.reply?.(body) ??
    forcedToolReply(body) ?? { text: `You said: ${lastUserText(body.messages)}` };
  const answer = buildAnswer(reply, body);
  if (body.stream === true) return writeFrames(response, streamFrames(answer, script), script);
  sendJson(response, 200, answer);
}

/** The path of a custom tool's `input_schema.type` that is missing, which Anthropic requires (it must be `object`). */
function untypedToolSchema(tools: unknown): string | undefined {
  if (!Array.isArray(tools)) return undefined;
  const index = tools.findIndex(
    (tool) => (tool.type === undefined || tool.type === 'custom') && tool.input_schema?.type === undefined,
  );
  return index === -1 ? undefined : `tools.${index}.custom.input_schema.type`;
}

/** Messages fields that only shape the answer, which `count_tokens` refuses. */
const NOT_COUNTED = [
  'max_tokens',
  'stream',
  'temperature',
  'top_p',
  'top_k',
  'stop_sequences',
  'metadata',
  'service_tier',
];

/** `POST /v1/messages/count_tokens`: about a token per four characters of the prompt, or `reply.usage.input_tokens`. */
function countTokens(request: RecordedRequest, response: ServerResponse, script: AnthropicScript): void {
  const body = request.body;
  if (!body || typeof body.model !== 'string')
    return sendJson(response, 400, anthropicErrorBody(400, { message: 'model: Field required' }));
  if (!Array.isArray(body.messages))
    return sendJson(response, 400, anthropicErrorBody(400, { message: 'messages: Field required' }));
  // The count takes the prompt only; fields that shape the answer are refused, as Anthropic does.
  const extra = NOT_COUNTED.find((field) => field in body);
  if (extra !== undefined)
    return sendJson(response, 400, anthropicErrorBody(400, { message: `${extra}: Extra inputs are not permitted` }));
  const prompt = JSON.stringify([body.system ?? null, body.messages, body.tools ?? null]);
  sendJson(response, 200, { input_tokens: script.reply?.usage?.input_tokens ?? Math.ceil(prompt.length / 4) });
}

type Block = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: object };

interface Answer {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: Block[];
  stop_reason: string;
  stop_sequence: string | null;
  usage: {
    input_tokens: number;
    output_tokens: number;
    cache_creation_input_tokens: number;
    cache_read_input_tokens: number;
    cache_creation?: object;
    server_tool_use?: object;
  };
}

function buildAnswer(reply: AnthropicReply, body: Json): Answer {
  const content: Block[] = [];
  if (reply.text !== undefined ? reply.text !== '' : !reply.toolUses?.length)
    content.push({ type: 'text', text: reply.text ?? '' });
  reply.toolUses?.forEach((use, index) =>
    content.push({ type: 'tool_use', id: use.id ?? `toolu_mock${index}`, name: use.name, input: use.input }),
  );
  const outputWords = content.reduce(
    (sum, block) =>
      sum + (block.type === 'text' ? wordCount(block.text) : Math.ceil(JSON.stringify(block.input).length / 4)),
    0,
  );
  return {
    id: reply.id ?? 'msg_mock123',
    type: 'message',
    role: 'assistant',
    model: reply.model ?? body.model,
    content,
    stop_reason: reply.stopReason ?? (reply.toolUses?.length ? 'tool_use' : 'end_turn'),
    stop_sequence: reply.stopSequence ?? null,
    usage: {
      input_tokens: reply.usage?.input_tokens ?? Math.ceil(JSON.stringify(body.messages).length / 4),
      output_tokens: reply.usage?.output_tokens ?? outputWords,
      cache_creation_input_tokens: reply.usage?.cache_creation_input_tokens ?? 0,
      cache_read_input_tokens: reply.usage?.cache_read_input_tokens ?? 0,
      ...(reply.usage?.cache_creation && { cache_creation: reply.usage.cache_creation }),
      ...(reply.usage?.server_tool_use && { server_tool_use: reply.usage.server_tool_use }),
    },
  };
}

function streamFrames(answer: Answer, script: AnthropicScript): string[] {
  const event = (type: string, payload: object): string =>
    `${script.omitEventLines ? '' : `event: ${type}\n`}data: ${JSON.stringify({ type, ...payload })}\n\n`;
  const frames = [
    event('message_start', {
      message: {
        ...answer,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...answer.usage, output_tokens: 1 },
      },
    }),
  ];
  answer.content.forEach((block, index) => {
    if (block.type === 'text') {
      frames.push(event('content_block_start', { index, content_block: { type: 'text', text: '' } }));
      if (index === 0) frames.push(event('ping', {}));
      for (const piece of pieces(block.text))
        frames.push(event('content_block_delta', { index, delta: { type: 'text_delta', text: piece } }));
    } else {
      frames.push(
        event('content_block_start', {
          index,
          content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
        }),
      );
      if (index === 0) frames.push(event('ping', {}));
      frames.push(event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: '' } }));
      // A call without arguments streams no JSON at all, only that empty delta, as Anthropic sends it.
      const json = Object.keys(block.input).length === 0 ? '' : JSON.stringify(block.input);
      for (const part of fragments(json))
        frames.push(event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: part } }));
    }
    frames.push(event('content_block_stop', { index }));
  });
  frames.push(
    event('message_delta', {
      delta: { stop_reason: answer.stop_reason, stop_sequence: answer.stop_sequence },
      usage: {
        output_tokens: answer.usage.output_tokens,
        ...(answer.usage.server_tool_use && { server_tool_use: answer.usage.server_tool_use }),
      },
    }),
  );
  frames.push(event('message_stop', {}));
  if (script.streamErrorAfterFrames !== undefined) {
    const error = anthropicErrorBody(529, {
      type: script.error?.type ?? 'overloaded_error',
      message: script.error?.message ?? 'Overloaded',
    }) as { error: object };
    return [...frames.slice(0, script.streamErrorAfterFrames), event('error', { error: error.error })];
  }
  return frames;
}

/** The path of the first tool_use id or tool_result tool_use_id Anthropic would refuse, if any. */
function invalidToolId(messages: Json[]): string | undefined {
  for (const [turn, message] of messages.entries()) {
    if (!Array.isArray(message?.content)) continue;
    for (const [index, block] of message.content.entries()) {
      const path = `messages.${turn}.content.${index}`;
      if (block?.type === 'tool_use' && !TOOL_ID.test(String(block.id))) return `${path}.tool_use.id`;
      if (block?.type === 'tool_result' && !TOOL_ID.test(String(block.tool_use_id)))
        return `${path}.tool_result.tool_use_id`;
    }
  }
  return undefined;
}

const TOOL_ID = /^[a-zA-Z0-9_-]+$/;

function hasToolBlocks(message: Json): boolean {
  return (
    Array.isArray(message?.content) &&
    message.content.some((block: Json) => block?.type === 'tool_use' || block?.type === 'tool_result')
  );
}

/** A model made to use a tool (`tool_choice` `tool` or `any`) answers with a call of it, input `{}`. */
function forcedToolReply(body: Json): AnthropicReply | undefined {
  const choice = body.tool_choice;
  if (choice?.type === 'tool') return { toolUses: [{ name: choice.name, input: {} }] };
  if (choice?.type === 'any' && Array.isArray(body.tools) && body.tools.length > 0)
    return { toolUses: [{ name: body.tools[0].name, input: {} }] };
  return undefined;
}

function lastUserText(messages: Json[]): string {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message?.role !== 'user') continue;
    if (typeof message.content === 'string') return message.content;
    if (Array.isArray(message.content))
      return message.content
        .filter((block: Json) => block?.type === 'text')
        .map((block: Json) => block.text)
        .join('\n');
  }
  return '';
}
