import { randomUUID } from 'node:crypto';
import type { IrResponse, IrSignedThinking, IrStopReason, Usage } from '../ir.js';
import type { ResponsesBody } from './responses-schema.js';
import { isCutOff } from '../cut-tool-calls.js';
import { cacheWrites } from '../chat/chat-response-ir.js';
import { answerCarriesThinking, carriedThinking } from './carried-thinking.js';

/** Responses answers built from the IR (a Responses request served by a chat provider). */

/** What every Response object of one request shares. */
export interface ResponseEnvelope {
  /** `resp_...` */
  readonly id: string;
  /** The public model name. */
  readonly model: string;
  /** Unix seconds. */
  readonly createdAt: number;
  /** The request, whose settings a Response echoes. */
  readonly request: ResponsesBody;
}

/** A fresh envelope for a request. */
export function responseEnvelope(request: ResponsesBody, model: string): ResponseEnvelope {
  return { id: responseId(), model, createdAt: Math.floor(Date.now() / 1000), request };
}

/** A new Response id of the gateway's own. */
export function responseId(): string {
  return `resp_${randomUUID().replaceAll('-', '')}`;
}

/** A new output item id with OpenAI's prefixes (`msg_`, `fc_`, `rs_`). */
export function itemId(prefix: 'msg' | 'fc' | 'rs'): string {
  return `${prefix}_${randomUUID().replaceAll('-', '')}`;
}

/** A content part of an answer's message: its text, or the model's refusal. */
export type ResponseMessagePart =
  { type: 'output_text'; text: string; annotations: []; logprobs: [] } | { type: 'refusal'; refusal: string };

/** An output item of a Response. */
export type ResponseOutputItem =
  | {
      type: 'message';
      id: string;
      status: ItemStatus;
      role: 'assistant';
      content: ResponseMessagePart[];
    }
  | {
      type: 'function_call';
      id: string;
      call_id: string;
      name: string;
      arguments: string;
      status: ItemStatus;
    }
  | ReasoningItem;

/**
 * The model's reasoning, as OpenAI's reasoning models give it: an item before the message, its text
 * a `summary_text` part, the part clients show (OpenAI's own summaries are what a Responses client
 * reads of a model's reasoning). `output_text` stays the answer alone: the SDKs make it of messages.
 */
export interface ReasoningItem {
  type: 'reasoning';
  id: string;
  summary: Array<{ type: 'summary_text'; text: string }>;
  status: ItemStatus;
  /** A Claude model's signed thinking, for the client to send back (carried-thinking.ts). */
  encrypted_content?: string;
}

/** A reasoning item holding `text`. */
export function reasoningItem(text: string, status: ItemStatus): ReasoningItem {
  return { type: 'reasoning', id: itemId('rs'), summary: [{ type: 'summary_text', text }], status };
}

/**
 * The answer's reasoning items with the model's signed thinking carried in the last one (a new one,
 * with no summary, when the thinking was all redacted), when the request takes it back that way.
 */
export function withCarriedThinking(
  output: ResponseOutputItem[],
  blocks: readonly IrSignedThinking[] | undefined,
  request: ResponsesBody,
): void {
  if (blocks === undefined || blocks.length === 0 || !answerCarriesThinking(request)) return;
  let item = output.findLast((candidate): candidate is ReasoningItem => candidate.type === 'reasoning');
  if (item === undefined) {
    item = { type: 'reasoning', id: itemId('rs'), summary: [], status: 'completed' };
    output.unshift(item);
  }
  item.encrypted_content = carriedThinking(blocks);
}

/** An output item's status: `incomplete` for the one the token limit cut off, as OpenAI marks it. */
export type ItemStatus = 'in_progress' | 'completed' | 'incomplete';

/** The status of an answer's last output item once the answer stopped for `stop`. */
export function lastItemStatus(item: ResponseOutputItem, stop: IrStopReason | undefined): ItemStatus {
  if (item.type === 'function_call') return isCutOff(item, stop) ? 'incomplete' : 'completed';
  return stop === 'length' ? 'incomplete' : 'completed';
}

/** Response usage from complete counts. */
export function responsesUsage(usage: Usage): object {
  return {
    input_tokens: usage.promptTokens,
    input_tokens_details: { cached_tokens: usage.cachedPromptTokens ?? 0 },
    output_tokens: usage.completionTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
    total_tokens: usage.promptTokens + usage.completionTokens,
    ...cacheWrites(usage),
  };
}

