import type { UpstreamErrorDetail } from '../../../../shared/errors.js';
import type { IrSignedThinking, IrStopReason, IrStreamEvent, Usage } from '../ir.js';
import { isCompleteArguments } from '../cut-tool-calls.js';
import { assertNever } from '../../../../shared/assert-never.js';
import { eventFrame, KEEPALIVE_FRAME } from '../sse.js';
import { BROKEN_STREAM_STATUS, StreamError } from '../stream-error.js';
import { answerCarriesThinking, carriedThinking } from './carried-thinking.js';
import {
  itemId,
  lastItemStatus,
  reasoningItem,
  responseObject,
  type ReasoningItem,
  type ResponseEnvelope,
  type ResponseMessagePart,
  type ResponseOutputItem,
} from './responses-response-ir.js';

/** The next `sequence_number` of a Responses stream, shared with the frame that reports its failure. */
export interface ResponsesSequence {
  next: number;
}

/**
 * Encodes IR events as a typed Responses stream, as OpenAI sends it: `response.created`,
 * `response.in_progress`, per output item `response.output_item.added` ... `response.output_item.done`
 * (a message with `content_part` and `output_text` events, a function call with
 * `function_call_arguments` events, or the model's reasoning with `reasoning_summary_part` and
 * `reasoning_summary_text` events), then `response.completed` (or `response.incomplete`). Every
 * event carries its `sequence_number`; the SSE event name equals its `type`. `keep`, for a kept
 * response, receives the Response object before the client first sees its id and again before its
 * last event (completed, or failed when the stream ends early), so the id is always readable. A Claude
 * model's signed thinking rides in its reasoning items' `encrypted_content` when the request takes it
 * back (see carried-thinking.ts), as in a whole answer.
 */
