import { eventFrame } from '../formats/sse.js';

type Item = Record<string, unknown>;
type Part = Record<string, unknown>;
/** One event of the replay, before its `sequence_number` is given. */
type Event = { readonly type: string } & Record<string, unknown>;

/**
 * Why a kept response cannot be streamed again, if it cannot: one still being written has no events
 * here to send (only its stream's own client receives them), and its kept object is not its last.
 */
export function unreplayable(response: Record<string, unknown>): string | undefined {
  const status = response.status;
  if (status === 'in_progress' || status === 'queued')
    return `response '${String(response.id)}' is still being written (status ${status}); its events go to the client that made it: read it whole (leave stream out), or stream it once it has ended`;
  return undefined;
}

/**
 * The event stream OpenAI sends for a finished Response, rebuilt from the kept object (only the final
 * object is kept, not the events that carried it): `response.created` and `response.in_progress`, each
 * output item added, its parts or summary written whole in one delta, and done, then the event of its
 * status. Numbered from 0; only the events after `startingAfter` are framed, as OpenAI resumes a
 * stream. Item and part objects of `done` events, and the last event's response, are the kept ones,
 * so a client that accumulates the events ends with the kept object.
 */
export function replayFrames(response: Record<string, unknown>, startingAfter = -1): string[] {
  const events = replayEvents(response);
  const frames: string[] = [];
  events.forEach((event, sequence) => {
    if (sequence <= startingAfter) return;
    const { type, ...rest } = event;
    frames.push(eventFrame(type, JSON.stringify({ type, sequence_number: sequence, ...rest })));
  });
  return frames;
}

function replayEvents(response: Record<string, unknown>): Event[] {
  // As the response stood when it began: nothing written, no usage, no ending.
  const { completed_at: _completedAt, ...begun } = response;
  const started = { ...begun, status: 'in_progress', error: null, incomplete_details: null, output: [], usage: null };
  const output = Array.isArray(response.output) ? (response.output as Item[]) : [];
  return [
    { type: 'response.created', response: started },
    { type: 'response.in_progress', response: started },
    ...output.flatMap((item, index) => itemEvents(item, index)),
    { type: endingEvent(response.status), response },
  ];
}

/**
 * The last event for a response of `status`. A cancelled response has none of its own in a Responses
 * stream (the SDKs refuse an event type they do not know): its items were cut short, as a token
 * limit cuts them, so it ends as an incomplete one does, its object saying `cancelled`.
 */
function endingEvent(status: unknown): string {
  if (status === 'failed') return 'response.failed';
  if (status === 'incomplete' || status === 'cancelled') return 'response.incomplete';
  return 'response.completed';
}

/** An output item's events: added (as it began), what it holds written, then done (as kept). */
function itemEvents(item: Item, index: number): Event[] {
  const at = { item_id: item.id, output_index: index };
  const begun: Item = { ...item, ...('status' in item ? { status: 'in_progress' } : {}) };
  let body: Event[] = [];
  if (item.type === 'message') {
    begun.content = [];
    body = parts(item.content).flatMap((part, partIndex) =>
      messagePartEvents(part, { ...at, content_index: partIndex }),
    );
  } else if (item.type === 'function_call') {
    begun.arguments = '';
    const args = typeof item.arguments === 'string' ? item.arguments : '';
    body = [
      { type: 'response.function_call_arguments.delta', ...at, delta: args },
      { type: 'response.function_call_arguments.done', ...at, name: item.name, arguments: args },
    ];
  } else if (item.type === 'reasoning') {
    begun.summary = [];
    if (Array.isArray(item.content)) begun.content = [];
    body = [
      ...parts(item.summary).flatMap((part, summaryIndex) =>
        summaryEvents(part, { ...at, summary_index: summaryIndex }),
      ),
      ...parts(item.content).flatMap((part, partIndex) =>
        reasoningTextEvents(part, { ...at, content_index: partIndex }),
      ),
    ];
  }
  // Other items (tool calls run at the provider) are added as they began and done as kept, as a whole.
  return [
    { type: 'response.output_item.added', output_index: index, item: begun },
    ...body,
    { type: 'response.output_item.done', output_index: index, item },
  ];
}

function parts(value: unknown): Part[] {
  return Array.isArray(value) ? (value as Part[]) : [];
}

/** A message's content part: added empty, its text (or refusal) in one delta, its annotations, done. */
function messagePartEvents(part: Part, at: Record<string, unknown>): Event[] {
  const done = { type: 'response.content_part.done', ...at, part };
  if (part.type === 'refusal') {
    const refusal = typeof part.refusal === 'string' ? part.refusal : '';
    return [
      { type: 'response.content_part.added', ...at, part: { type: 'refusal', refusal: '' } },
      { type: 'response.refusal.delta', ...at, delta: refusal },
      { type: 'response.refusal.done', ...at, refusal },
      done,
    ];
  }
  if (part.type !== 'output_text') return [{ type: 'response.content_part.added', ...at, part }, done];
  const text = typeof part.text === 'string' ? part.text : '';
  const logprobs = Array.isArray(part.logprobs) ? part.logprobs : [];
  const annotations = Array.isArray(part.annotations) ? (part.annotations as unknown[]) : [];
  return [
    {
      type: 'response.content_part.added',
      ...at,
      part: { type: 'output_text', text: '', annotations: [], logprobs: [] },
    },
    { type: 'response.output_text.delta', ...at, delta: text, logprobs },
    ...annotations.map((annotation, annotationIndex) => ({
      type: 'response.output_text.annotation.added',
      ...at,
      annotation_index: annotationIndex,
      annotation,
    })),
    { type: 'response.output_text.done', ...at, text, logprobs },
    done,
  ];
}

/** A reasoning summary part: added empty, its text in one delta, done. */
function summaryEvents(part: Part, at: Record<string, unknown>): Event[] {
  const text = typeof part.text === 'string' ? part.text : '';
  return [
    { type: 'response.reasoning_summary_part.added', ...at, part: { type: 'summary_text', text: '' } },
    { type: 'response.reasoning_summary_text.delta', ...at, delta: text },
    { type: 'response.reasoning_summary_text.done', ...at, text },
    { type: 'response.reasoning_summary_part.done', ...at, part },
  ];
}

/** A reasoning item's own text (`reasoning_text`): added empty, its text in one delta, done. */
function reasoningTextEvents(part: Part, at: Record<string, unknown>): Event[] {
  const text = typeof part.text === 'string' ? part.text : '';
  return [
    { type: 'response.content_part.added', ...at, part: { type: 'reasoning_text', text: '' } },
    { type: 'response.reasoning_text.delta', ...at, delta: text },
    { type: 'response.reasoning_text.done', ...at, text },
    { type: 'response.content_part.done', ...at, part },
  ];
}
