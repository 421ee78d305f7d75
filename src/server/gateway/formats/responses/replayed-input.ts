import { TranslationError } from '../translation-error.js';
import type { ResponsesBody, ResponsesInputItem } from './responses-schema.js';

/**
 * How many items at the start of a Responses body's `input` the gateway put there: the conversation
 * of `previous_response_id`, rebuilt from kept responses. A symbol, so it is never serialised and
 * travels with the body through the stages.
 */
const REPLAYED = Symbol('replayed input items');

type Replayable = ResponsesBody & { [REPLAYED]?: number };

/** How a replayed item's place starts (`previous_response_id's conversation, item 2`). */
const REPLAYED_PATH = "previous_response_id's conversation";

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
  if (index < replayed) return `${REPLAYED_PATH}, item ${index}`;
  return `input[${index - replayed}]`;
}

/**
 * A translation error about a replayed item with `previous_response_id` as its `param`, the parameter
 * the client sent (a place in the conversation is no parameter name); its message keeps that place.
 */
export function withSentParam(error: unknown): unknown {
  if (!(error instanceof TranslationError) || error.param?.startsWith(REPLAYED_PATH) !== true) return error;
  return new TranslationError(error.message, 'previous_response_id');
}
