import type {
  IrCacheControl,
  IrImagePart,
  IrMessage,
  IrPart,
  IrRequest,
  IrResponseFormat,
  IrTextPart,
  IrToolChoice,
} from '../ir.js';
import { assertNever } from '../../../../shared/assert-never.js';
import { isObject, parseToolArguments, TranslationError } from '../translation-error.js';
import { MESSAGES_PARAMS, refuseMisspeltParams } from '../misspelt-params.js';
import { refuseUnknownToolChoice } from '../unknown-tool-choice.js';
import { documentFromIr, documentToIr } from './document-block.js';
import { refuseServerState } from './server-state.js';
import { strictForChat } from './strict-tool.js';
import { imageSourceFromIr, imageToIr } from './image-block.js';
import { JSON_TOOL_NAME, jsonTool } from './json-mode.js';
import type { MessagesBody } from './messages-schema.js';
import { thinkingEffort } from './thinking-effort.js';
import { applyThinking } from './thinking-request.js';
import { anthropicToolId } from './tool-id.js';
import type { MessagesContentBlock, MessagesImageBlock, MessagesToolResultBlock } from './messages-wire.js';

/** Messages requests to and from the IR. */

type JsonObject = Record<string, unknown>;

/** Anthropic requires max_tokens; chat completions does not. LiteLLM uses the same default. */
export const DEFAULT_MAX_TOKENS = 4096;

/**
 * Maps a validated Messages request to the IR, for a provider that does not speak Messages.
 * `thinking` becomes a reasoning effort, which only reasoning models are sent (the other provider
 * returns no thinking blocks; the answer is still complete). Dropped on the way: `cache_control`
 * marks, `service_tier`, `context_management`, `fallbacks`, `metadata` other than `user_id`, and
 * `top_k` unless the provider accepts it. Refused: what only Anthropic can run (server tools, MCP
 * connectors, code-execution containers, documents by URL or file id, file images, server-held
 * threads and compaction: server-state.ts).
 */
export function messagesRequestToIr(body: MessagesBody): IrRequest {
  refuseMisspeltParams(body, MESSAGES_PARAMS, 'Messages');
  refuseServerState(body);
  for (const param of ['mcp_servers', 'container'] as const) {
    if (body[param] != null)
      throw new TranslationError(
        `${param}: only Anthropic models can run ${param === 'container' ? 'code-execution containers' : 'MCP connectors'}`,
      );
  }
  // A blank system prompt is no prompt to Anthropic; OpenAI-compatible servers would get an empty
  // system message, which some of them refuse.
  const system = (
    body.system === undefined ? [] : typeof body.system === 'string' ? [body.system] : body.system.map((b) => b.text)
  ).filter((text) => text.trim() !== '');
  const messages: IrMessage[] = body.messages.map((message, index) => ({
    role: message.role,
    content:
      typeof message.content === 'string'
        ? [{ type: 'text', text: message.content }]
        : blocksToIr(message.content, `messages[${index}].content`),
  }));
  const tools = body.tools?.map((tool, index) => {
    if (tool.type !== undefined && tool.type !== 'custom') {
      throw new TranslationError(`tools[${index}]: the server tool ${tool.type} is only available on Anthropic models`);
    }
    const parameters = tool.input_schema ?? { type: 'object', properties: {} };
    return { name: tool.name, description: tool.description, parameters, ...strictForChat(tool.strict, parameters) };
  });
  const choice = body.tool_choice;
  return {
    system,
    messages,
    tools,
    toolChoice: choice === undefined ? undefined : toolChoiceToIr(choice),
    parallelToolCalls:
      choice !== undefined && 'disable_parallel_tool_use' in choice && choice.disable_parallel_tool_use === true
        ? false
        : undefined,
    maxTokens: body.max_tokens,
    temperature: body.temperature,
    topP: body.top_p,
    topK: body.top_k,
    stop: body.stop_sequences,
    user: body.metadata?.user_id ?? undefined,
    responseFormat: outputFormatToIr(body),
    ...thinkingEffort(body.thinking),
    showsReasoning: isObject(body.thinking) && body.thinking.type !== 'disabled',
    stream: body.stream === true,
  };
}

