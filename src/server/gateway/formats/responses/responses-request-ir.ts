import { chatResponseFormatToIr, jsonSchemaFormatToIr } from '../chat/chat-params.js';
import { imageFromUrl } from '../chat/chat-request-ir.js';
import { fileFromDataUrl } from '../file-part.js';
import type {
  IrFilePart,
  IrSignedThinking,
  IrImagePart,
  IrMessage,
  IrPart,
  IrRequest,
  IrResponseFormat,
  IrTextPart,
  IrToolChoice,
} from '../ir.js';
import { isObject, TranslationError } from '../translation-error.js';
import { refuseUntranslatableResponsesParams } from './responses-params.js';
import { inputItemPath, withSentParam } from './replayed-input.js';
import { thinkingCarriedBy } from './carried-thinking.js';
import type { ResponsesBody, ResponsesContentPart, ResponsesInputItem } from './responses-schema.js';

/**
 * Responses requests to the IR, so a provider without a Responses API serves them over chat
 * completions (or Messages). Function calls and their outputs become tool calls and tool results;
 * an assistant's message and its calls form one turn, as do consecutive function outputs, and each
 * user message is a turn of its own.
 */
export function responsesRequestToIr(body: ResponsesBody): IrRequest {
  try {
    return requestToIr(body);
  } catch (error) {
    throw withSentParam(error);
  }
}

function requestToIr(body: ResponsesBody): IrRequest {
  refuseUntranslatableResponsesParams(body);
  const system = body.instructions ? [body.instructions] : [];
  const systemAt = system.map(() => 0);
  const messages: IrMessage[] = [];
  // A system message between two messages of one role keeps them apart, so it can stay between them;
  // but nothing comes between an assistant's function calls and their outputs, which chat
  // completions needs right after the assistant message that made the calls: it follows them.
  // A user message is a turn of its own (a Codex-style input sends its context, then the prompt):
  // chat completions takes consecutive user turns, and Messages, which needs alternation, joins them.
  let apart = false;
  // Signed thinking a reasoning item carried back (carried-thinking.ts), for the assistant turn it led.
  let thinking: IrSignedThinking[] = [];
  const push = (role: IrMessage['role'], parts: IrPart[], message = false): void => {
    const last = messages.at(-1);
    const calls = last?.content.some((part) => part.type === 'tool_call') === true;
    const ownTurn = message && (role === 'user' || (apart && !calls));
    const led = role === 'assistant' && thinking.length > 0 ? thinking : undefined;
    if (last && last.role === role && !ownTurn) {
      const joined = [...(last.thinking ?? []), ...(led ?? [])];
      messages[messages.length - 1] = {
        role,
        content: [...last.content, ...parts],
        ...(joined.length > 0 ? { thinking: joined } : {}),
      };
    } else messages.push({ role, content: parts, ...(led ? { thinking: led } : {}) });
    // Thinking leads the assistant turn right after it; a user turn between them ends it unused.
    if (led !== undefined || role === 'user') thinking = [];
    apart = false;
  };
  const items: ResponsesInputItem[] =
    typeof body.input === 'string' ? [{ type: 'message', role: 'user', content: body.input }] : body.input;
  // Outputs must answer a call sent before them (or in the response `previous_response_id` names, whose
  // items lead `input` by now), and every call needs its output: OpenAI refuses either with a 400,
  // where translated it reached the provider, which refuses it too, and the client got a 502.
  const calls = new Map<string, { readonly path: string; answered: boolean }>();
  items.forEach((item, index) => {
    const path = inputItemPath(body, index);
    const type = item.type ?? 'message';
    if (type === 'message') {
      const message = item as Extract<ResponsesInputItem, { role: string }>;
      const parts = contentToIr(message.content, `${path}.content`);
      if (message.role === 'system' || message.role === 'developer') {
        system.push(parts.map((part) => (part.type === 'text' ? part.text : '')).join('\n'));
        systemAt.push(messages.length);
        apart = true;
      } else push(message.role, parts, true);
    } else if (type === 'function_call') {
      const call = item as Extract<ResponsesInputItem, { type: 'function_call' }>;
      calls.set(call.call_id, { path, answered: false });
      push('assistant', [{ type: 'tool_call', id: call.call_id, name: call.name, arguments: call.arguments }]);
    } else if (type === 'function_call_output') {
      const output = item as Extract<ResponsesInputItem, { type: 'function_call_output' }>;
      const answered = calls.get(output.call_id);
      if (answered === undefined)
        throw TranslationError.at(
          `${path}.call_id`,
          `no function call with call_id ${JSON.stringify(output.call_id)} comes before this output; send the function_call item with it, or previous_response_id naming the response that made the call`,
        );
      answered.answered = true;
      const content =
        typeof output.output === 'string'
          ? [{ type: 'text' as const, text: output.output }]
          : contentToIr(output.output, `${path}.output`);
      const file = content.findIndex((part) => part.type === 'file');
      if (file >= 0)
        throw TranslationError.at(
          `${path}.output[${file}]`,
          `a file in a function's output is not translated for this model; send it in a user message`,
        );
      push('user', [
        {
          type: 'tool_result',
          toolCallId: output.call_id,
          content: content.filter((part) => part.type === 'text' || part.type === 'image'),
          isError: false,
        },
      ]);
    } else if (type === 'reasoning') {
      // Another model's reasoning belongs to the model that wrote it; a Claude model's own signed
      // thinking, carried back, leads the assistant turn that follows it.
      thinking.push(...thinkingCarriedBy(item, path));
    } else if (type === 'item_reference') {
      // The gateway replaces the references to items it keeps for this key before translation (as
      // previous_response_id's conversation); one left is to an item it does not keep for the key.
      throw TranslationError.at(
        `${path}.id`,
        `Item with id '${String(item.id).slice(0, 120)}' not found: no response kept (store: true) for this key or its team holds it, or it was deleted or has expired (an item only a provider's own Responses API holds is read there alone); send the item itself in input`,
      );
    } else {
      // Anything else needs a Responses upstream.
      throw TranslationError.at(path, `${type} items need a model with a native Responses API`);
    }
  });
  for (const [callId, call] of calls)
    if (!call.answered)
      throw TranslationError.at(
        call.path,
        `No tool output found for function call ${callId}; send a function_call_output item with call_id ${JSON.stringify(callId)} after the call, in input`,
      );
  // A chat or Messages upstream needs a conversation; instructions alone, or blank text, are not one.
  if (!messages.some((message) => message.content.some((part) => part.type !== 'text' || part.text.trim() !== '')))
    throw TranslationError.at('input', 'has no user or assistant turn to send; this model needs at least one');
  const tools = (body.tools ?? []).map((tool, index) => {
    // Custom tools are the client's own, not hosted ones: the model writes free-form text for them.
    if (tool.type === 'custom')
      throw TranslationError.at(
        `tools[${index}]`,
        'custom tools (free-form input) are not translated for this model; send function tools',
      );
    if (tool.type !== 'function')
      throw TranslationError.at(
        `tools[${index}]`,
        `the hosted tool ${tool.type} needs a model with a native Responses API`,
      );
    return {
      name: String(tool.name),
      description: tool.description ?? undefined,
      parameters: tool.parameters ?? { type: 'object', properties: {} },
      strict: typeof tool.strict === 'boolean' ? tool.strict : undefined,
    };
  });
  return {
    system,
    systemAt,
    messages,
    tools: tools.length > 0 ? tools : undefined,
    toolChoice: toolChoiceToIr(body.tool_choice ?? undefined, tools),
    parallelToolCalls: body.parallel_tool_calls ?? undefined,
    maxTokens: body.max_output_tokens ?? undefined,
    temperature: body.temperature ?? undefined,
    topP: body.top_p ?? undefined,
    user: body.user,
    responseFormat: textFormatToIr(body.text),
    ...reasoningEffortOf(body.reasoning),
    stream: body.stream === true,
  };
}

