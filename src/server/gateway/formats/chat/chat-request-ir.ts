import { fileDataUrl, fileFromDataUrl, fileName } from '../file-part.js';
import type {
  IrFilePart,
  IrImagePart,
  IrImageSource,
  IrMessage,
  IrPart,
  IrRequest,
  IrTextPart,
  IrTool,
  IrToolChoice,
  IrToolResultPart,
  IrCacheControl,
} from '../ir.js';
import { assertNever } from '../../../../shared/assert-never.js';
import { parseDataUrl, TranslationError } from '../translation-error.js';
import { refuseUnknownToolChoice } from '../unknown-tool-choice.js';
import { CHAT_PARAMS, refuseMisspeltParams } from '../misspelt-params.js';
import {
  joinedCacheControl,
  ownCacheControl,
  withCacheControl,
  withMessageCacheControl,
} from './chat-cache-control.js';
import { chatResponseFormatFromIr, chatResponseFormatToIr, refuseUntranslatableChatParams } from './chat-params.js';
import type { ChatBody, ChatMessage } from './chat-schema.js';
import { chatThinkingBlocksToIr, chatThinkingToIr } from './chat-thinking.js';
import { chatUser } from './chat-user.js';
import { chatToolNames } from './tool-names.js';

/** Chat completions requests to and from the IR. */

type JsonObject = Record<string, unknown>;

/**
 * Maps a validated chat completions request to the IR, for a provider that does not speak chat
 * completions. Throws a TranslationError for what such a provider cannot do (see chat-params.ts).
 */
export function chatRequestToIr(body: ChatBody): IrRequest {
  refuseMisspeltParams(body, CHAT_PARAMS, 'Chat Completions');
  refuseUntranslatableChatParams(body);
  const system: string[] = [];
  const systemCacheControl: Array<IrCacheControl | undefined> = [];
  const messages: IrMessage[] = [];
  body.messages.forEach((message, index) => {
    switch (message.role) {
      case 'system':
      case 'developer':
        system.push(textOf(message.content));
        systemCacheControl.push(joinedCacheControl(message, message.content));
        return;
      case 'user':
        messages.push({ role: 'user', content: withMessageCacheControl(userParts(message.content, index), message) });
        return;
      case 'assistant':
        messages.push({
          role: 'assistant',
          content: withMessageCacheControl(assistantParts(message, index), message),
          ...chatThinkingBlocksToIr(message, `messages[${index}].thinking_blocks`),
        });
        return;
      case 'tool': {
        const result: IrToolResultPart = {
          type: 'tool_result',
          toolCallId: message.tool_call_id,
          content: [{ type: 'text', text: textOf(message.content) }],
          isError: false,
        };
        messages.push({
          role: 'user',
          content: [withCacheControl(result, joinedCacheControl(message, message.content))],
        });
        return;
      }
      case 'function':
        throw TranslationError.at(
          `messages[${index}]`,
          'function messages (legacy function calling) are not translated for this model; send tool messages',
        );
      default:
        return assertNever(message, 'chat message role');
    }
  });
  const maxTokens = body.max_completion_tokens ?? body.max_tokens ?? undefined;
  return {
    system,
    ...(systemCacheControl.some((mark) => mark !== undefined) ? { systemCacheControl } : {}),
    messages,
    tools: body.tools?.map((tool, index): IrTool => {
      if (tool.type === 'custom')
        throw TranslationError.at(
          `tools[${index}]`,
          'custom tools (free-form input) are not translated for this model; send function tools',
        );
      // LiteLLM's two places for a tool's breakpoint; the one beside `function` wins.
      const mark = ownCacheControl(tool) ?? ownCacheControl(tool.function);
      return {
        name: tool.function.name,
        description: tool.function.description,
        parameters: tool.function.parameters ?? { type: 'object', properties: {} },
        ...(mark === undefined ? {} : { cacheControl: mark }),
      };
    }),
    toolChoice: toolChoiceToIr(body.tool_choice ?? undefined),
    parallelToolCalls: body.parallel_tool_calls ?? undefined,
    maxTokens,
    temperature: body.temperature ?? undefined,
    topP: body.top_p ?? undefined,
    // -1 and 0 turn top_k off on the servers that take them (vLLM, llama.cpp): then none is sent.
    topK: body.top_k != null && body.top_k > 0 ? body.top_k : undefined,
    stop: body.stop == null ? undefined : typeof body.stop === 'string' ? [body.stop] : body.stop,
    user: body.user ?? undefined,
    responseFormat: chatResponseFormatToIr(body.response_format),
    ...chatThinkingToIr(body),
    stream: body.stream === true,
  };
}

function textOf(content: string | ReadonlyArray<{ text: string }>): string {
  return typeof content === 'string' ? content : content.map((part) => part.text).join('\n');
}

