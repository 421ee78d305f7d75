import { randomUUID } from 'node:crypto';
import type { IrResponse, IrStopReason, IrTextPart, IrToolCallPart, Usage } from '../ir.js';
import { assertNever } from '../../../../shared/assert-never.js';
import { isCutOff } from '../cut-tool-calls.js';
import { parseToolArguments } from '../translation-error.js';
import type {
  MessagesResponse,
  MessagesStopReason,
  MessagesUsage,
  MessagesTextBlock,
  MessagesThinkingBlock,
  MessagesToolUseBlock,
} from './messages-wire.js';
import { signedThinkingBlocks } from './signed-thinking.js';
import { thinkingTextOf, unsignedThinkingBlock } from './thinking.js';
import { reportedTokens } from '../reported-tokens.js';
import { toolUseId } from './tool-id.js';

/** Messages answers to and from the IR. */

/** `stop_reason` to the IR. */
export function stopReasonToIr(reason: unknown): IrStopReason {
  switch (reason) {
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'stop_sequence':
      return 'stop_sequence';
    case 'refusal':
      return 'content_filter';
    default:
      return 'stop';
  }
}

/**
 * A turn that ended normally with a refusal (chat completions' `message.refusal`, which finishes with
 * `stop`) ends as a refusal: a Messages client reads that from `stop_reason`, not from the text.
 */
export function refusedStop(reason: IrStopReason, refused: boolean): IrStopReason {
  return refused && reason === 'stop' ? 'content_filter' : reason;
}

/** The IR stop reason as `stop_reason`. */
export function stopReasonFromIr(reason: IrStopReason): MessagesStopReason {
  switch (reason) {
    case 'stop':
      return 'end_turn';
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
      return 'tool_use';
    case 'stop_sequence':
      return 'stop_sequence';
    case 'content_filter':
      return 'refusal';
    default:
      return assertNever(reason, 'stop reason');
  }
}

/** A count inside one of usage's objects (`cache_creation`, `server_tool_use`). */
function nestedCount(part: unknown, key: string): number | undefined {
  return part !== null && typeof part === 'object' ? reportedTokens((part as Record<string, unknown>)[key]) : undefined;
}

/**
 * Reads Messages usage. Cached input counts toward the prompt: Anthropic reports cache reads and
 * writes beside `input_tokens`, not inside it. Cache reads are what OpenAI's formats call cached.
 */
export function messagesUsageToIr(usage: unknown): Partial<Usage> | undefined {
  if (usage === null || typeof usage !== 'object') return undefined;
  const fields = usage as Record<string, unknown>;
  const count = (key: string): number | undefined => reportedTokens(fields[key]);
  const input = count('input_tokens');
  const read = count('cache_read_input_tokens');
  const written = count('cache_creation_input_tokens');
  const hourLong = nestedCount(fields.cache_creation, 'ephemeral_1h_input_tokens');
  const searches = nestedCount(fields.server_tool_use, 'web_search_requests');
  return {
    promptTokens: input === undefined ? undefined : input + (written ?? 0) + (read ?? 0),
    completionTokens: count('output_tokens'),
    ...(read === undefined || input === undefined ? {} : { cachedPromptTokens: read }),
    // Only when there were any: Anthropic reports 0 in every answer, and nothing else bills writes.
    ...(written === undefined || written === 0 || input === undefined ? {} : { cacheWritePromptTokens: written }),
    ...(hourLong === undefined || hourLong === 0 ? {} : { cacheWrite1hPromptTokens: hourLong }),
    ...(searches === undefined || searches === 0 ? {} : { webSearchRequests: searches }),
  };
}

/**
 * Messages usage from complete counts: a cached part goes beside `input_tokens`, as Anthropic reports
 * it. Both cache counts are always there, as in Anthropic's answers; an upstream of another format
 * reports no cache writes (OpenAI's caching has none to bill), and reads only when it says.
 */
