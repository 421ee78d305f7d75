import { randomUUID } from 'node:crypto';
import type { IrRequest, IrResponse, IrStopReason, IrTextPart, IrToolCallPart, Usage } from '../ir.js';
import { assertNever } from '../../../../shared/assert-never.js';
import type { ChatCompletion, ChatFinishReason, ChatToolCallOut, ChatUsage } from './chat-wire.js';
import { reportedTokens } from '../reported-tokens.js';
import { chatReasoningOf } from './chat-reasoning.js';
import { chatToolNames } from './tool-names.js';

/** Chat completions answers to and from the IR. */

/** `finish_reason` to the IR; unknown or missing reasons (some compatible servers) read as stop. */
export function finishReasonToIr(reason: unknown): IrStopReason {
  switch (reason) {
    case 'length':
      return 'length';
    case 'tool_calls':
    case 'function_call':
      return 'tool_calls';
    case 'content_filter':
      return 'content_filter';
    default:
      return 'stop';
  }
}

/** The IR stop reason as `finish_reason` (chat has no separate stop-sequence reason). */
export function finishReasonFromIr(reason: IrStopReason): ChatFinishReason {
  switch (reason) {
    case 'stop':
    case 'stop_sequence':
      return 'stop';
    case 'length':
      return 'length';
    case 'tool_calls':
      return 'tool_calls';
    case 'content_filter':
      return 'content_filter';
    default:
      return assertNever(reason, 'stop reason');
  }
}

/** Reads `usage` of a chat answer or chunk; undefined when absent. */
export function chatUsageToIr(usage: unknown): Partial<Usage> | undefined {
  if (usage === null || typeof usage !== 'object') return undefined;
  const {
    prompt_tokens: prompt,
    completion_tokens: completion,
    prompt_tokens_details: details,
    completion_tokens_details: completionDetails,
  } = usage as Record<string, unknown>;
  const cached = reportedTokens((details as { cached_tokens?: unknown } | null | undefined)?.cached_tokens);
  const reasoning = reportedTokens(
    (completionDetails as { reasoning_tokens?: unknown } | null | undefined)?.reasoning_tokens,
  );
  return {
    promptTokens: reportedTokens(prompt),
    completionTokens: reportedTokens(completion),
    ...(cached === undefined ? {} : { cachedPromptTokens: cached }),
    ...(reasoning === undefined ? {} : { reasoningTokens: reasoning }),
  };
}

/** Chat usage from complete counts. */
export function chatUsageFromIr(usage: Usage): ChatUsage {
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.promptTokens + usage.completionTokens,
    ...(usage.cachedPromptTokens === undefined
      ? {}
      : { prompt_tokens_details: { cached_tokens: usage.cachedPromptTokens } }),
    ...(usage.reasoningTokens === undefined
      ? {}
      : { completion_tokens_details: { reasoning_tokens: usage.reasoningTokens } }),
    ...cacheWrites(usage),
  };
}

/**
 * The prompt tokens a Claude model wrote to its cache, beside the usage of a chat or Responses answer
 * (OpenAI's formats have no field for them; LiteLLM's name): they are billed above input, and a client
 * that cannot see them cannot tell what a prompt cost. Nothing when none were written.
 */
export function cacheWrites(usage: Usage): { cache_creation_input_tokens?: number } {
  return usage.cacheWritePromptTokens === undefined
    ? {}
    : { cache_creation_input_tokens: usage.cacheWritePromptTokens };
}

/**
 * A tool call's id as the upstream wrote it, or a fresh one where a server left it out or sent null
 * (some local servers do): the client sends it back with the call's result, and Anthropic refuses a
 * history in which two calls share an id, so it is never a counter.
 */
export function toolCallIdOf(id: unknown): string {
  return typeof id === 'string' && id !== '' ? id : `call_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
}

/** A tool call's name as the client wrote it in the request. */
export function toolNameOf(name: unknown, restored: ((name: string) => string) | undefined): string {
  if (typeof name !== 'string') return '';
  return restored === undefined ? name : restored(name);
}

/** A tool call's arguments as JSON text: some compatible servers send them as an object. */
export function toolArgumentsText(args: unknown): string {
  if (typeof args === 'string') return args;
  return args == null ? '' : JSON.stringify(args);
}

/**
 * Maps an upstream chat completion (first choice) to the IR; `request`, the IR the upstream was sent,
 * gives tool calls back the names the client wrote.
 */
export function chatResponseToIr(json: unknown, request?: IrRequest): IrResponse {
  const restored = request === undefined ? undefined : chatToolNames(request)?.restored;
  const body = (json ?? {}) as Record<string, unknown>;
  const choices = Array.isArray(body.choices) ? body.choices : [];
  const choice = (choices[0] ?? {}) as Record<string, unknown>;
  const message = (choice.message ?? {}) as Record<string, unknown>;
  const content: Array<IrTextPart | IrToolCallPart> = [];
  if (typeof message.content === 'string' && message.content !== '')
    content.push({ type: 'text', text: message.content });
  else if (typeof message.refusal === 'string' && message.refusal !== '')
    content.push({ type: 'text', text: message.refusal, refusal: true });
  const calls = Array.isArray(message.tool_calls) ? (message.tool_calls as ChatToolCallOut[]) : [];
  for (const call of calls) {
    content.push({
      type: 'tool_call',
      id: toolCallIdOf(call.id),
      name: toolNameOf(call.function?.name, restored),
      arguments: toolArgumentsText(call.function?.arguments),
    });
  }
  const stopReason =
    calls.length > 0 && choice.finish_reason === 'stop' ? 'tool_calls' : finishReasonToIr(choice.finish_reason);
  const reasoning = chatReasoningOf(message);
  return {
    id: typeof body.id === 'string' ? body.id : '',
    model: typeof body.model === 'string' ? body.model : '',
    content,
    ...(reasoning === undefined ? {} : { reasoning }),
    stopReason,
    stopSequence: null,
    usage: chatUsageToIr(body.usage),
  };
}

/** Builds the chat completion a client receives; `model` is the public model name. */
export function chatResponseFromIr(
  ir: IrResponse,
  model: string,
  usage: Usage,
  created = nowSeconds(),
): ChatCompletion {
  const text = ir.content
    .filter((part): part is IrTextPart => part.type === 'text')
    .map((part) => part.text)
    .join('');
  const calls: ChatToolCallOut[] = ir.content.flatMap((part) =>
    part.type === 'tool_call'
      ? [{ id: part.id, type: 'function' as const, function: { name: part.name, arguments: part.arguments } }]
      : [],
  );
  const message: ChatCompletion['choices'][number]['message'] = {
    role: 'assistant',
    content: text === '' && calls.length > 0 ? null : text,
    refusal: null,
  };
  if (calls.length > 0) message.tool_calls = calls;
  // Where DeepSeek's API puts it, and LiteLLM a Claude model's thinking.
  if (ir.reasoning !== undefined) message.reasoning_content = ir.reasoning;
  if (ir.thinkingBlocks !== undefined) message.thinking_blocks = [...ir.thinkingBlocks];
  return {
    id: chatId(ir.id),
    object: 'chat.completion',
    created,
    model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReasonFromIr(ir.stopReason) }],
    usage: chatUsageFromIr(usage),
  };
}

/** A chat completion id derived from the upstream's, so logs on both sides can be matched. */
export function chatId(upstreamId: string): string {
  if (upstreamId.startsWith('chatcmpl-')) return upstreamId;
  return `chatcmpl-${upstreamId.replace(/^msg_/, '') || randomUUID()}`;
}

/** Unix seconds. */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
