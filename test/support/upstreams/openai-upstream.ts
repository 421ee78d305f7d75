import { createHash } from 'node:crypto';
import { responses } from './openai-responses.js';
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
 * A mock OpenAI API: `POST /v1/chat/completions` (JSON and SSE with `data: [DONE]`, tool calls,
 * `stream_options.include_usage`), `POST /v1/embeddings` (float and base64) and `GET /v1/models`,
 * with OpenAI's exact error bodies `{error: {message, type, param, code}}`.
 */

/** What the mock model answers. */
export interface OpenAIReply {
  readonly text?: string;
  readonly toolCalls?: ReadonlyArray<{
    readonly id?: string;
    readonly name: string;
    readonly arguments: string | object;
  }>;
  readonly finishReason?: string;
  /**
   * Reasoning text written beside the answer, as reasoning models on compatible servers do: before
   * the content, whole or in deltas of its own, in the field `reasoningField` names.
   */
  readonly reasoning?: string;
  /** `reasoning_content` (DeepSeek's API, vLLM; the default) or `reasoning` (OpenRouter, Ollama). */
  readonly reasoningField?: 'reasoning_content' | 'reasoning';
  /** Counts to report; `null` reports no usage at all (as some compatible servers do). */
  readonly usage?: {
    readonly prompt_tokens: number;
    readonly completion_tokens: number;
    readonly prompt_tokens_details?: { readonly cached_tokens: number };
    readonly completion_tokens_details?: { readonly reasoning_tokens: number };
  } | null;
  readonly model?: string;
  readonly id?: string;
}

/** One scripted answer. */
export interface OpenAIScript extends BaseScript {
  readonly reply?: OpenAIReply;
  /** Override the error body's fields for non-2xx `status`. */
  readonly error?: { readonly message?: string; readonly type?: string; readonly code?: string | null };
  /** Streams: after this many frames, send an `{"error": ...}` chunk and end. */
  readonly streamErrorAfterFrames?: number;
}

/** Options of the OpenAI mock. */
export interface OpenAIUpstreamOptions {
  /** Require `Authorization: Bearer <apiKey>` (401 otherwise). */
  readonly apiKey?: string;
  /** Default answer per request (default: `You said: <last user text>`). */
  readonly reply?: (body: Json) => OpenAIReply;
  /** Emulate servers that ignore `dimensions` and `encoding_format` (always full floats). */
  readonly embeddingsFloatOnly?: boolean;
  /** Length of embeddings when the request does not ask (default 8). */
  readonly embeddingDimensions?: number;
  /** Emulate servers that take `top_k` (vLLM, llama.cpp, ...); OpenAI itself rejects it. */
  readonly acceptTopK?: boolean;
}

/** The OpenAI mock; its `url` ends in `/v1`, like OPENAI_BASE_URL. */
export type OpenAIUpstream = MockUpstream<OpenAIScript>;

const ERROR_DEFAULTS: Record<number, { type: string; code: string | null; message: string }> = {
  400: { type: 'invalid_request_error', code: null, message: 'Invalid request.' },
  401: { type: 'invalid_request_error', code: 'invalid_api_key', message: 'Incorrect API key provided.' },
  404: {
    type: 'invalid_request_error',
    code: 'model_not_found',
    message: 'The model does not exist or you do not have access to it.',
  },
  429: { type: 'requests', code: 'rate_limit_exceeded', message: 'Rate limit reached for requests.' },
  500: { type: 'server_error', code: null, message: 'The server had an error while processing your request.' },
  503: { type: 'server_error', code: null, message: 'The engine is currently overloaded, please try again later.' },
};

/** The body OpenAI sends with an error status. */
export function openAIErrorBody(status: number, override: OpenAIScript['error'] = {}): object {
  const base = ERROR_DEFAULTS[status] ?? {
    type: status >= 500 ? 'server_error' : 'invalid_request_error',
    code: null,
    message: `Error ${status}.`,
  };
  return {
    error: {
      message: override.message ?? base.message,
      type: override.type ?? base.type,
      param: null,
      code: override.code === undefined ? base.code : override.code,
    },
  };
}

