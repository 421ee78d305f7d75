import { MAX_PLACEHOLDER_CHARS, PLACEHOLDER } from './placeholders.js';

/**
 * Puts originals back in place of their placeholders in an answer. Whole texts (a JSON answer, a
 * complete stream event) are restored at once; streamed deltas per channel (one text or one tool
 * call's arguments), holding back only a trailing piece that may still become a placeholder with
 * the next delta: at most {@link MAX_PLACEHOLDER_CHARS} characters, never more of the stream.
 * Originals never hold a quote, a backslash or a control character (detectors.ts), so they go into
 * JSON text as they are.
 */
export class PiiRestorer {
  private readonly held = new Map<string, string>();

  constructor(private readonly originals: ReadonlyMap<string, string>) {}

  /** A whole text with every known placeholder restored (unknown ones, secrets among them, stay). */
  text(text: string): string {
    if (!text.includes('[')) return text;
    return text.replace(PLACEHOLDER, (name) => this.originals.get(name) ?? name);
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
   * is not closed and whose tail is the beginning of a placeholder this request can restore.
   */
  private unfinishedFrom(text: string): number {
    const open = text.lastIndexOf('[');
    if (open < 0 || text.length - open >= MAX_PLACEHOLDER_CHARS || text.includes(']', open)) return text.length;
    const tail = text.slice(open);
    for (const name of this.originals.keys()) if (name.startsWith(tail)) return open;
    return text.length;
  }
}