/** Structured outputs: `output_config.format` (GA) or the beta's `output_format`, both `{type: 'json_schema', schema}`. */
function outputFormatToIr(body: MessagesBody): IrResponseFormat | undefined {
  const config = isObject(body.output_config) ? body.output_config : {};
  const [path, format] =
    config.format != null ? ['output_config.format', config.format] : ['output_format', body.output_format];
  if (format == null) return undefined;
  if (isObject(format) && format.type === 'json_schema' && isObject(format.schema))
    return { type: 'json', schema: format.schema };
  throw new TranslationError(`${path}: only {"type": "json_schema", "schema": {...}} can be translated for this model`);
}

function blocksToIr(blocks: readonly MessagesContentBlock[], path: string): IrPart[] {
  const parts: IrPart[] = [];
  blocks.forEach((block, index) => {
    switch (block.type) {
      case 'text':
        parts.push({ type: 'text', text: block.text as string });
        break;
      case 'image':
        parts.push(imageToIr((block as MessagesImageBlock).source, `${path}[${index}]`));
        break;
      case 'tool_use':
        parts.push({
          type: 'tool_call',
          id: block.id as string,
          name: block.name as string,
          arguments: JSON.stringify(block.input ?? {}),
        });
        break;
      case 'tool_result':
        parts.push(toolResultToIr(block as MessagesToolResultBlock, `${path}[${index}]`));
        break;
      case 'document':
        parts.push(...documentToIr(block, `${path}[${index}]`));
        break;
      case 'thinking':
      case 'redacted_thinking':
        // Reasoning traces belong to the model that wrote them; other providers cannot use them.
        break;
      default:
        throw unknownBlock(`${path}[${index}]`, block.type, BLOCK_TYPES);
    }
  });
  return parts;
}

/** Block types a provider other than Anthropic can be sent (thinking blocks are dropped). */
const BLOCK_TYPES = ['text', 'image', 'document', 'tool_use', 'tool_result', 'thinking', 'redacted_thinking'] as const;
/** Block types of a tool result's content that can be translated. */
const INNER_BLOCK_TYPES = ['text', 'image'] as const;

function unknownBlock(path: string, type: unknown, allowed: readonly string[]): TranslationError {
  const types = allowed.map((item) => `'${item}'`).join(', ');
  const got = String(type).slice(0, 40);
  return new TranslationError(
    `${path}.type must be one of ${types} for this model, got '${got}' (${got} blocks are only available on Anthropic models)`,
  );
}

function toolResultToIr(block: MessagesToolResultBlock, path: string): IrPart {
  const content: Array<IrTextPart | IrImagePart> = [];
  if (typeof block.content === 'string') content.push({ type: 'text', text: block.content });
  else {
    (block.content ?? []).forEach((inner, index) => {
      if (inner.type === 'text') content.push({ type: 'text', text: inner.text as string });
      else if (inner.type === 'image')
        content.push(imageToIr((inner as MessagesImageBlock).source, `${path}.content[${index}]`));
      else throw unknownBlock(`${path}.content[${index}]`, inner.type, INNER_BLOCK_TYPES);
    });
  }
  return { type: 'tool_result', toolCallId: block.tool_use_id, content, isError: block.is_error === true };
}

function toolChoiceToIr(choice: NonNullable<MessagesBody['tool_choice']>): IrToolChoice {
  switch (choice.type) {
    case 'auto':
      return { type: 'auto' };
    case 'any':
      return { type: 'required' };
    case 'none':
      return { type: 'none' };
    case 'tool':
      return { type: 'tool', name: choice.name };
    default:
      return assertNever(choice, 'tool_choice');
  }
}

/**
 * Stop sequences for Anthropic, which refuses the whole request over one that is only whitespace
 * (OpenAI takes `"\n"`): those are left out and the others kept, as LiteLLM does. The model then
 * does not stop early there, which costs tokens, never the answer.
 */
function stopSequences(stop: readonly string[]): string[] {
  return stop.filter((sequence) => sequence.trim() !== '');
}

