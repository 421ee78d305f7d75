import type { PiiEntityType } from '../../../../shared/guardrails-api.js';
import type { Piece } from './split-entities.js';
import { PLACEHOLDER, placeholder } from './placeholders.js';

/**
 * One request's placeholders: the same value gets the same placeholder everywhere in the request,
 * numbered per type in order of appearance, skipping placeholders the request already holds as text
 * (earlier redacted turns sent back), so the model never sees two values behind one placeholder.
 */
export class PiiScrubber {
  /** Placeholder to original, for the values the answer may get back (mask mode, never secrets). */
  readonly originals = new Map<string, string>();
  private readonly assigned = new Map<string, string>();
  private readonly next = new Map<PiiEntityType, number>();

  constructor(
    private readonly restore: boolean,
    private readonly reserved: ReadonlySet<string>,
  ) {}

  /**
   * The text with every found entity replaced by its placeholder; a piece of an entity that began in
   * an earlier part is removed (that part's placeholder stands for the whole value).
   */
  scrub(text: string, found: readonly Piece[]): string {
    let out = '';
    let at = 0;
    for (const entity of found) {
      const value = entity.value ?? text.slice(entity.start, entity.end);
      out += text.slice(at, entity.start) + (entity.drop ? '' : this.placeholderOf(entity.type, value));
      at = entity.end;
    }
    return out + text.slice(at);
  }

  private placeholderOf(type: PiiEntityType, value: string): string {
    const id = `${type}\u0000${value}`;
    const known = this.assigned.get(id);
    if (known !== undefined) return known;
    let n = this.next.get(type) ?? 1;
    let name = placeholder(type, n);
    while (this.reserved.has(name)) name = placeholder(type, ++n);
    this.next.set(type, n + 1);
    this.assigned.set(id, name);
    if (this.restore && type !== 'secret') this.originals.set(name, value);
    return name;
  }
}

/** Placeholders written literally in a text (added to `into`). */
export function collectPlaceholders(text: string, into: Set<string>): void {
  if (!text.includes('[')) return;
  for (const match of text.matchAll(PLACEHOLDER)) into.add(match[0]);
}