export async function* encodeResponsesStream(
  events: AsyncIterable<IrStreamEvent>,
  envelope: ResponseEnvelope,
  usage: () => Usage,
  keep?: (response: Record<string, unknown>) => void,
  sequence: ResponsesSequence = { next: 0 },
): AsyncGenerator<string> {
  const output: ResponseOutputItem[] = [];
  // Items not yet done, in output order. A chat stream's parallel calls may interleave (call 0's
  // arguments arriving after call 1 started), so a call whose arguments are not complete JSON stays
  // open beside the next one, each delta going to its own call's output_index, which is how the
  // openai SDK accumulates them. Complete arguments cannot take more text: such a call is done.
  const open: OpenItem[] = [];
  let stop: IrStopReason | undefined;
  // Signed thinking not yet in an item: the reasoning item that closes next carries it (each item its
  // own blocks, so items sent back together send each block once, in order). Only kept when asked for.
  const carriesThinking = answerCarriesThinking(envelope.request);
  let uncarried: IrSignedThinking[] = [];
  const frame = (type: string, payload: Record<string, unknown>): string =>
    eventFrame(type, JSON.stringify({ type, sequence_number: sequence.next++, ...payload }));

  function* close(entry: OpenItem): Generator<string> {
    const { item, index } = entry;
    open.splice(open.indexOf(entry), 1);
    // An item closed because another followed is complete; the last ones are closed once the stop is known.
    item.status = stop === undefined ? 'completed' : lastItemStatus(item, stop);
    if (item.type === 'message') {
      yield* partDone(item, index);
    } else if (item.type === 'reasoning') {
      const [part] = item.summary;
      const at = { item_id: item.id, output_index: index, summary_index: 0 };
      yield frame('response.reasoning_summary_text.done', { ...at, text: part!.text });
      yield frame('response.reasoning_summary_part.done', { ...at, part });
      carryThinking(item);
    } else {
      yield frame('response.function_call_arguments.done', {
        item_id: item.id,
        output_index: index,
        name: item.name,
        arguments: item.arguments,
      });
    }
    yield frame('response.output_item.done', { output_index: index, item });
  }

  /** Gives a reasoning item the signed thinking no item carries yet. */
  function carryThinking(item: ReasoningItem): void {
    if (uncarried.length === 0) return;
    item.encrypted_content = carriedThinking(uncarried);
    uncarried = [];
  }

  /**
   * Signed thinking no reasoning item took (all of it redacted: there was no text to show) goes in a
   * reasoning item of its own with no summary, as in a whole answer.
   */
  function* holdUncarriedThinking(): Generator<string> {
    if (uncarried.length === 0) return;
    const item: ReasoningItem = { type: 'reasoning', id: itemId('rs'), summary: [], status: 'in_progress' };
    output.push(item);
    const index = output.length - 1;
    yield frame('response.output_item.added', { output_index: index, item: { ...item } });
    item.status = 'completed';
    carryThinking(item);
    yield frame('response.output_item.done', { output_index: index, item });
  }

  /** Ends the message's last content part: its text, or its refusal. */
  function* partDone(message: MessageItem, index: number): Generator<string> {
    const at = partAt(message, index);
    const part = message.content[at.content_index];
    if (part.type === 'output_text') yield frame('response.output_text.done', { ...at, text: part.text, logprobs: [] });
    else yield frame('response.refusal.done', { ...at, refusal: part.refusal });
    yield frame('response.content_part.done', { ...at, part });
  }

  /** Adds text to the open message; a refusal goes in a part of its own, as OpenAI streams it. */
  function* addText(current: OpenItem & { item: MessageItem }, text: string, refusal: boolean): Generator<string> {
    const message = current.item;
    const kind = refusal ? 'refusal' : 'output_text';
    if (message.content.at(-1)?.type !== kind) {
      if (message.content.length > 0) yield* partDone(message, current.index);
      const empty = (): ResponseMessagePart =>
        refusal ? { type: 'refusal', refusal: '' } : { type: 'output_text', text: '', annotations: [], logprobs: [] };
      message.content.push(empty());
      yield frame('response.content_part.added', { ...partAt(message, current.index), part: empty() });
    }
    const part = message.content.at(-1)!;
    if (part.type === 'refusal') {
      part.refusal += text;
      yield frame('response.refusal.delta', { ...partAt(message, current.index), delta: text });
    } else {
      part.text += text;
      yield frame('response.output_text.delta', { ...partAt(message, current.index), delta: text, logprobs: [] });
    }
  }

  /** Closes the open items `which` selects, in output order. */
  function* closeOpen(which: (item: ResponseOutputItem) => boolean = () => true): Generator<string> {
    for (const entry of open.filter((candidate) => which(candidate.item))) yield* close(entry);
  }

  function* add(item: ResponseOutputItem, irIndex?: number): Generator<string> {
    // Text after calls starts a new message and ends them; a call or reasoning ends the text or
    // reasoning before it, and the calls whose arguments are complete.
    yield* closeOpen(
      item.type === 'message'
        ? undefined
        : (other) => other.type !== 'function_call' || isCompleteArguments(other.arguments),
    );
    if (item.type !== 'reasoning') yield* holdUncarriedThinking();
    output.push(item);
    open.push({ item, index: output.length - 1, irIndex });
    const added =
      item.type === 'message' ? { ...item, content: [] } : item.type === 'reasoning' ? { ...item, summary: [] } : item;
    yield frame('response.output_item.added', { output_index: output.length - 1, item: added });
    if (item.type === 'reasoning')
      yield frame('response.reasoning_summary_part.added', {
        item_id: item.id,
        output_index: output.length - 1,
        summary_index: 0,
        part: { type: 'summary_text', text: '' },
      });
  }

  // The upstream's first event before the gateway's own `response.created`: a provider that fails at
  // once (Anthropic's overloaded error arrives as an event, a chat server's as an error chunk) fails
  // the call before any frame exists, so the route stage retries it or falls back, as on the other
  // endpoints, and nothing is kept of it.
  const upstream = events[Symbol.asyncIterator]();
  const first = await upstream.next();
  const created = responseObject(envelope, [], undefined, undefined);
  keep?.(created);
  let finished = false;
  let failure: unknown;
  try {
    yield frame('response.created', { response: created });
    yield frame('response.in_progress', { response: responseObject(envelope, [], undefined, undefined) });
    yield* encodeEvents();
    yield* closeOpen();
    yield* holdUncarriedThinking();
    const final = responseObject(envelope, output, stop ?? 'stop', usage());
    keep?.(final);
    finished = true;
    yield frame(final.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: final });
  } catch (error) {
    failure = error;
    throw error;
  } finally {
    // An upstream failure or a client that left: what was kept must not stay in progress for ever.
    if (!finished && keep !== undefined)
      keep(failedResponse(responseObject(envelope, output, undefined, usage()), failure));
    // Stopped before the upstream's events were read to the end (even while the frames of its first
    // event were going out): its request ends too, rather than holding a pooled connection.
    if (!first.done) await upstream.return?.();
  }

  /** The upstream's events, the first one included. */
  async function* upstreamEvents(): AsyncGenerator<IrStreamEvent> {
    if (first.done) return;
    yield first.value;
    yield* { [Symbol.asyncIterator]: () => upstream };
  }

  async function* encodeEvents(): AsyncGenerator<string> {
    for await (const event of upstreamEvents()) {
      switch (event.type) {
        case 'start':
        case 'usage':
          break;
        case 'signed_thinking':
          if (carriesThinking) uncarried.push(event.block);
          break;
        case 'text': {
          if (open.at(-1)?.item.type !== 'message')
            yield* add({ type: 'message', id: itemId('msg'), status: 'in_progress', role: 'assistant', content: [] });
          yield* addText(open.at(-1) as OpenItem & { item: MessageItem }, event.text, event.refusal === true);
          break;
        }
        case 'reasoning': {
          if (open.at(-1)?.item.type !== 'reasoning') yield* add(reasoningItem('', 'in_progress'));
          const current = open.at(-1)!;
          const item = current.item as ReasoningItem;
          item.summary[0]!.text += event.text;
          yield frame('response.reasoning_summary_text.delta', {
            item_id: item.id,
            output_index: current.index,
            summary_index: 0,
            delta: event.text,
          });
          break;
        }
        case 'tool_call_start':
          yield* add(
            {
              type: 'function_call',
              id: itemId('fc'),
              call_id: event.id,
              name: event.name,
              arguments: '',
              status: 'in_progress',
            },
            event.index,
          );
          break;
        case 'tool_call_delta': {
          const call = open.find((entry) => entry.item.type === 'function_call' && entry.irIndex === event.index);
          if (call?.item.type === 'function_call') {
            call.item.arguments += event.arguments;
            yield frame('response.function_call_arguments.delta', {
              item_id: call.item.id,
              output_index: call.index,
              delta: event.arguments,
            });
          }
          break;
        }
        case 'finish':
          stop = event.stopReason;
          break;
        case 'keepalive':
          // A comment: no event, so no sequence_number is taken.
          yield KEEPALIVE_FRAME;
          break;
        default:
          assertNever(event, 'stream event');
      }
    }
  }
}