export function messagesUsageFromIr(usage: Usage): MessagesUsage {
  const cached = usage.cachedPromptTokens ?? 0;
  const written = usage.cacheWritePromptTokens ?? 0;
  return {
    input_tokens: usage.promptTokens - cached - written,
    cache_creation_input_tokens: written,
    cache_read_input_tokens: cached,
    output_tokens: usage.completionTokens,
  };
}

/** Maps an Anthropic answer to the IR. */
export function messagesResponseToIr(json: unknown): IrResponse {
  const body = (json ?? {}) as Record<string, unknown>;
  const blocks = Array.isArray(body.content) ? (body.content as Array<Record<string, unknown>>) : [];
  const content: Array<IrTextPart | IrToolCallPart> = [];
  const stopReason = stopReasonToIr(body.stop_reason);
  blocks.forEach((block, index) => {
    if (block.type === 'text' && typeof block.text === 'string') content.push({ type: 'text', text: block.text });
    else if (block.type === 'tool_use') {
      content.push({
        type: 'tool_call',
        id: String(block.id),
        name: String(block.name),
        arguments: JSON.stringify(block.input ?? {}),
        // Stopped at the limit inside its last block: the call was never finished, whatever `input` holds.
        ...(stopReason === 'length' && index === blocks.length - 1 ? { cutOff: true } : {}),
      });
    }
  });
  const reasoning = thinkingTextOf(blocks);
  const signed = signedThinkingBlocks(blocks);
  return {
    id: typeof body.id === 'string' ? body.id : '',
    model: typeof body.model === 'string' ? body.model : '',
    content,
    ...(reasoning === undefined ? {} : { reasoning }),
    ...(signed.length === 0 ? {} : { thinkingBlocks: signed }),
    stopReason,
    stopSequence: typeof body.stop_sequence === 'string' ? body.stop_sequence : null,
    usage: messagesUsageToIr(body.usage),
  };
}

/**
 * Builds the Messages answer a client receives; `model` is the public model name. A tool call the
 * token limit cut off is left out (`stop_reason` `max_tokens` says the answer was cut): `input` must
 * be an object, and any object made of the unfinished JSON would be one the model never wrote.
 */
export function messagesResponseFromIr(ir: IrResponse, model: string, usage: Usage): MessagesResponse {
  // A blank text beside a call ("\n\n" before it, as OpenAI-compatible models write) is left out: a
  // client sends the turn back, and Anthropic refuses a whitespace-only text block.
  const calls = ir.content.some((part) => part.type === 'tool_call');
  const answer = ir.content.flatMap((part): Array<MessagesTextBlock | MessagesToolUseBlock> => {
    if (part.type === 'text')
      return part.text === '' || (calls && part.text.trim() === '') ? [] : [{ type: 'text', text: part.text }];
    if (isCutOff(part, ir.stopReason)) return [];
    return [{ type: 'tool_use', id: toolUseId(part.id), name: part.name, input: parseToolArguments(part.arguments) }];
  });
  // Thinking leads the turn, as a Claude model's does.
  const thinking: MessagesThinkingBlock[] = ir.reasoning === undefined ? [] : [unsignedThinkingBlock(ir.reasoning)];
  const content = [...thinking, ...answer];
  return {
    id: messageId(ir.id),
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: stopReasonFromIr(
      refusedStop(
        ir.stopReason,
        ir.content.some((part) => part.type === 'text' && part.refusal === true),
      ),
    ),
    stop_sequence: ir.stopReason === 'stop_sequence' ? ir.stopSequence : null,
    usage: messagesUsageFromIr(usage),
  };
}

/** A `msg_` id derived from the upstream's. */
export function messageId(upstreamId: string): string {
  if (upstreamId.startsWith('msg_')) return upstreamId;
  return `msg_${upstreamId.replace(/^chatcmpl-/, '') || randomUUID().replaceAll('-', '')}`;
}