/** Starts the OpenAI mock on 127.0.0.1. */
export function startOpenAIUpstream(options: OpenAIUpstreamOptions = {}): Promise<OpenAIUpstream> {
  return startMockServer<OpenAIScript>('/v1', async (request, response, script) => {
    if (script.body !== undefined) return sendJson(response, script.status ?? 200, script.body);
    if (script.status !== undefined && (script.status < 200 || script.status >= 300))
      return sendJson(response, script.status, openAIErrorBody(script.status, script.error));
    if (options.apiKey !== undefined && request.headers.authorization !== `Bearer ${options.apiKey}`) {
      return sendJson(
        response,
        401,
        openAIErrorBody(401, {
          message:
            'Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.',
        }),
      );
    }
    const path = request.path.split('?')[0];
    if (request.method === 'GET' && path === '/v1/models') {
      return sendJson(response, 200, {
        object: 'list',
        data: [{ id: 'gpt-4o-mini', object: 'model', created: 1700000000, owned_by: 'openai' }],
      });
    }
    if (request.method === 'POST' && path === '/v1/chat/completions') return chat(request, response, script, options);
    if (request.method === 'POST' && path === '/v1/embeddings') return embeddings(request, response, options);
    if (request.method === 'POST' && path === '/v1/responses') return responses(request, response, script);
    // A kept response's deletion, as OpenAI answers it (the mock keeps none: every id is deleted).
    const kept = /^\/v1\/responses\/([^/]+)$/.exec(path ?? '');
    if (request.method === 'DELETE' && kept !== null)
      return sendJson(response, 200, { id: decodeURIComponent(kept[1]!), object: 'response', deleted: true });
    return sendJson(
      response,
      404,
      openAIErrorBody(404, { message: `Invalid URL (${request.method} ${path})`, code: null }),
    );
  });
}

async function chat(
  request: RecordedRequest,
  response: ServerResponse,
  script: OpenAIScript,
  options: OpenAIUpstreamOptions,
): Promise<void> {
  const body = request.body;
  if (!body || typeof body.model !== 'string')
    return sendJson(response, 400, openAIErrorBody(400, { message: 'you must provide a model parameter' }));
  if (!Array.isArray(body.messages))
    return sendJson(
      response,
      400,
      openAIErrorBody(400, { message: "Missing required parameter: 'messages'.", code: 'missing_required_parameter' }),
    );
  if (body.top_k !== undefined && !options.acceptTopK) {
    // OpenAI rejects parameters it does not define; top_k is the one translated requests could carry.
    return sendJson(response, 400, openAIErrorBody(400, { message: 'Unrecognized request argument supplied: top_k' }));
  }
  if (body.stream_options != null && body.stream !== true) {
    return sendJson(
      response,
      400,
      openAIErrorBody(400, { message: "The 'stream_options' parameter is only allowed when 'stream' is enabled." }),
    );
  }
  const reply = script.reply ?? options.reply?.(body) ?? { text: `You said: ${lastUserText(body.messages)}` };
  const answer = buildAnswer(reply, body);
  if (body.stream === true) return writeFrames(response, streamFrames(answer, body, script, reply), script);
  sendJson(response, 200, {
    id: answer.id,
    object: 'chat.completion',
    created: answer.created,
    model: answer.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: answer.text,
          refusal: null,
          ...(answer.toolCalls.length > 0 ? { tool_calls: answer.toolCalls } : {}),
          ...reasoningOf(reply, reply.reasoning),
          annotations: [],
        },
        logprobs: null,
        finish_reason: answer.finishReason,
      },
    ],
    ...(answer.usage ? { usage: answer.usage } : {}),
    system_fingerprint: 'fp_mock',
  });
}

interface Answer {
  id: string;
  created: number;
  model: string;
  text: string | null;
  toolCalls: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
  finishReason: string;
  usage:
    | {
        prompt_tokens: number;
        completion_tokens: number;
        total_tokens: number;
        prompt_tokens_details?: { cached_tokens: number };
        completion_tokens_details?: { reasoning_tokens: number };
      }
    | undefined;
}

function buildAnswer(reply: OpenAIReply, body: Json): Answer {
  const toolCalls = (reply.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `call_mock${index}`,
    type: 'function' as const,
    function: {
      name: call.name,
      arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
    },
  }));
  const text = reply.text ?? (toolCalls.length > 0 ? null : '');
  const prompt = Math.ceil(JSON.stringify(body.messages).length / 4);
  const completion =
    wordCount(text ?? '') + toolCalls.reduce((sum, call) => sum + Math.ceil(call.function.arguments.length / 4), 0);
  const usage =
    reply.usage === null ? undefined : (reply.usage ?? { prompt_tokens: prompt, completion_tokens: completion });
  return {
    id: reply.id ?? 'chatcmpl-mock123',
    created: 1700000000,
    model: reply.model ?? `${body.model}-2024-01-01`,
    text,
    toolCalls,
    finishReason: reply.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
    usage: usage && { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  };
}