/** `reasoning.effort`, when the client set one. */
function reasoningEffortOf(reasoning: unknown): { reasoningEffort?: string } {
  const effort = isObject(reasoning) ? reasoning.effort : undefined;
  return typeof effort === 'string' ? { reasoningEffort: effort } : {};
}

/** `text.format` is chat's `response_format` with the json_schema fields flattened into it. */
function textFormatToIr(text: unknown): IrResponseFormat | undefined {
  const format = isObject(text) ? text.format : undefined;
  if (!isObject(format) || format.type !== 'json_schema') return chatResponseFormatToIr(format, 'text.format');
  // Chat completions' layout, whose schema would otherwise be missed (its name and schema one level down).
  if (format.json_schema !== undefined && format.schema === undefined)
    throw TranslationError.at(
      'text.format.schema',
      'is required; the Responses API takes the name and schema in text.format itself, not in text.format.json_schema as chat completions does',
    );
  return jsonSchemaFormatToIr(format, 'text.format');
}

function contentToIr(
  content: string | ResponsesContentPart[],
  path: string,
): Array<IrTextPart | IrImagePart | IrFilePart> {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map((part, index) => {
    if ((part.type === 'input_text' || part.type === 'output_text') && typeof part.text === 'string')
      return { type: 'text', text: part.text };
    // An earlier answer's refusal, sent back with its output: the model's own words of that turn.
    if (part.type === 'refusal' && typeof part.refusal === 'string') return { type: 'text', text: part.refusal };
    if (part.type === 'input_image' && typeof part.image_url === 'string')
      return imageFromUrl(part.image_url, imageDetail(part.detail), `${path}[${index}].image_url`);
    if (part.type === 'input_file' && part.file_data != null)
      return fileFromDataUrl(part.file_data, part.filename, `${path}[${index}].file_data`);
    throw TranslationError.at(`${path}[${index}]`, `${part.type} parts need a model with a native Responses API`);
  });
}

function toolChoiceToIr(
  choice: ResponsesBody['tool_choice'] | undefined,
  tools: ReadonlyArray<{ readonly name: string }>,
): IrToolChoice | undefined {
  if (choice === undefined || choice === null) return undefined;
  if (typeof choice === 'string') return { type: choice };
  if (choice.type === 'function' && typeof choice.name === 'string') {
    // OpenAI refuses a forced function the request does not define; a provider would too.
    if (!tools.some((tool) => tool.name === choice.name))
      throw TranslationError.at(
        'tool_choice.name',
        `no function named ${JSON.stringify(choice.name)} in tools; ` +
          (tools.length === 0
            ? 'send the function in tools'
            : `name one of ${tools.map((tool) => JSON.stringify(tool.name)).join(', ')}`),
      );
    return { type: 'tool', name: choice.name };
  }
  if (choice.type === 'allowed_tools')
    throw TranslationError.at(
      'tool_choice',
      'allowed_tools is not translated for this model; send only the allowed tools in tools, with tool_choice auto or required',
    );
  if (choice.type === 'custom')
    throw TranslationError.at('tool_choice', 'custom tools are not translated for this model; send function tools');
  throw TranslationError.at('tool_choice', `the hosted tool ${choice.type} needs a model with a native Responses API`);
}

/** The `detail` of an input image, when it is one chat completions knows. */
function imageDetail(detail: unknown): IrImagePart['detail'] {
  return detail === 'auto' || detail === 'low' || detail === 'high' ? detail : undefined;
}
