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
   * an earlier part is removed (that part's placeholder stands for the whole value). In `json` (a tool
   * call's arguments or a tool's result), a value written as a JSON number (`{"card":4111111111111111}`)
   * becomes a JSON string: a bare placeholder there left text no parser reads, and a translation to
   * Messages then sent the arguments as `_raw_arguments`.
   */
  scrub(text: string, found: readonly Piece[], json = false): string {
    let out = '';
    let at = 0;
    let numbers: JsonNumbers | undefined;
    for (const entity of found) {
      const value = entity.value ?? text.slice(entity.start, entity.end);
      let replacement = entity.drop ? '' : this.placeholderOf(entity.type, value);
      if (json && !entity.drop && (numbers ??= new JsonNumbers(text)).isNumber(entity.start, entity.end))
        replacement = `"${replacement}"`;
      out += text.slice(at, entity.start) + replacement;
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

/**
 * Which stretches of a text are whole number tokens of it as JSON: read only when the text is JSON,
 * and only for the stretches asked about (a tool text with an entity in it).
 */
class JsonNumbers {
  private readonly json: boolean;

  constructor(private readonly text: string) {
    const first = text.trimStart()[0];
    let json = first === '{' || first === '[';
    if (json)
      try {
        JSON.parse(text);
      } catch {
        json = false;
      }
    this.json = json;
  }

  /** Whether `[start, end)` is a number token: digits outside any string, between JSON's separators. */
  isNumber(start: number, end: number): boolean {
    if (!this.json || !NUMBER_TOKEN.test(this.text.slice(start, end))) return false;
    const before = this.text.slice(0, start).trimEnd().at(-1);
    const after = this.text.slice(end).trimStart()[0];
    if (
      !(before === ':' || before === '[' || before === ',') ||
      !(after === undefined || after === ',' || after === '}' || after === ']')
    )
      return false;
    return !insideString(this.text, start);
  }
}

const NUMBER_TOKEN = /^-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?$/;

/** Whether `position` of a JSON text is inside a string (its quotes counted, escaped ones not). */
function insideString(text: string, position: number): boolean {
  let inside = false;
  for (let index = 0; index < position; index += 1) {
    const char = text.charCodeAt(index);
    if (char === 92 /* \\ */ && inside) index += 1;
    else if (char === 34 /* " */) inside = !inside;
  }
  return inside;
}
