import type { IrResponse, IrResponseFormat, IrStreamEvent, IrTextPart, IrToolCallPart } from '../ir.js';
import { isObject } from '../translation-error.js';

/**
 * JSON answers from Anthropic, as LiteLLM gets them: the Messages API at the version this gateway
 * speaks has no response format, so the schema becomes the input schema of a tool the model is
 * made to call (Anthropic's documented "JSON mode"), and the input of that call comes back to the
 * client as the answer's text. Tool inputs must be objects: any other schema (an array, a string)
 * is wrapped as `{values: <schema>}` and unwrapped on the way back.
 */

type JsonObject = Record<string, unknown>;

/** The name of the answer tool (LiteLLM's RESPONSE_FORMAT_TOOL_NAME). */
export const JSON_TOOL_NAME = 'json_tool_call';

/** The tool whose input is the answer. */
export function jsonTool(format: IrResponseFormat): JsonObject {
  const tool: JsonObject = { name: JSON_TOOL_NAME };
  if (format.description !== undefined) tool.description = format.description;
  tool.input_schema = inputSchema(format.schema);
  return tool;
}

function inputSchema(schema: IrResponseFormat['schema']): JsonObject {
  // Anthropic rejects a null `properties`; an open object is how "any JSON object" is said.
  if (schema === undefined) return { type: 'object', properties: {}, additionalProperties: true };
  if (schema.type === 'object') return { ...schema };
  // Definitions stay at the root, where `#/$defs/...` references point.
  const { $defs, definitions, ...values } = schema;
  const wrapped: JsonObject = { type: 'object', properties: { values }, required: ['values'] };
  if ($defs !== undefined) wrapped.$defs = $defs;
  if (definitions !== undefined) wrapped.definitions = definitions;
  return wrapped;
}

function isWrapped(format: IrResponseFormat): boolean {
  return format.schema !== undefined && format.schema.type !== 'object';
}

/** The client's JSON text from the answer tool's arguments. */
function answerText(args: string, format: IrResponseFormat): string {
  if (!isWrapped(format)) return args;
  try {
    const input: unknown = JSON.parse(args);
    if (isObject(input) && 'values' in input) return JSON.stringify(input.values);
  } catch {
    // A broken answer is still the model's answer; the client sees it as it came.
  }
  return args;
}

/**
 * An Anthropic answer with the answer tool's call turned into text. When it was the only call,
 * the answer ends as a plain stop, as the client's JSON-mode request would have.
 */
export function jsonToolAsText(response: IrResponse, format: IrResponseFormat | undefined): IrResponse {
  if (format === undefined) return response;
  let converted = false;
  const content = response.content.map((part): IrTextPart | IrToolCallPart => {
    if (part.type !== 'tool_call' || part.name !== JSON_TOOL_NAME || converted) return part;
    converted = true;
    return { type: 'text', text: answerText(part.arguments, format) };
  });
  if (!converted) return response;
  const calls = content.some((part) => part.type === 'tool_call');
  return {
    ...response,
    content,
    stopReason: response.stopReason === 'tool_calls' && !calls ? 'stop' : response.stopReason,
  };
}

/**
 * The same for a stream: the answer tool's argument deltas become text deltas as they arrive
 * (a wrapped schema's are held until the call ends, since `{"values": ...}` cannot be unwrapped
 * piecemeal).
 */
export async function* jsonToolEventsAsText(
  events: AsyncIterable<IrStreamEvent>,
  format: IrResponseFormat | undefined,
): AsyncGenerator<IrStreamEvent> {
  if (format === undefined) {
    yield* events;
    return;
  }
  const wrapped = isWrapped(format);
  let answerIndex: number | undefined;
  let held = '';
  let otherCalls = false;
  const flush = (): IrStreamEvent[] => {
    if (held === '') return [];
    const text = answerText(held, format);
    held = '';
    return [{ type: 'text', text }];
  };
  for await (const event of events) {
    if (event.type === 'tool_call_start') {
      if (event.name === JSON_TOOL_NAME && answerIndex === undefined) {
        answerIndex = event.index;
        continue;
      }
      yield* flush();
      otherCalls = true;
    } else if (event.type === 'tool_call_delta' && event.index === answerIndex) {
      if (wrapped) held += event.arguments;
      else yield { type: 'text', text: event.arguments };
      continue;
    } else if (event.type === 'finish') {
      yield* flush();
      if (answerIndex !== undefined && !otherCalls && event.stopReason === 'tool_calls') {
        yield { ...event, stopReason: 'stop' };
        continue;
      }
    }
    yield event;
  }
  yield* flush();
}
