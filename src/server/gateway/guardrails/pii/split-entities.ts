import { listOf } from '../policy/part-runs.js';
import { findEntities, type Detector, type Found } from './detectors.js';

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
 * part that such an entity overlaps gives way to it (the longer reading wins).
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
    if (last > first) addSplits(texts, found, detectors, first, last, pieces);
    first = last + 1;
  }
  return pieces;
}

function addSplits(
  texts: readonly string[],
  found: readonly (readonly Found[])[],
  detectors: readonly Detector[],
  first: number,
  last: number,
  into: Map<number, Piece[]>,
): void {
  const starts: number[] = [];
  let joined = '';
  for (let index = first; index <= last; index += 1) {
    starts.push(joined.length);
    joined += texts[index]!;
  }
  const partAt = (offset: number): number => {
    let part = 0;
    while (part + 1 < starts.length && starts[part + 1]! <= offset) part += 1;
    return part;
  };
  for (const entity of findEntities(joined, detectors)) {
    const from = partAt(entity.start);
    const to = partAt(entity.end - 1);
    if (from === to) continue; // within one part: found there already
    if (runsIntoWord(texts, found, first, starts, entity, from, to)) continue;
    const value = joined.slice(entity.start, entity.end);
    for (let part = from; part <= to; part += 1) {
      const index = first + part;
      const start = Math.max(entity.start - starts[part]!, 0);
      const end = Math.min(entity.end - starts[part]!, texts[index]!.length);
      const piece: Piece =
        part === from ? { type: entity.type, start, end, value } : { type: entity.type, start, end, drop: true };
      const own = (into.get(index) ?? found[index]!).filter((taken) => taken.end <= start || end <= taken.start);
      into.set(
        index,
        [...own, piece].sort((a, b) => a.start - b.start),
      );
    }
  }
}

/** A word that starts where a part starts: a capital, then letters only (`Thanks`, `IBAN`). */
const NEW_WORD = /^\p{Lu}\p{L}*$/u;
const ENDS_LOWER = /\p{Ll}$/u;

/**
 * Whether a reading across two parts is an address that the first part holds whole, run on into a
 * word the next part begins: `ada@example.com` + `Thanks a lot` reads `example.comThanks` as the
 * domain, which would take the word from the next part and give it back glued to the address. The
 * first part's own address then stands. Only for e-mail addresses, and only where the run-on is a
 * capitalised word after a lowercase end (a domain's letters do not change case mid-way): anything
 * less clear is read joined, since a cut value read apart would send the rest of it upstream as it
 * is (`ada.love` + `lace@example.com`, a key cut inside its body, `ada@example.co` + `m`).
 */
function runsIntoWord(
  texts: readonly string[],
  found: readonly (readonly Found[])[],
  first: number,
  starts: readonly number[],
  entity: Found,
  from: number,
  to: number,
): boolean {
  if (entity.type !== 'email' || to !== from + 1) return false;
  const left = texts[first + from]!;
  const runOn = texts[first + to]!.slice(0, entity.end - starts[to]!);
  const wholeAtEnd = found[first + from]!.some(
    (own) => own.type === 'email' && own.end === left.length && starts[from]! + own.start === entity.start,
  );
  return wholeAtEnd && ENDS_LOWER.test(left) && NEW_WORD.test(runOn);
}
