import type { Endpoint } from '../pipeline/request-context.js';

/** Where a value stands in a JSON value: member names and array indexes from the top. */
export type JsonPath = readonly (string | number)[];

/**
 * A value a replay changes, by its path: an `id` the provider made for this answer (given a fresh
 * one), a `ref` naming such an id elsewhere in the answer (follows it, when it names one), or a `time`
 * the answer was made at (the hit's time).
 */
export type Slot =
  | { readonly kind: 'id' | 'ref'; readonly at: JsonPath; readonly value: string }
  | { readonly kind: 'time'; readonly at: JsonPath; readonly value: number };

type Json = Record<string, unknown>;
type Add = (slot: Slot) => void;

/** Messages content blocks whose `id` the provider made for this answer. */
const TOOL_USE_BLOCKS: ReadonlySet<unknown> = new Set(['tool_use', 'server_tool_use', 'mcp_tool_use']);

/** `value` when it is a JSON object (not an array, not null). */
export function objectAt(value: unknown): Json | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
}

function each(list: unknown, at: JsonPath, visit: (item: Json, at: JsonPath) => void): void {
  if (!Array.isArray(list)) return;
  for (let index = 0; index < list.length; index += 1) {
    const item = objectAt(list[index]);
    if (item !== undefined) visit(item, [...at, index]);
  }
}

function text(kind: 'id' | 'ref', holder: Json | undefined, at: JsonPath, field: string, add: Add): void {
  const value = holder?.[field];
  if (typeof value === 'string' && value !== '') add({ kind, at: [...at, field], value });
}

function time(holder: Json | undefined, at: JsonPath, field: string, add: Add): void {
  const value = holder?.[field];
  if (typeof value === 'number' && Number.isFinite(value)) add({ kind: 'time', at: [...at, field], value });
}

/** A chat completion or one of its chunks: its id and time, and its tool calls' ids. */
function chatSlots(answer: Json, add: Add): void {
  text('id', answer, [], 'id', add);
  time(answer, [], 'created', add);
  each(answer.choices, ['choices'], (choice, at) => {
    for (const part of ['message', 'delta'])
      each(objectAt(choice[part])?.tool_calls, [...at, part, 'tool_calls'], (call, callAt) =>
        text('id', call, callAt, 'id', add),
      );
  });
}

function messagesBlockSlots(block: Json | undefined, at: JsonPath, add: Add): void {
  if (TOOL_USE_BLOCKS.has(block?.type)) text('id', block, at, 'id', add);
  text('ref', block, at, 'tool_use_id', add);
}

function messageSlots(message: Json | undefined, at: JsonPath, add: Add): void {
  text('id', message, at, 'id', add);
  each(message?.content, [...at, 'content'], (block, blockAt) => messagesBlockSlots(block, blockAt, add));
}

/** An output item of a Response: its id, and the id of the call it makes. */
function outputItemSlots(item: Json | undefined, at: JsonPath, add: Add): void {
  text('id', item, at, 'id', add);
  text('id', item, at, 'call_id', add);
}

function responseSlots(response: Json | undefined, at: JsonPath, add: Add): void {
  text('id', response, at, 'id', add);
  time(response, at, 'created_at', add);
  time(response, at, 'completed_at', add);
  each(response?.output, [...at, 'output'], (item, itemAt) => outputItemSlots(item, itemAt, add));
}

/** The slots of a whole answer of `endpoint` (embeddings have none). */
export function answerSlots(endpoint: Endpoint, answer: Json, add: Add): void {
  if (endpoint === 'chat') chatSlots(answer, add);
  else if (endpoint === 'messages') messageSlots(answer, [], add);
  else if (endpoint === 'responses') responseSlots(answer, [], add);
}

/** The slots of one event of a streamed answer of `endpoint`. */
export function eventSlots(endpoint: Endpoint, event: Json, add: Add): void {
  if (endpoint === 'chat') chatSlots(event, add);
  else if (endpoint === 'messages') {
    if (event.type === 'message_start') messageSlots(objectAt(event.message), ['message'], add);
    else if (event.type === 'content_block_start')
      messagesBlockSlots(objectAt(event.content_block), ['content_block'], add);
  } else if (endpoint === 'responses') {
    responseSlots(objectAt(event.response), ['response'], add);
    outputItemSlots(objectAt(event.item), ['item'], add);
    text('id', event, [], 'item_id', add);
    text('id', event, [], 'call_id', add);
  }
}
