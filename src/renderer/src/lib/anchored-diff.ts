import { intern, myersRuns, type DiffRun } from './myers.js';

/**
 * Edits past which one stretch between anchors is shown as replaced rather than compared. Myers keeps
 * an O(D²) trace, and a stretch this different reads as a rewrite anyway.
 */
export const LINE_COST_LIMIT = 2000;

// Myers costs O((N+M)·D). It is tried first on each range with the D this much work allows: a small or
// lightly edited document gets the same minimal diff as before, and a large heavily edited one goes on
// to anchoring at once instead of spending seconds on it.
const QUICK_WORK = 2_000_000;
// The last resort, a range with no line unique to both sides: bounded so a huge one cannot freeze the window.
const LAST_RESORT_WORK = 40_000_000;
// Cells of the table a range with no anchors is compared by when Myers' edit limit stops it: a range
// where one side is small (an edited line beside thousands added) has few lines that can match, however
// many edits it takes, so its cost is the product of its sides, not its edit count. One bit per cell.
const TABLE_CELLS = 10_000_000;

/** Collects runs in order, joining a run to the one before it when they continue each other. */
class RunList {
  readonly runs: DiffRun[] = [];

  add(run: DiffRun): void {
    if (run.aStart === run.aEnd && run.bStart === run.bEnd) return;
    const last = this.runs[this.runs.length - 1];
    if (
      last &&
      last.type === run.type &&
      !last.uncompared === !run.uncompared &&
      last.aEnd === run.aStart &&
      last.bEnd === run.bStart
    ) {
      this.runs[this.runs.length - 1] = { ...last, aEnd: run.aEnd, bEnd: run.bEnd };
    } else this.runs.push(run);
  }
}

/**
 * Pairs of positions (in `a`, in `b`) of lines that occur exactly once in each range, the longest chain
 * of them in the same order on both sides (patience diff's anchors).
 */
function uniqueAnchors({ a, b, idCount }: Job, { aLo, aHi, bLo, bHi }: Range): [number, number][] {
  const inA = new Uint8Array(idCount);
  const inB = new Uint8Array(idCount);
  const bAt = new Int32Array(idCount);
  // Counts stop at 2: only "once" matters.
  for (let i = aLo; i < aHi; i++) if (inA[a[i]!]! < 2) inA[a[i]!]!++;
  for (let j = bLo; j < bHi; j++) {
    if (inB[b[j]!]! < 2) inB[b[j]!]!++;
    bAt[b[j]!] = j;
  }
  const aPos: number[] = [];
  const bPos: number[] = [];
  for (let i = aLo; i < aHi; i++) {
    if (inA[a[i]!] === 1 && inB[a[i]!] === 1) {
      aPos.push(i);
      bPos.push(bAt[a[i]!]!);
    }
  }
  // Longest increasing subsequence of the `b` positions (patience sorting), O(k log k).
  const tails: number[] = [];
  const previous = new Int32Array(aPos.length).fill(-1);
  for (let index = 0; index < bPos.length; index++) {
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (bPos[tails[mid]!]! < bPos[index]!) low = mid + 1;
      else high = mid;
    }
    if (low > 0) previous[index] = tails[low - 1]!;
    tails[low] = index;
  }
  const chain: [number, number][] = [];
  for (let index = tails[tails.length - 1] ?? -1; index >= 0; index = previous[index]!) {
    chain.push([aPos[index]!, bPos[index]!]);
  }
  return chain.reverse();
}

/** One diff being worked out: the interned sequences, how many distinct ids, the cost limit, the runs so far. */
interface Job {
  readonly a: Int32Array;
  readonly b: Int32Array;
  readonly idCount: number;
  readonly maxCost: number;
  readonly out: RunList;
}

/** `a[aLo, aHi)` against `b[bLo, bHi)`. */
interface Range {
  readonly aLo: number;
  readonly aHi: number;
  readonly bLo: number;
  readonly bHi: number;
}

function diffRange(job: Job, range: Range): void {
  const { a, b, out } = job;
  let { aLo, aHi, bLo, bHi } = range;
  const aStart = aLo;
  const bStart = bLo;
  while (aLo < aHi && bLo < bHi && a[aLo] === b[bLo]) {
    aLo++;
    bLo++;
  }
  out.add({ type: 'equal', aStart, aEnd: aLo, bStart, bEnd: bLo });
  const aEnd = aHi;
  const bEnd = bHi;
  while (aHi > aLo && bHi > bLo && a[aHi - 1] === b[bHi - 1]) {
    aHi--;
    bHi--;
  }
  diffMiddle(job, { aLo, aHi, bLo, bHi });
  out.add({ type: 'equal', aStart: aHi, aEnd, bStart: bHi, bEnd });
}

/**
 * Diffs a range whose first and last lines differ: Myers if cheap, else between anchors, else by the
 * table when its sides multiply to little, else Myers capped.
 */