/** The Response object: `status` and `usage` follow the answer; settings echo the request. */
export function responseObject(
  envelope: ResponseEnvelope,
  output: ResponseOutputItem[],
  stop: IrStopReason | undefined,
  usage: Usage | undefined,
): Record<string, unknown> {
  const request = envelope.request;
  const incomplete = stop === 'length' ? 'max_output_tokens' : stop === 'content_filter' ? 'content_filter' : undefined;
  const status = stop === undefined ? 'in_progress' : incomplete ? 'incomplete' : 'completed';
  return {
    id: envelope.id,
    object: 'response',
    created_at: envelope.createdAt,
    // OpenAI sets it on completed Responses only.
    ...(status === 'completed' ? { completed_at: Math.floor(Date.now() / 1000) } : {}),
    status,
    error: null,
    incomplete_details: incomplete ? { reason: incomplete } : null,
    instructions: request.instructions ?? null,
    max_output_tokens: request.max_output_tokens ?? null,
    model: envelope.model,
    output,
    parallel_tool_calls: request.parallel_tool_calls ?? true,
    previous_response_id: request.previous_response_id ?? null,
    reasoning: reasoningSettings(request.reasoning),
    store: request.store ?? false,
    temperature: request.temperature ?? 1,
    text: textSettings(request.text),
    tool_choice: request.tool_choice ?? 'auto',
    tools: (request.tools ?? []).map(echoedTool),
    top_p: request.top_p ?? 1,
    truncation: request.truncation ?? 'disabled',
    usage: usage ? responsesUsage(usage) : null,
    user: request.user ?? null,
    metadata: request.metadata ?? {},
  };
}

/**
 * The request's `reasoning` as OpenAI echoes it, `effort` and `summary` (null where not given); echoed,
 * not applied (only `effort` reaches an OpenAI reasoning model over chat completions).
 */
function reasoningSettings(reasoning: unknown): { effort: string | null; summary: string | null } {
  const given = reasoning !== null && typeof reasoning === 'object' ? (reasoning as Record<string, unknown>) : {};
  const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
  return { effort: text(given.effort), summary: text(given.summary ?? given.generate_summary) };
}

/**
 * A request's tool as OpenAI echoes it: a function tool with its `parameters` and `strict` always there
 * (the SDK declares both). Without `strict` sent, none reached the upstream, so what was enforced is `false`.
 */
function echoedTool(tool: NonNullable<ResponsesBody['tools']>[number]): Record<string, unknown> {
  if (tool.type !== 'function') return tool;
  return { ...tool, parameters: tool.parameters ?? null, strict: tool.strict === true };
}

/** The request's `text` settings as OpenAI echoes them: its `format` (plain text unless asked otherwise) and the rest. */
function textSettings(text: unknown): Record<string, unknown> {
  const given = text !== null && typeof text === 'object' ? (text as Record<string, unknown>) : {};
  return { ...given, format: given.format ?? { type: 'text' } };
}

/** Builds the Response a client receives for a complete IR answer. */
export function responsesResponseFromIr(
  ir: IrResponse,
  envelope: ResponseEnvelope,
  usage: Usage,
): Record<string, unknown> {
  // Reasoning leads, as OpenAI's reasoning models answer; the message and calls follow it.
  const output: ResponseOutputItem[] = ir.reasoning === undefined ? [] : [reasoningItem(ir.reasoning, 'completed')];
  withCarriedThinking(output, ir.thinkingBlocks, envelope.request);
  const textOf = (refusal: boolean): string =>
    ir.content.map((part) => (part.type === 'text' && (part.refusal === true) === refusal ? part.text : '')).join('');
  const [text, refusal] = [textOf(false), textOf(true)];
  const calls = ir.content.filter((part) => part.type === 'tool_call');
  const content: ResponseMessagePart[] = [];
  if (text !== '') content.push({ type: 'output_text', text, annotations: [], logprobs: [] });
  // As OpenAI answers a refusal: a part of its own, which the SDK's parse() does not read as JSON.
  if (refusal !== '') content.push({ type: 'refusal', refusal });
  if (content.length > 0)
    output.push({ type: 'message', id: itemId('msg'), status: 'completed', role: 'assistant', content });
  for (const part of ir.content) {
    if (part.type === 'tool_call')
      output.push({
        type: 'function_call',
        id: itemId('fc'),
        call_id: part.id,
        name: part.name,
        arguments: part.arguments,
        status: isCutOff(part, ir.stopReason) ? 'incomplete' : 'completed',
      });
  }
  // The message comes before the calls: the limit cut it only when no call followed.
  const message = output.find((item) => item.type === 'message');
  if (message?.type === 'message' && calls.length === 0) message.status = lastItemStatus(message, ir.stopReason);
  return responseObject(envelope, output, ir.stopReason, usage);
}
