import { MAX_PLACEHOLDER_CHARS, PLACEHOLDER } from './placeholders.js';

/**
 * Placeholders as a model may write them back: in any case (`[email_1]`, `[Email_1]`), since models
 * retype what they quote. Each is looked up by its upper-case name, so only this request's own come back.
 */
const ANY_CASE_PLACEHOLDER = new RegExp(PLACEHOLDER.source, 'gi');

/** Any placeholder, for a yes-or-no test (not global: no state between calls). */
const HAS_PLACEHOLDER = new RegExp(PLACEHOLDER.source, 'i');

/** The model's reasoning, by `type`: blocks, deltas, items and stream events. */
function isReasoning(type: string): boolean {
  return (
    type === 'thinking' ||
    type === 'redacted_thinking' ||
    type === 'thinking_delta' ||
    type === 'signature_delta' ||
    type === 'reasoning' ||
    type.startsWith('response.reasoning')
  );
}

/** Chat answers' reasoning text, by key (DeepSeek's and vLLM's `reasoning_content`, OpenRouter's `reasoning`). */
const REASONING_KEYS: ReadonlySet<string> = new Set(['reasoning_content', 'reasoning']);

/**
 * Puts originals back in place of their placeholders in an answer. Whole texts (a JSON answer, a
 * complete stream event) are restored at once; streamed deltas per channel (one text or one tool
 * call's arguments), holding back only a trailing piece that may still become a placeholder with
 * the next delta: at most {@link MAX_PLACEHOLDER_CHARS} characters, never more of the stream.
 * Whole events and answers are restored on their parsed values and serialised again; originals never
 * hold a quote, a backslash or a control character (detectors.ts), so they also go into tool-call
 * arguments (JSON text inside a string) as they are.
 */
export class PiiRestorer {
  private readonly held = new Map<string, string>();

  constructor(private readonly originals: ReadonlyMap<string, string>) {}

  /** A whole text with every known placeholder restored, in any case (unknown ones, secrets among them, stay). */
  text(text: string): string {
    if (!text.includes('[')) return text;
    return text.replace(ANY_CASE_PLACEHOLDER, (name) => this.originals.get(name.toUpperCase()) ?? name);
  }

  /**
   * A JSON value with every string restored, except inside the model's reasoning (Messages `thinking`
   * blocks and their deltas, Responses `reasoning` items and events): those stay as the model wrote
   * them, since a thinking block is signed over its text and either comes back in a later request
   * unscrubbed (reasoning is not prose a request visitor reads), so originals there would reach the upstream.
   */
  value(value: unknown): unknown {
    if (typeof value === 'string') return this.text(value);
    if (Array.isArray(value)) return value.map((item) => this.value(item));
    if (value === null || typeof value !== 'object') return value;
    const type = (value as { type?: unknown }).type;
    if (typeof type === 'string' && isReasoning(type)) return value;
    const out: Record<string, unknown> = {};
    // Keys too: a Messages tool_use input may name a value by it (`{"[EMAIL_1]": "admin"}`).
    for (const [key, item] of Object.entries(value))
      out[this.text(key)] = REASONING_KEYS.has(key) ? item : this.value(item);
    return out;
  }

  /** A JSON text restored as {@link value} does; the text itself when it holds no placeholder. */
  json(text: string): string {
    if (!text.includes('[') || !HAS_PLACEHOLDER.test(text)) return text;
    return JSON.stringify(this.value(JSON.parse(text)));
  }

  /** The restorable part of a channel's text so far: what was held back, plus this delta, minus a new unfinished tail. */
  delta(channel: string, delta: string): string {
    const held = this.held.get(channel);
    const text = held === undefined ? delta : held + delta;
    const cut = this.unfinishedFrom(text);
    if (cut === text.length) {
      if (held !== undefined) this.held.delete(channel);
      return this.text(text);
    }
    this.held.set(channel, text.slice(cut));
    return this.text(text.slice(0, cut));
  }

  /** What a channel still holds back (its text ended), restored as far as it can be; empty when nothing. */
  flush(channel: string): string {
    const held = this.held.get(channel);
    if (held === undefined) return '';
    this.held.delete(channel);
    return this.text(held);
  }

  /** Channels holding text back. */
  holding(): IterableIterator<string> {
    return this.held.keys();
  }

  /** True when a channel holds text back. */
  get pending(): boolean {
    return this.held.size > 0;
  }

  /**
   * Where an unfinished placeholder starts at the end of the text (its length when none): a `[` that
   * is not closed and whose tail is the beginning, in any case, of a placeholder this request can restore.
   */
  private unfinishedFrom(text: string): number {
    const open = text.lastIndexOf('[');
    if (open < 0 || text.length - open >= MAX_PLACEHOLDER_CHARS || text.includes(']', open)) return text.length;
    const tail = text.slice(open).toUpperCase();
    for (const name of this.originals.keys()) if (name.startsWith(tail)) return open;
    return text.length;
  }
}