type MessageItem = Extract<ResponseOutputItem, { type: 'message' }>;

/** Where a message's last content part is, as its events say it. */
function partAt(message: MessageItem, index: number) {
  return { item_id: message.id, output_index: index, content_index: message.content.length - 1 };
}

/** An output item still being streamed; `irIndex` keys a function call's deltas. */
interface OpenItem {
  readonly item: ResponseOutputItem;
  readonly index: number;
  readonly irIndex?: number;
}

/**
 * A kept stream's Response when the stream ended before its last event: its error the provider's own
 * (its type and message) when `failure` is an error the provider reported in the stream, else the
 * stream's early end. The caller redacts the message as it redacts errors it relays.
 */
export function failedResponse(response: Record<string, unknown>, failure?: unknown): Record<string, unknown> {
  const reported = failure instanceof StreamError && failure.status !== BROKEN_STREAM_STATUS;
  return {
    ...response,
    status: 'failed',
    error: reported
      ? { code: failure.type, message: failure.message }
      : { code: 'server_error', message: 'the stream ended before the response was complete' },
    output: incompleteItems(response.output),
  };
}

/**
 * Output items, those still being written marked `incomplete`, as the ones a token limit cut off, their
 * text parts in OpenAI's shape (a part rebuilt from a native stream's events has only what they carried).
 */
function incompleteItems(output: unknown): Array<Record<string, unknown>> {
  const items = Array.isArray(output) ? (output as Array<Record<string, unknown>>) : [];
  return items.map((item) => {
    const marked = item.status === 'in_progress' ? { ...item, status: 'incomplete' } : item;
    return Array.isArray(marked.content) ? { ...marked, content: marked.content.map(completeTextPart) } : marked;
  });
}

/** An `output_text` part with the `annotations` and `logprobs` OpenAI's parts always have. */
function completeTextPart(part: unknown): unknown {
  if (part === null || typeof part !== 'object' || (part as { type?: unknown }).type !== 'output_text') return part;
  const text = part as Record<string, unknown>;
  return { ...text, annotations: text.annotations ?? [], logprobs: text.logprobs ?? [] };
}

/**
 * A kept stream's Response when its client left before the end: cancelled by the client, not failed
 * at the server; the items it was writing are `incomplete`, as the ones a token limit cut off.
 */
export function cancelledResponse(response: Record<string, unknown>): Record<string, unknown> {
  return { ...response, status: 'cancelled', error: null, output: incompleteItems(response.output) };
}

/**
 * The frame that reports a failure after the stream started: OpenAI's `error` event fields (its
 * `sequence_number` the stream's next, when the stream's numbering is known), plus an `error` object,
 * which is what makes the openai SDK raise it; `upstream`, the provider's own words, goes in that
 * object as in a 502's body (`err.error.upstream`).
 */
export function responsesErrorFrame(
  message: string,
  sequence?: ResponsesSequence,
  upstream?: UpstreamErrorDetail,
): string {
  return eventFrame(
    'error',
    JSON.stringify({
      type: 'error',
      code: 'upstream_error',
      message,
      param: null,
      ...(sequence === undefined ? {} : { sequence_number: sequence.next++ }),
      error: { type: 'upstream_error', message, code: 502, ...(upstream && { upstream }) },
    }),
  );
}