function userParts(content: Extract<ChatMessage, { role: 'user' }>['content'], messageIndex: number): IrPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map((part, partIndex): IrPart => {
    const mark = ownCacheControl(part);
    switch (part.type) {
      case 'text':
        return withCacheControl({ type: 'text', text: part.text }, mark);
      case 'image_url':
        return withCacheControl(
          imageFromUrl(
            part.image_url.url,
            part.image_url.detail,
            `messages[${messageIndex}].content[${partIndex}].image_url.url`,
          ),
          mark,
        );
      case 'file':
        return withCacheControl(
          fileFromChatPart(part.file, `messages[${messageIndex}].content[${partIndex}].file`),
          mark,
        );
      case 'input_audio':
        throw TranslationError.at(
          `messages[${messageIndex}].content[${partIndex}]`,
          `${part.type} parts are not supported by this model`,
        );
      default:
        return assertNever(part, 'chat content part');
    }
  });
}

/**
 * A `file` part's inline data. A `file_id` names a file uploaded to OpenAI, which no other provider
 * can read: refused naming it, with what to send instead.
 */
function fileFromChatPart(file: Record<string, unknown>, path: string): IrFilePart {
  if (file.file_data == null && file.file_id != null)
    throw TranslationError.at(
      `${path}.file_id`,
      'a file uploaded to OpenAI cannot be sent to this model; send its contents as file_data (a base64 data: URL)',
    );
  return fileFromDataUrl(file.file_data, file.filename, `${path}.file_data`);
}

/**
 * An image part from an OpenAI `image_url` (a base64 data URL or a web URL) and its `detail`. Any
 * other address (a data URL of text such as `data:image/svg+xml;utf8,...`, `file:`) is refused naming
 * `path`: no provider takes it, and its refusal would come back as an upstream failure.
 */
