import { encodeEvent, SseParser, type SseEvent } from '../formats/sse.js';
import type { Endpoint } from '../pipeline/request-context.js';
import { freshId } from './fresh-ids.js';
import { answerSlots, eventSlots, objectAt, type Slot } from './replay-slots.js';
import {
  plainTemplate,
  renderTemplate,
  TemplateCutter,
  TIME_SLOT,
  type MarkedValue,
  type ReplayTemplate,
} from './replay-template.js';
import { unkeptAnswer, unkeptEvent } from './unkept-answers.js';

/**
 * A kept answer, cut where a replay changes it: the provider's JSON text, or a stream's frames as the
 * provider layer produced them; `ids` are the answer's own ids the slots name, `size` its UTF-8 bytes
 * (what the cache's byte bounds count).
 */
export type CachedBody =
  | {
      readonly kind: 'json';
      readonly template: ReplayTemplate;
      readonly ids: readonly string[];
      readonly size: number;
    }
  | {
      readonly kind: 'stream';
      readonly frames: readonly ReplayTemplate[];
      readonly ids: readonly string[];
      readonly size: number;
    };

type Json = Record<string, unknown>;

/**
 * The answer's ids, each numbered once, and the slot each found value takes: a `ref` only when it
 * names one of the ids, so a tool result and its call stay paired in every replay.
 */
function numbered(slots: readonly Slot[]): { ids: string[]; slotOf: (slot: Slot) => number | undefined } {
  const index = new Map<string, number>();
  for (const slot of slots) if (slot.kind === 'id' && !index.has(slot.value)) index.set(slot.value, index.size);
  return {
    ids: [...index.keys()],
    slotOf: (slot) => (slot.kind === 'time' ? TIME_SLOT : index.get(slot.value)),
  };
}

function marked(slots: readonly Slot[], slotOf: (slot: Slot) => number | undefined): MarkedValue[] {
  const out: MarkedValue[] = [];
  for (const found of slots) {
    const slot = slotOf(found);
    if (slot !== undefined) out.push({ at: found.at, value: found.value, slot });
  }
  return out;
}

/** Messages events that carry ids or a stop reason; the text deltas, most of a stream, need no reading. */
const MESSAGES_EVENTS_READ: ReadonlySet<string | undefined> = new Set([
  'message_start',
  'content_block_start',
  'message_delta',
]);

/** Whether an event may hold a slot or say the answer is not to be kept, so that it must be parsed. */
function mayMatter(endpoint: Endpoint, event: SseEvent): boolean {
  // An event without its name (valid SSE) is read: its type is then only in its data.
  return endpoint !== 'messages' || event.event === undefined || MESSAGES_EVENTS_READ.has(event.event);
}

function objectOf(data: string): Json | undefined {
  try {
    return objectAt(JSON.parse(data));
  } catch {
    return undefined;
  }
}

/**
 * A whole answer of `endpoint` to keep, or undefined when it is one not to keep (see unkept-answers).
 * `text` is the provider's own text of `body`, when the answer kept it, and `bytes` its UTF-8 length
 * when the caller measured it already (a big answer is not walked twice for it).
 */
export function keptJson(
  endpoint: Endpoint,
  body: object,
  text: string | undefined,
  bytes?: number,
): CachedBody | undefined {
  if (unkeptAnswer(endpoint, body as Json)) return undefined;
  const slots: Slot[] = [];
  answerSlots(endpoint, body as Json, (slot) => slots.push(slot));
  const source = text ?? JSON.stringify(body);
  const size = text !== undefined && bytes !== undefined ? bytes : Buffer.byteLength(source);
  if (slots.length === 0) return { kind: 'json', template: plainTemplate(source), ids: [], size };
  const { ids, slotOf } = numbered(slots);
  const values = marked(slots, slotOf);
  const cutter = new TemplateCutter([source]);
  const cut = cutter.mark(source, body, values);
  if (cut !== undefined) return { kind: 'json', template: cutter.template(cut), ids, size };
  if (text === undefined) return undefined;
  // The text and the object the answer carries tell different stories: the object's, which the replay then sends.
  return keptJson(endpoint, body, undefined);
}

/**
 * A streamed answer of `endpoint` to keep, or undefined when one of its events says not to (see
 * unkept-answers); `bytes`: the frames' UTF-8 length, measured as they passed.
 */
export function keptStream(endpoint: Endpoint, frames: readonly string[], bytes: number): CachedBody | undefined {
  const parser = new SseParser();
  const events: Array<Array<{ readonly event: SseEvent; readonly value?: Json; readonly slots: Slot[] }>> = [];
  const all: Slot[] = [];
  const read = (frame: SseEvent[]): boolean => {
    const ofFrame = [];
    for (const event of frame) {
      const value = mayMatter(endpoint, event) ? objectOf(event.data) : undefined;
      const slots: Slot[] = [];
      if (value !== undefined) {
        if (unkeptEvent(endpoint, value)) return false;
        eventSlots(endpoint, value, (slot) => slots.push(slot));
        all.push(...slots);
      }
      ofFrame.push({ event, value, slots });
    }
    events.push(ofFrame);
    return true;
  };
  for (const [index, frame] of frames.entries()) {
    const ofFrame = parser.push(frame);
    // The last frame's event counts even when it lacks its blank line.
    if (index === frames.length - 1) ofFrame.push(...parser.end());
    if (!read(ofFrame)) return undefined;
  }
  const { ids, slotOf } = numbered(all);
  const cutter = new TemplateCutter(frames);
  const templates: ReplayTemplate[] = [];
  for (const [index, frame] of frames.entries()) {
    const ofFrame = events[index]!;
    if (ofFrame.every(({ slots }) => slots.length === 0)) {
      templates.push(plainTemplate(frame));
      continue;
    }
    let text = '';
    for (const { event, value, slots } of ofFrame) {
      const data = slots.length === 0 ? event.data : cutter.mark(event.data, value!, marked(slots, slotOf));
      if (data === undefined) return undefined;
      text += encodeEvent({ ...event, data });
    }
    templates.push(cutter.template(text));
  }
  return { kind: 'stream', frames: templates, ids, size: bytes };
}

/** What one replay of a kept answer sends: fresh ids for the answer's own, the hit's time for its time. */
export function replayed(
  body: CachedBody,
): { readonly kind: 'json'; readonly text: string } | { readonly kind: 'stream'; readonly frames: readonly string[] } {
  const ids = body.ids.map((id) => JSON.stringify(freshId(id)));
  const time = String(Math.floor(Date.now() / 1000));
  if (body.kind === 'json') return { kind: 'json', text: renderTemplate(body.template, ids, time) };
  return { kind: 'stream', frames: body.frames.map((frame) => renderTemplate(frame, ids, time)) };
}