/** The reply's reasoning (or a piece of it) in the field its server writes; nothing without one. */
function reasoningOf(reply: OpenAIReply, text: string | undefined): Json {
  return text === undefined ? {} : { [reply.reasoningField ?? 'reasoning_content']: text };
}

function streamFrames(answer: Answer, body: Json, script: OpenAIScript, reply: OpenAIReply): string[] {
  const withUsage = body.stream_options?.include_usage === true;
  const chunk = (delta: object, finishReason: string | null = null): string =>
    `data: ${JSON.stringify({
      id: answer.id,
      object: 'chat.completion.chunk',
      created: answer.created,
      model: answer.model,
      system_fingerprint: 'fp_mock',
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      ...(withUsage ? { usage: null } : {}),
    })}\n\n`;
  const frames = [chunk({ role: 'assistant', content: '', refusal: null })];
  for (const piece of pieces(reply.reasoning ?? '')) frames.push(chunk(reasoningOf(reply, piece)));
  for (const piece of pieces(answer.text ?? '')) frames.push(chunk({ content: piece }));
  answer.toolCalls.forEach((call, index) => {
    frames.push(
      chunk({
        tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }],
      }),
    );
    for (const part of fragments(call.function.arguments))
      frames.push(chunk({ tool_calls: [{ index, function: { arguments: part } }] }));
  });
  frames.push(chunk({}, answer.finishReason));
  if (withUsage && answer.usage) {
    frames.push(
      `data: ${JSON.stringify({ id: answer.id, object: 'chat.completion.chunk', created: answer.created, model: answer.model, system_fingerprint: 'fp_mock', choices: [], usage: answer.usage })}\n\n`,
    );
  }
  frames.push('data: [DONE]\n\n');
  if (script.streamErrorAfterFrames !== undefined) {
    const error = openAIErrorBody(500, script.error);
    return [...frames.slice(0, script.streamErrorAfterFrames), `data: ${JSON.stringify(error)}\n\n`];
  }
  return frames;
}

function embeddings(request: RecordedRequest, response: ServerResponse, options: OpenAIUpstreamOptions): void {
  const body = request.body;
  if (!body || body.input === undefined)
    return sendJson(response, 400, openAIErrorBody(400, { message: "'input' is a required property" }));
  const inputs: unknown[] =
    typeof body.input === 'string' || typeof body.input[0] === 'number' ? [body.input] : body.input;
  const dimensions = options.embeddingsFloatOnly
    ? (options.embeddingDimensions ?? 8)
    : (body.dimensions ?? options.embeddingDimensions ?? 8);
  const base64 = !options.embeddingsFloatOnly && body.encoding_format === 'base64';
  const data = inputs.map((input, index) => {
    const vector = mockVector(JSON.stringify(input), dimensions);
    return {
      object: 'embedding',
      index,
      embedding: base64 ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector,
    };
  });
  const tokens = inputs.reduce<number>(
    (sum, input) => sum + (typeof input === 'string' ? wordCount(input) : (input as unknown[]).length),
    0,
  );
  sendJson(response, 200, {
    object: 'list',
    data,
    model: body.model,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  });
}

/** The mock's deterministic embedding of a text (unit length), so tests can predict vectors. */
export function mockVector(text: string, dimensions: number): number[] {
  const bytes = createHash('sha256').update(text).digest();
  const raw = Array.from({ length: dimensions }, (_, index) => bytes[index % bytes.length] / 255 - 0.5 + index / 1000);
  const norm = Math.sqrt(raw.reduce((sum, value) => sum + value * value, 0));
  return raw.map((value) => Math.fround(value / norm));
}

function lastUserText(messages: Json[]): string {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message?.role !== 'user') continue;
    if (typeof message.content === 'string') return message.content;
    if (Array.isArray(message.content))
      return message.content
        .filter((part: Json) => part?.type === 'text')
        .map((part: Json) => part.text)
        .join('\n');
  }
  return '';
}
