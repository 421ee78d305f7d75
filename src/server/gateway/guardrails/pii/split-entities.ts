import { listOf } from '../policy/part-runs.js';
import { findEntities, type Detector, type Found } from './detectors.js';
import { completesTopLevelDomain } from './top-level-domains.js';

/** A stretch of one text to replace: by the placeholder of `value` (the whole entity), or by nothing. */
export interface Piece extends Found {
  /** The entity's whole value when it runs on into the next parts; those parts' pieces are dropped. */
  readonly value?: string;
  readonly drop?: boolean;
}

/**
 * Entities cut between the text parts of one content list (`ada@exam` + `ple.com`): a provider puts
 * the parts side by side, so the model reads the whole value though no part holds it. Each is found
 * in the list's parts joined and returned as pieces per text: the first part's piece carries the
 * placeholder for the whole value, the later parts' pieces are removed. An entity found within one
 * part that such an entity holds whole gives way to it (the longer reading wins); one it would only
 * cut into, or a whole one that a part ends with where the next part starts anew, stands.
 */
export function splitEntities(
  texts: readonly string[],
  paths: readonly string[],
  found: readonly (readonly Found[])[],
  detectors: readonly Detector[],
): Map<number, Piece[]> {
  const pieces = new Map<number, Piece[]>();
  for (let first = 0; first < texts.length;) {
    const list = listOf(paths[first]!);
    let last = first;
    while (list !== undefined && last + 1 < texts.length && listOf(paths[last + 1]!) === list) last += 1;
    if (last > first) {
      const parts = new JoinedParts(texts.slice(first, last + 1), found.slice(first, last + 1));
      parts.read(0, parts.joined.length, detectors, (part, piece) => {
        const index = first + part;
        const own = (pieces.get(index) ?? found[index]!).filter(
          (taken) => taken.end <= piece.start || piece.end <= taken.start,
        );
        pieces.set(
          index,
          [...own, piece].sort((a, b) => a.start - b.start),
        );
      });
    }
    first = last + 1;
  }
  return pieces;
}

/** One content list's parts read side by side; offsets are in the joined text unless said otherwise. */
class JoinedParts {
  readonly joined: string;
  private readonly starts: number[] = [];

  constructor(
    private readonly texts: readonly string[],
    /** Each part's own entities, at offsets in the part. */
    private readonly found: readonly (readonly Found[])[],
  ) {
    let joined = '';
    for (const text of texts) {
      this.starts.push(joined.length);
      joined += text;
    }
    this.joined = joined;
  }

  /**
   * Finds the entities of `[from, to)` that span parts and hands out their pieces, part by part. Where
   * a part's own finding wins at a boundary, the stretches on either side are read again apart, so a
   * value cut between the later parts is still found.
   */
  read(from: number, to: number, detectors: readonly Detector[], add: (part: number, piece: Piece) => void): void {
    // A loop rather than a call per cut: a list of thousands of parts, each ending with a value of its
    // own, makes as many cuts, and a call each would run out of stack.
    let start = from;
    scanning: while (start < to) {
      const text = start === 0 && to === this.joined.length ? this.joined : this.joined.slice(start, to);
      for (const hit of findEntities(text, detectors)) {
        const entity = this.trimmed({ type: hit.type, start: hit.start + start, end: hit.end + start });
        if (entity === undefined) continue;
        const cut = this.boundaryOfOwn(entity);
        if (cut !== undefined) {
          this.read(entity.start, cut, detectors, add);
          start = cut;
          continue scanning;
        }
        this.place(entity, add);
      }
      return;
    }
  }

  /**
   * The entity without what it shares with a part's own entity it cuts into (`ada@example.combob`
   * where the next part holds `bob@example.org`): the part's finding stands whole, so no piece of it
   * goes upstream. Undefined when nothing spanning parts is left to place.
   */
  private trimmed(entity: Found): Found | undefined {
    let { start, end } = entity;
    const firstPart = this.partAt(start);
    // Within one part: found there already, unless only the parts before give it away (a label in
    // one part, `password: `, its value in the next).
    if (firstPart === this.partAt(end - 1)) return this.overlapsOwn(firstPart, start, end) ? undefined : entity;
    for (let part = firstPart; part <= this.partAt(end - 1); part += 1) {
      for (const own of this.found[part]!) {
        const ownStart = own.start + this.starts[part]!;
        const ownEnd = own.end + this.starts[part]!;
        if (ownEnd <= start || end <= ownStart || (start <= ownStart && ownEnd <= end)) continue;
        if (ownStart <= start) start = ownEnd;
        else end = ownStart;
      }
    }
    if (end <= start) return undefined;
    return start === entity.start && end === entity.end ? entity : { type: entity.type, start, end };
  }

  /** Whether `[start, end)` overlaps an entity the part found on its own. */
  private overlapsOwn(part: number, start: number, end: number): boolean {
    const offset = this.starts[part]!;
    return this.found[part]!.some((own) => own.start + offset < end && start < own.end + offset);
  }

  /**
   * The first boundary inside the entity where the part before ends with a whole entity of its own
   * that the reading across would only run on: the next part starts with an entity of its own
   * (`ada@example.com` + `bob@example.org`), or the address the part holds would take the word the
   * next part begins as the end of its domain (`ada@example.com` + `please reply` reads
   * `example.complease`). Elsewhere the parts are read joined, since a value cut there and read apart
   * would send the rest of it upstream as it is (a key cut inside its body, `ada@example.co` + `m`).
   */
  private boundaryOfOwn(entity: Found): number | undefined {
    const last = this.partAt(entity.end - 1);
    for (let part = this.partAt(entity.start); part < last; part += 1) {
      const boundary = this.starts[part + 1]!;
      const before = this.found[part]!.find(
        (own) => own.end + this.starts[part]! === boundary && own.start + this.starts[part]! >= entity.start,
      );
      if (before === undefined) continue;
      if (this.found[part + 1]!.some((own) => own.start === 0)) return boundary;
      if (entity.type !== 'email') continue;
      const runOn = this.joined.slice(boundary, Math.min(entity.end, this.starts[part + 2] ?? this.joined.length));
      const address = this.texts[part]!.slice(before.start, before.end);
      if (!completesTopLevelDomain(address, runOn)) return boundary;
    }
    return undefined;
  }

  /** Hands out an entity's pieces: its placeholder where it begins, nothing in the parts it runs on into. */
  private place(entity: Found, add: (part: number, piece: Piece) => void): void {
    const value = this.joined.slice(entity.start, entity.end);
    const firstPart = this.partAt(entity.start);
    for (let part = firstPart; part <= this.partAt(entity.end - 1); part += 1) {
      const start = Math.max(entity.start - this.starts[part]!, 0);
      const end = Math.min(entity.end - this.starts[part]!, this.texts[part]!.length);
      add(
        part,
        part === firstPart ? { type: entity.type, start, end, value } : { type: entity.type, start, end, drop: true },
      );
    }
  }

  /** The part holding `offset`: the last whose start is at or before it (a binary search: lists run to thousands). */
  private partAt(offset: number): number {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.starts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return low;
  }
}
