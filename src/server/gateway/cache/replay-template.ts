import { randomBytes } from 'node:crypto';
import { visitJsonText } from '../formats/json-text-visit.js';
import type { TextLocation } from '../formats/text-visitor.js';
import type { JsonPath } from './replay-slots.js';

/**
 * A kept text cut around the values each replay changes: `texts[0]`, the value of `slots[0]`,
 * `texts[1]`, ... A slot indexes the answer's ids, or is {@link TIME_SLOT}. A replay joins the pieces,
 * so a hit parses nothing.
 */
export interface ReplayTemplate {
  readonly texts: readonly string[];
  readonly slots: readonly number[];
}

/** The slot of the time the answer was made at: the hit's time, in seconds. */
export const TIME_SLOT = -1;

/** A value to cut out of a JSON text: at `at`, holding `value`, replayed as `slot`. */
export interface MarkedValue {
  readonly at: JsonPath;
  readonly value: string | number;
  readonly slot: number;
}

/** A path as {@link visitJsonText} names it (`.choices[0].id`). */
function pathText(at: JsonPath): string {
  let out = '';
  for (const step of at) out += typeof step === 'number' ? `[${step}]` : `.${step}`;
  return out;
}

/** A copy of `root` with `values` set, copying only the containers on their paths. */
function withValues(root: object, values: ReadonlyArray<readonly [JsonPath, string]>): object {
  const copies = new Map<object, Record<string | number, unknown>>();
  const copyOf = (value: object): Record<string | number, unknown> => {
    let copy = copies.get(value);
    if (copy === undefined) {
      copy = (Array.isArray(value) ? [...(value as unknown[])] : { ...value }) as Record<string | number, unknown>;
      copies.set(value, copy);
    }
    return copy;
  };
  const top = copyOf(root);
  for (const [at, replacement] of values) {
    let original = root as Record<string | number, unknown>;
    let copy = top;
    for (let index = 0; index < at.length - 1; index += 1) {
      original = original[at[index]!] as Record<string | number, unknown>;
      copy = copy[at[index]!] = copyOf(original);
    }
    copy[at[at.length - 1]!] = replacement;
  }
  return top;
}

const WHERE: TextLocation = { kind: 'passed', role: 'assistant', messageIndex: -1, path: '' };

/** A text kept as it is. */
export function plainTemplate(text: string): ReplayTemplate {
  return { texts: [text], slots: [] };
}

/** The template's text with each slot's value: `ids` JSON-encoded by slot, `time` a number's text. */
export function renderTemplate(template: ReplayTemplate, ids: readonly string[], time: string): string {
  const { texts, slots } = template;
  let out = texts[0]!;
  for (let index = 0; index < slots.length; index += 1) {
    const slot = slots[index]!;
    out += (slot === TIME_SLOT ? time : ids[slot]!) + texts[index + 1]!;
  }
  return out;
}

/**
 * Cuts values out of JSON texts by their path, every other byte kept as the provider wrote it
 * (spacing, key order, numbers past a double's precision). The JSON walk writes a marker in place of
 * each value, a string that none of the texts holds, and the marked text is then split at the markers.
 */
export class TemplateCutter {
  readonly #nonce: string;
  readonly #marker: RegExp;

  /** `texts`: all the texts this cutter will mark, none of which may hold its marker. */
  constructor(texts: readonly string[]) {
    let nonce: string;
    do nonce = `gh${randomBytes(12).toString('hex')}`;
    while (texts.some((text) => text.includes(nonce)));
    this.#nonce = nonce;
    this.#marker = new RegExp(`"${nonce}(-?\\d+)"`);
  }

  /**
   * `text`, which reads as `parsed`, with a marker in place of each value; undefined when one of them
   * is not where its path says. A text written as JSON.stringify writes it (the gateway's own frames,
   * a compact provider's) is marked by writing a marked copy, which gives the same bytes around the
   * markers at a fraction of the walk's cost.
   */
  mark(text: string, parsed: object, values: readonly MarkedValue[]): string | undefined {
    if (JSON.stringify(parsed) === text)
      return JSON.stringify(
        withValues(
          parsed,
          values.map((value) => [value.at, this.#markerOf(value.slot)]),
        ),
      );
    const byPath = new Map(values.map((value) => [pathText(value.at), value]));
    const visits = new Map<string, number>();
    const found = new Set<string>();
    const marked = visitJsonText(
      text,
      (shown, { path }) => {
        const wanted = byPath.get(path);
        if (wanted === undefined) return undefined;
        // A member's key is visited under the member's own path, before its value: skip it.
        const count = (visits.get(path) ?? 0) + 1;
        visits.set(path, count);
        if (count % 2 === 1) return undefined;
        const same = typeof wanted.value === 'number' ? Number(shown) === wanted.value : shown === wanted.value;
        if (!same) return undefined;
        found.add(path);
        return this.#markerOf(wanted.slot);
      },
      WHERE,
    );
    return marked !== null && found.size === byPath.size ? marked : undefined;
  }

  #markerOf(slot: number): string {
    return `${this.#nonce}${slot}`;
  }

  /** A marked text (one or several joined) cut at its markers. */
  template(marked: string): ReplayTemplate {
    const parts = marked.split(this.#marker);
    const texts: string[] = [];
    const slots: number[] = [];
    for (let index = 0; index < parts.length; index += 1)
      if (index % 2 === 0) texts.push(parts[index]!);
      else slots.push(Number(parts[index]));
    return { texts, slots };
  }
}