/** The system texts as Messages text blocks, with their cache breakpoints; blank ones left out. */
function systemFromIr(ir: IrRequest): Array<{ type: 'text'; text: string; cache_control?: JsonObject }> {
  return ir.system.flatMap((text, index) =>
    text.trim() === '' ? [] : [{ type: 'text' as const, text, ...cacheControlFromIr(ir.systemCacheControl?.[index]) }],
  );
}

/** A breakpoint as Messages' `cache_control` field, to spread into a block or a tool (nothing without one). */
function cacheControlFromIr(mark: IrCacheControl | undefined): { cache_control?: JsonObject } {
  return mark === undefined ? {} : { cache_control: { ...mark } };
}

/** Builds a Messages request from the IR, for the Anthropic API. */
export function messagesRequestFromIr(ir: IrRequest, model: string): JsonObject {
  const messages = messagesFromIr(ir.messages);
  // Anthropic refuses `messages: []`: the client's 400 here, rather than its refusal as an upstream 502.
  if (messages.length === 0)
    throw new TranslationError(
      'messages: no user or assistant turn has content to send (empty or whitespace-only text is left out), and Anthropic models need at least one',
    );
  const body: JsonObject = { model, max_tokens: ir.maxTokens ?? DEFAULT_MAX_TOKENS, messages };
  const system = systemFromIr(ir);
  if (system.length === 1 && system[0].cache_control === undefined) body.system = system[0].text;
  else if (system.length > 0) body.system = system;
  // Kept as asked (0..2); the Anthropic provider clamps it to Anthropic's 0..1 on every path.
  if (ir.temperature !== undefined) body.temperature = ir.temperature;
  // Claude models since Opus 4.1 refuse temperature and top_p together ("use only one"), which
  // OpenAI clients often send; temperature, the setting every model has, is the one kept.
  if (ir.topP !== undefined && ir.temperature === undefined) body.top_p = ir.topP;
  if (ir.topK !== undefined) body.top_k = ir.topK;
  const stop = stopSequences(ir.stop ?? []);
  if (stop.length > 0) body.stop_sequences = stop;
  if (ir.user !== undefined) body.metadata = { user_id: ir.user };
  refuseUnknownToolChoice(ir);
  const { tools, choice } = toolsFromIr(ir, body.messages as JsonObject[]);
  if (tools.length > 0) {
    body.tools = tools;
    if (choice !== undefined) body.tool_choice = choice;
  }
  applyThinking(body, ir);
  if (ir.stream) body.stream = true;
  return body;
}

/**
 * Anthropic rejects tool_use and tool_result blocks in a request without tools, which a chat
 * history can hold (the client stopped offering tools). LiteLLM adds this placeholder; the
 * gateway also sends `tool_choice: none`, so the model cannot call it.
 */
const PLACEHOLDER_TOOL = {
  name: 'dummy_tool',
  description: 'This is a dummy tool call',
  input_schema: { type: 'object', properties: {} },
} as const;

/**
 * The tools and tool_choice of a translated request. A JSON answer adds the answer tool (see
 * json-mode.ts) and makes the model use a tool: that one when the client offered none (or forbade
 * them), any of them when it offered its own, so an agent's tool calls still come through and
 * the answer tool is how the model answers; a client forcing one of its tools keeps that.
 */
function toolsFromIr(
  ir: IrRequest,
  messages: readonly JsonObject[],
): { tools: JsonObject[]; choice: JsonObject | undefined } {
  const tools: JsonObject[] = (ir.tools ?? []).map((tool) => ({
    name: tool.name,
    ...(tool.description === undefined ? {} : { description: tool.description }),
    input_schema: objectSchema(tool.parameters),
    ...cacheControlFromIr(tool.cacheControl),
  }));
  const choice = toolChoiceFromIr(ir.toolChoice, ir.parallelToolCalls);
  if (ir.responseFormat !== undefined) {
    const own = tools.length > 0 && ir.toolChoice?.type !== 'none';
    tools.push(jsonTool(ir.responseFormat));
    if (!own) return { tools, choice: { type: 'tool', name: JSON_TOOL_NAME, disable_parallel_tool_use: true } };
    return { tools, choice: ir.toolChoice?.type === 'tool' ? choice : { ...choice, type: 'any' } };
  }
  if (tools.length === 0 && messages.some(hasToolBlocks))
    return { tools: [{ ...PLACEHOLDER_TOOL }], choice: { type: 'none' } };
  return { tools, choice };
}

