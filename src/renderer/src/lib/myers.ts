/** One run of a sequence diff: `a[aStart, aEnd)` and `b[bStart, bEnd)`. */
export interface DiffRun {
  readonly type: 'equal' | 'delete' | 'insert';
  readonly aStart: number;
  readonly aEnd: number;
  readonly bStart: number;
  readonly bEnd: number;
  /** Set on a delete or insert that was not compared line by line (the edit was past the cost limit). */
  readonly uncompared?: boolean;
}

type Step = 'equal' | 'delete' | 'insert';

/**
 * Myers' O((N+M)·D) shortest edit script over two sequences of ids. Returns undefined when the edit
 * distance exceeds `maxCost`: the trace is O(D²) memory, and past that a coarse answer is better
 * than a frozen window.
 */
function shortestEdit(a: Int32Array, b: Int32Array, maxCost: number): Step[] | undefined {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const v = new Int32Array(2 * max + 3);
  const offset = max + 1;
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= max && d <= maxCost; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
    if (found >= 0) break;
  }
  if (found < 0) return undefined;

  const steps: Step[] = [];
  let x = n;
  let y = m;
  for (let d = found; d >= 0; d--) {
    const saved = trace[d]!;
    const at = (k: number): number => saved[k + d + 1]!;
    const k = x - y;
    let prevK: number;
    if (d === 0) prevK = 0;
    else prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      steps.push('equal');
      x--;
      y--;
    }
    if (d > 0) steps.push(x === prevX ? 'insert' : 'delete');
    x = prevX;
    y = prevY;
  }
  return steps.reverse();
}

function toRuns(steps: readonly Step[], aBase: number, bBase: number): DiffRun[] {
  const runs: DiffRun[] = [];
  let ai = aBase;
  let bi = bBase;
  for (const step of steps) {
    const last = runs[runs.length - 1];
    const da = step === 'insert' ? 0 : 1;
    const db = step === 'delete' ? 0 : 1;
    if (last && last.type === step) runs[runs.length - 1] = { ...last, aEnd: last.aEnd + da, bEnd: last.bEnd + db };
    else runs.push({ type: step, aStart: ai, aEnd: ai + da, bStart: bi, bEnd: bi + db });
    ai += da;
    bi += db;
  }
  return runs;
}

/**
 * The runs of a minimal edit script from `a` to `b` (ids, e.g. views into longer interned sequences
 * starting at `aBase` / `bBase`), or undefined past `maxCost` edits.
 */
export function myersRuns(
  a: Int32Array,
  b: Int32Array,
  aBase: number,
  bBase: number,
  maxCost: number,
): DiffRun[] | undefined {
  const steps = shortestEdit(a, b, maxCost);
  return steps && toRuns(steps, aBase, bBase);
}

/** Interns items so the inner loop compares integers, not strings; the third value is how many distinct ids. */
export function intern<T>(a: readonly T[], b: readonly T[]): [Int32Array, Int32Array, number] {
  const ids = new Map<T, number>();
  const idOf = (item: T): number => {
    let id = ids.get(item);
    if (id === undefined) ids.set(item, (id = ids.size));
    return id;
  };
  const ia = Int32Array.from(a, idOf);
  const ib = Int32Array.from(b, idOf);
  return [ia, ib, ids.size];
}

/**
 * Diffs two sequences into equal / delete / insert runs (deletes before inserts within a change).
 * Common prefix and suffix are trimmed first; beyond `maxCost` edits the middle is reported as one
 * delete and one insert, marked `uncompared`. Lines of documents go through `diffAnchored` instead.
 */
export function diffSequences<T>(a: readonly T[], b: readonly T[], maxCost = 2000): DiffRun[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let aEnd = a.length;
  let bEnd = b.length;
  while (aEnd > start && bEnd > start && a[aEnd - 1] === b[bEnd - 1]) {
    aEnd--;
    bEnd--;
  }
  const runs: DiffRun[] = [];
  if (start > 0) runs.push({ type: 'equal', aStart: 0, aEnd: start, bStart: 0, bEnd: start });
  const [ia, ib] = intern(a.slice(start, aEnd), b.slice(start, bEnd));
  const steps = shortestEdit(ia, ib, maxCost);
  if (steps) runs.push(...toRuns(steps, start, start));
  else {
    if (aEnd > start) runs.push({ type: 'delete', aStart: start, aEnd, bStart: start, bEnd: start, uncompared: true });
    if (bEnd > start) runs.push({ type: 'insert', aStart: aEnd, aEnd, bStart: start, bEnd, uncompared: true });
  }
  if (aEnd < a.length) runs.push({ type: 'equal', aStart: aEnd, aEnd: a.length, bStart: bEnd, bEnd: b.length });
  return runs;
}