export function imageFromUrl(url: string, detail: IrImagePart['detail'] | undefined, path: string): IrImagePart {
  const inline = parseDataUrl(url);
  if (!inline && !/^https?:\/\//i.test(url))
    throw TranslationError.at(
      path,
      /^data:/i.test(url)
        ? 'a data: URL must be base64 (data:<media type>;base64,<data>) for this model'
        : 'must be an http(s) URL or a base64 data: URL',
    );
  const source: IrImageSource = inline
    ? { kind: 'base64', mediaType: inline.mediaType, data: inline.data }
    : { kind: 'url', url };
  return { type: 'image', source, ...(detail === undefined ? {} : { detail }), field: path };
}

function assistantParts(message: Extract<ChatMessage, { role: 'assistant' }>, messageIndex: number): IrPart[] {
  const parts: IrPart[] = [];
  const content = message.content;
  if (typeof content === 'string') {
    if (content !== '') parts.push({ type: 'text', text: content });
  } else if (content) {
    for (const part of content) {
      const text = part.type === 'text' ? part.text : part.refusal;
      if (text !== '') parts.push(withCacheControl({ type: 'text', text }, ownCacheControl(part)));
    }
  }
  // A refusal as OpenAI answers it, sent back with the history: the model's own words of that turn.
  if (parts.length === 0 && typeof message.refusal === 'string' && message.refusal !== '')
    parts.push({ type: 'text', text: message.refusal });
  (message.tool_calls ?? []).forEach((call, index) => {
    if (call.type === 'custom')
      throw TranslationError.at(
        `messages[${messageIndex}].tool_calls[${index}]`,
        'custom tool calls are not translated for this model; send function tool calls',
      );
    parts.push({ type: 'tool_call', id: call.id, name: call.function.name, arguments: call.function.arguments });
  });
  return parts;
}

function toolChoiceToIr(choice: ChatBody['tool_choice'] | undefined): IrToolChoice | undefined {
  if (choice === undefined || choice === null) return undefined;
  if (typeof choice === 'string') {
    switch (choice) {
      case 'auto':
        return { type: 'auto' };
      case 'none':
        return { type: 'none' };
      case 'required':
        return { type: 'required' };
      default:
        return assertNever(choice, 'tool_choice');
    }
  }
  switch (choice.type) {
    case 'function':
      return { type: 'tool', name: choice.function.name };
    case 'custom':
      throw TranslationError.at('tool_choice', 'custom tools are not translated for this model; send function tools');
    case 'allowed_tools':
      throw TranslationError.at(
        'tool_choice',
        'allowed_tools is not translated for this model; send only the allowed tools in tools, with tool_choice auto or required',
      );
    default:
      return assertNever(choice, 'tool_choice');
  }
}

/**
 * Builds a chat completions request from the IR, for an OpenAI-compatible upstream. System texts due
 * at one place go as one message, blank line between: many local chat templates (llama.cpp's, vLLM's
 * Mistral ones) take a single system message, at the start.
 */
export function chatRequestFromIr(ir: IrRequest, model: string): JsonObject {
  const messages: JsonObject[] = [];
  const toolName = chatToolNames(ir)?.sent ?? ((name: string) => name);
  let nextSystem = 0;
  const systemUpTo = (position: number): void => {
    const due: string[] = [];
    for (; nextSystem < ir.system.length && (ir.systemAt?.[nextSystem] ?? 0) <= position; nextSystem += 1)
      due.push(ir.system[nextSystem]);
    if (due.length > 0) messages.push({ role: 'system', content: due.join('\n\n') });
  };
  ir.messages.forEach((message, index) => {
    if (message.role === 'assistant') {
      systemUpTo(index);
      messages.push(assistantMessage(message.content, toolName));
      return;
    }
    // Tool messages must directly follow the assistant's calls: a system message due before them
    // goes after them instead, the nearest place chat completions takes it.
    const turn = userMessages(message.content);
    const results = index > 0 ? turn.filter((chat) => chat.role === 'tool') : [];
    messages.push(...results);
    systemUpTo(index);
    messages.push(...turn.slice(results.length));
  });
  systemUpTo(Infinity);
  const body: JsonObject = { model, messages };
  if (ir.maxTokens !== undefined) body.max_tokens = ir.maxTokens;
  if (ir.temperature !== undefined) body.temperature = ir.temperature;
  if (ir.topP !== undefined) body.top_p = ir.topP;
  // top_k is no chat completions field (OpenAI rejects it); providers that take it add it themselves.
  if (ir.stop !== undefined && ir.stop.length > 0) body.stop = [...ir.stop];
  if (ir.user !== undefined) body.user = chatUser(ir.user);
  if (ir.tools !== undefined && ir.tools.length > 0) {
    body.tools = ir.tools.map((tool) => ({
      type: 'function',
      function: {
        name: toolName(tool.name),
        ...(tool.description === undefined ? {} : { description: tool.description }),
        parameters: tool.parameters,
        ...(tool.strict === undefined ? {} : { strict: tool.strict }),
      },
    }));
    if (ir.parallelToolCalls !== undefined) body.parallel_tool_calls = ir.parallelToolCalls;
  }
  refuseUnknownToolChoice(ir);
  // Chat completions refuses a tool_choice without tools; none and auto mean nothing then.
  if (ir.toolChoice !== undefined && body.tools !== undefined)
    body.tool_choice = toolChoiceFromIr(ir.toolChoice, toolName);
  if (ir.responseFormat !== undefined) body.response_format = chatResponseFormatFromIr(ir.responseFormat);
  if (ir.stream) {
    body.stream = true;
    // Usage arrives only when asked for; accounting needs it.
    body.stream_options = { include_usage: true };
  }
  return body;
}

function assistantMessage(parts: readonly IrPart[], toolName: (name: string) => string): JsonObject {
  const text = parts
    .filter((part): part is IrTextPart => part.type === 'text')
    .map((part) => part.text)
    .join('');
  const calls = parts.flatMap((part) =>
    part.type === 'tool_call'
      ? [{ id: part.id, type: 'function', function: { name: toolName(part.name), arguments: part.arguments } }]
      : [],
  );
  const message: JsonObject = { role: 'assistant', content: text === '' && calls.length > 0 ? null : text };
  if (calls.length > 0) message.tool_calls = calls;
  return message;
}

/** Tool results become `tool` messages, which must directly follow the assistant's tool calls. */
function userMessages(parts: readonly IrPart[]): JsonObject[] {
  const out: JsonObject[] = [];
  const rest: Array<IrTextPart | IrImagePart | IrFilePart> = [];
  for (const part of parts) {
    switch (part.type) {
      case 'tool_result': {
        const text = part.content
          .filter((inner): inner is IrTextPart => inner.type === 'text')
          .map((inner) => inner.text)
          .join('\n');
        out.push({ role: 'tool', tool_call_id: part.toolCallId, content: toolResultText(text, part.isError) });
        // Tool messages carry text only: images a tool returned go to the user turn that follows.
        for (const inner of part.content) if (inner.type === 'image') rest.push(inner);
        break;
      }
      case 'text':
      case 'image':
      case 'file':
        rest.push(part);
        break;
      case 'tool_call':
        break;
      default:
        assertNever(part, 'IR part');
    }
  }
  if (rest.length === 0) return out;
  if (rest.every((part) => part.type === 'text')) {
    out.push({ role: 'user', content: rest.map((part) => (part as IrTextPart).text).join('\n') });
  } else {
    out.push({ role: 'user', content: rest.map(userPartFromIr) });
  }
  return out;
}

/**
 * A `tool` message has no error flag, so a failed call's result says so in its text, the way agent
 * SDKs and MCP clients write tool errors: without it the model would take the error text for output.
 */
function toolResultText(text: string, isError: boolean): string {
  if (!isError) return text;
  return text === '' ? 'Error' : `Error: ${text}`;
}

function userPartFromIr(part: IrTextPart | IrImagePart | IrFilePart): JsonObject {
  if (part.type === 'text') return { type: 'text', text: part.text };
  if (part.type === 'file') return { type: 'file', file: { filename: fileName(part), file_data: fileDataUrl(part) } };
  const url =
    part.source.kind === 'base64' ? `data:${part.source.mediaType};base64,${part.source.data}` : part.source.url;
  return { type: 'image_url', image_url: part.detail === undefined ? { url } : { url, detail: part.detail } };
}

function toolChoiceFromIr(choice: IrToolChoice, toolName: (name: string) => string): unknown {
  switch (choice.type) {
    case 'auto':
    case 'none':
    case 'required':
      return choice.type;
    case 'tool':
      return { type: 'function', function: { name: toolName(choice.name) } };
    default:
      return assertNever(choice, 'tool choice');
  }
}
