import type { ResponsesBody, ResponsesInputItem } from './responses-schema.js';

/**
 * How many items at the start of a Responses body's `input` the gateway put there: the conversation
 * of `previous_response_id`, rebuilt from kept responses. A symbol, so it is never serialised and
 * travels with the body through the stages.
 */
const REPLAYED = Symbol('replayed input items');

type Replayable = ResponsesBody & { [REPLAYED]?: number };

/** Puts a kept conversation's items in front of the client's own input. */
export function prependReplayed(body: ResponsesBody, earlier: readonly ResponsesInputItem[]): void {
  const input = typeof body.input === 'string' ? [{ role: 'user' as const, content: body.input }] : body.input;
  body.input = [...earlier, ...input];
  (body as Replayable)[REPLAYED] = earlier.length;
}

/**
 * The path of input item `index` as the client knows it: `input[i]` for its own items, and for a
 * replayed one where it came from, rather than an index into a list the client never sent.
 */
export function inputItemPath(body: ResponsesBody, index: number): string {
  const replayed = (body as Replayable)[REPLAYED] ?? 0;
  if (index < replayed) return `previous_response_id's conversation, item ${index}`;
  return `input[${index - replayed}]`;
}