function diffMiddle(job: Job, range: Range): void {
  const { a, b, out, maxCost } = job;
  const { aLo, aHi, bLo, bHi } = range;
  const size = aHi - aLo + (bHi - bLo);
  if (aLo === aHi || bLo === bHi) {
    out.add({ type: 'delete', aStart: aLo, aEnd: aHi, bStart: bLo, bEnd: bLo });
    out.add({ type: 'insert', aStart: aHi, aEnd: aHi, bStart: bLo, bEnd: bHi });
    return;
  }
  const myers = (work: number): DiffRun[] | undefined =>
    myersRuns(a.subarray(aLo, aHi), b.subarray(bLo, bHi), aLo, bLo, Math.min(maxCost, Math.floor(work / size)));
  const quick = myers(QUICK_WORK);
  if (quick) {
    quick.forEach((run) => out.add(run));
    return;
  }
  const anchors = uniqueAnchors(job, range);
  if (anchors.length > 0) {
    let aAt = aLo;
    let bAt = bLo;
    for (const [aAnchor, bAnchor] of anchors) {
      diffRange(job, { aLo: aAt, aHi: aAnchor, bLo: bAt, bHi: bAnchor });
      out.add({ type: 'equal', aStart: aAnchor, aEnd: aAnchor + 1, bStart: bAnchor, bEnd: bAnchor + 1 });
      aAt = aAnchor + 1;
      bAt = bAnchor + 1;
    }
    diffRange(job, { aLo: aAt, aHi, bLo: bAt, bHi });
    return;
  }
  const n = aHi - aLo;
  const m = bHi - bLo;
  if (n * m <= TABLE_CELLS) {
    tableRuns(a.subarray(aLo, aHi), b.subarray(bLo, bHi), aLo, bLo).forEach((run) => out.add(run));
    return;
  }
  const last = myers(LAST_RESORT_WORK);
  if (last) {
    last.forEach((run) => out.add(run));
    return;
  }
  out.add({ type: 'delete', aStart: aLo, aEnd: aHi, bStart: bLo, bEnd: bLo, uncompared: true });
  out.add({ type: 'insert', aStart: aHi, aEnd: aHi, bStart: bLo, bEnd: bHi, uncompared: true });
}

/**
 * A minimal diff by the longest-common-subsequence table, O(n·m) time and n·m bits, whatever the
 * edit count: for ranges whose sides multiply to little, where Myers' O(D²) trace would not fit.
 * Deletes come before inserts within a change, as Myers gives them.
 */
function tableRuns(a: Int32Array, b: Int32Array, aBase: number, bBase: number): DiffRun[] {
  const n = a.length;
  const m = b.length;
  // Bit (i·m + j) set: dropping a[i] keeps the longest common subsequence of a[i..] and b[j..].
  const dropA = new Uint8Array(Math.ceil((n * m) / 8));
  let below = new Int32Array(m + 1);
  let row = new Int32Array(m + 1);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      if (a[i] === b[j]) row[j] = below[j + 1]! + 1;
      else if (below[j]! >= row[j + 1]!) {
        row[j] = below[j]!;
        const cell = i * m + j;
        dropA[cell >> 3]! |= 1 << (cell & 7);
      } else row[j] = row[j + 1]!;
    }
    [below, row] = [row, below];
  }
  const runs = new RunList();
  let i = 0;
  let j = 0;
  const step = (type: DiffRun['type'], da: number, db: number): void => {
    runs.add({ type, aStart: aBase + i, aEnd: aBase + i + da, bStart: bBase + j, bEnd: bBase + j + db });
    i += da;
    j += db;
  };
  while (i < n || j < m) {
    const cell = i * m + j;
    if (i === n) step('insert', 0, 1);
    else if (j === m) step('delete', 1, 0);
    else if (a[i] === b[j]) step('equal', 1, 1);
    else if (dropA[cell >> 3]! & (1 << (cell & 7))) step('delete', 1, 0);
    else step('insert', 0, 1);
  }
  return runs.runs;
}

/**
 * Diffs two sequences of lines into equal / delete / insert runs, exactly for realistic documents of
 * any size: common prefix and suffix trimmed, then Myers where it is cheap, else anchored on lines
 * unique to both sides and Myers between anchors, and a range with no anchors whose sides multiply to
 * little (one side small) by the table of common subsequences. A stretch still past `maxCost` edits
 * (or the work bound) comes back as one delete and one insert marked `uncompared`, for the reader to be told.
 */
export function diffAnchored<T>(a: readonly T[], b: readonly T[], maxCost = LINE_COST_LIMIT): DiffRun[] {
  const [ia, ib, idCount] = intern(a, b);
  const out = new RunList();
  diffRange({ a: ia, b: ib, idCount, maxCost, out }, { aLo: 0, aHi: ia.length, bLo: 0, bHi: ib.length });
  return out.runs;
}
