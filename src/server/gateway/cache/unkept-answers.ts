import type { Endpoint } from '../pipeline/request-context.js';
import { objectAt } from './replay-slots.js';

type Json = Record<string, unknown>;

/** The statuses a Response's last event gives an answer that did not complete: failed, stopped or cut short. */
const UNFINISHED_STATUSES: ReadonlySet<unknown> = new Set(['failed', 'cancelled', 'incomplete']);

function filtered(choices: unknown): boolean {
  return Array.isArray(choices) && choices.some((choice) => objectAt(choice)?.finish_reason === 'content_filter');
}

/**
 * True for a whole answer that must not be kept although it came with a 200: a Response whose status
 * is not `completed`, a chat completion stopped by the provider's content filter, a Messages refusal.
 * Each is one outcome of a call, not the answer to the request, and the next call may do better.
 */
export function unkeptAnswer(endpoint: Endpoint, answer: Json): boolean {
  if (endpoint === 'responses') return answer.status !== undefined && answer.status !== 'completed';
  if (endpoint === 'chat') return filtered(answer.choices);
  if (endpoint === 'messages') return answer.stop_reason === 'refusal';
  return false;
}

/**
 * True for an event that makes a streamed answer one not to keep, as {@link unkeptAnswer} says of a
 * whole one (a Response's earlier events say `queued` or `in_progress`; its last one decides).
 */
export function unkeptEvent(endpoint: Endpoint, event: Json): boolean {
  if (endpoint === 'responses') return UNFINISHED_STATUSES.has(objectAt(event.response)?.status);
  if (endpoint === 'chat') return filtered(event.choices);
  if (endpoint === 'messages')
    return event.type === 'message_delta' && objectAt(event.delta)?.stop_reason === 'refusal';
  return false;
}