/**
 * A function's parameters as Anthropic's `input_schema`, which must say `type: object`: OpenAI takes
 * `{}` for a function without arguments, or properties without a type, and means that object.
 */
function objectSchema(parameters: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  return parameters.type === undefined ? { type: 'object', ...parameters } : parameters;
}

function hasToolBlocks(message: JsonObject): boolean {
  return (
    Array.isArray(message.content) &&
    message.content.some((block: JsonObject) => block.type === 'tool_use' || block.type === 'tool_result')
  );
}

function toolChoiceFromIr(choice: IrToolChoice | undefined, parallel: boolean | undefined): JsonObject | undefined {
  const serial = parallel === false ? { disable_parallel_tool_use: true } : {};
  if (choice === undefined) return parallel === false ? { type: 'auto', ...serial } : undefined;
  switch (choice.type) {
    case 'auto':
      return { type: 'auto', ...serial };
    case 'required':
      return { type: 'any', ...serial };
    case 'none':
      return { type: 'none' };
    case 'tool':
      return { type: 'tool', name: choice.name, ...serial };
    default:
      return assertNever(choice, 'tool choice');
  }
}

/**
 * IR turns as Messages turns: consecutive turns of one role merge (chat sends each tool result as
 * its own message), tool results lead their user turn, and empty or whitespace-only text blocks, which
 * Anthropic rejects, are dropped.
 */
function messagesFromIr(messages: readonly IrMessage[]): JsonObject[] {
  const out: Array<{ role: IrMessage['role']; content: JsonObject[] }> = [];
  for (const message of messages) {
    // Signed thinking leads its turn, as the model wrote it (Anthropic checks it against the calls after it).
    const thinking = (message.thinking ?? []).map((block) => ({ ...block }));
    const blocks = [...thinking, ...message.content.flatMap(blockFromIr)];
    if (blocks.length === 0) continue;
    const last = out.at(-1);
    if (last && last.role === message.role) last.content.push(...blocks);
    else out.push({ role: message.role, content: blocks });
  }
  return out.map(({ role, content }) => {
    const ordered =
      role === 'user' ? [...content.filter(isToolResult), ...content.filter((block) => !isToolResult(block))] : content;
    const only = ordered.length === 1 ? ordered[0] : undefined;
    // A text with a cache breakpoint stays a block: a plain string has nowhere to carry it.
    return { role, content: only?.type === 'text' && only.cache_control === undefined ? only.text : ordered };
  });
}

function isToolResult(block: JsonObject): boolean {
  return block.type === 'tool_result';
}

function blockFromIr(part: IrPart): JsonObject[] {
  return blocksOfPart(part).map((block) => ({ ...block, ...cacheControlFromIr(part.cacheControl) }));
}

function blocksOfPart(part: IrPart): JsonObject[] {
  switch (part.type) {
    case 'text':
      return part.text.trim() === '' ? [] : [{ type: 'text', text: part.text }];
    case 'image':
      return [{ type: 'image', source: imageSourceFromIr(part) }];
    case 'file':
      return [documentFromIr(part)];
    case 'tool_call':
      return [
        { type: 'tool_use', id: anthropicToolId(part.id), name: part.name, input: parseToolArguments(part.arguments) },
      ];
    case 'tool_result': {
      const content = part.content.flatMap(blockFromIr);
      const block: JsonObject = {
        type: 'tool_result',
        tool_use_id: anthropicToolId(part.toolCallId),
        content:
          content.length === 1 && content[0].type === 'text' && content[0].cache_control === undefined
            ? content[0].text
            : content,
      };
      if (part.isError) block.is_error = true;
      return [block];
    }
    default:
      return assertNever(part, 'IR part');
  }
}
