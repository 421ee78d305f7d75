import { diffAnchored } from './anchored-diff.js';
import { diffSequences } from './myers.js';

/** A piece of a changed line; `changed` marks the words that differ from the paired line. */
export interface Segment {
  readonly text: string;
  readonly changed: boolean;
}

/** One line of a unified diff. Line numbers are 1-based; a side's number is absent when the line is not on it. */
export interface DiffLine {
  readonly kind: 'context' | 'add' | 'del';
  readonly text: string;
  readonly oldNo?: number;
  readonly newNo?: number;
  /** Word-level segments when this line was paired with a changed counterpart. */
  readonly segments?: readonly Segment[];
  /** The document ends with this line and no newline after it. */
  readonly noNewline?: boolean;
  /** A changed line of a stretch too large to compare line by line: shown as replaced, not counted. */
  readonly uncompared?: boolean;
  /** The old version's text of an unchanged line whose whitespace changed (when whitespace changes are hidden). */
  readonly oldText?: string;
}

/** How lines are compared. */
export interface DiffOptions {
  /** Lines that differ only in whitespace (line endings included) count as unchanged, as `git diff -w`. */
  readonly ignoreWhitespace?: boolean;
}

/** Splits content into lines; a final newline does not make an extra empty line. */
export function splitLines(content: string): string[] {
  if (content === '') return [];
  const lines = content.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** A line of a document as the diff compares it: a carriage return before its newline stays in `text`. */
interface SourceLine {
  readonly text: string;
  readonly noNewline: boolean;
}

/**
 * Splits content for diffing. Unlike `splitLines`, line endings count: a line that went from LF to
 * CRLF, or a final newline added or removed, is a changed line, never an invisible one.
 */
function diffSource(content: string): SourceLine[] {
  if (content === '') return [];
  const lines = content.split('\n');
  const noNewline = lines[lines.length - 1] !== '';
  if (!noNewline) lines.pop();
  return lines.map((text, index) => ({ text, noNewline: noNewline && index === lines.length - 1 }));
}

// A line cannot hold a newline, so this suffix tells "last line without newline" apart from any other line.
const compareKey = (line: SourceLine): string => (line.noNewline ? `${line.text}\n` : line.text);
const whitespaceFreeKey = (line: SourceLine): string => line.text.replace(/\s+/g, '');

const TOKEN = /\s+|[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu;

/** Words, runs of whitespace and single punctuation marks: the units of word-level highlighting. */
export function tokenize(line: string): string[] {
  return line.match(TOKEN) ?? [];
}

function merge(segments: Segment[]): Segment[] {
  const out: Segment[] = [];
  for (const segment of segments) {
    const last = out[out.length - 1];
    if (last && last.changed === segment.changed)
      out[out.length - 1] = { text: last.text + segment.text, changed: last.changed };
    else if (segment.text) out.push(segment);
  }
  return out;
}

/**
 * Word-level diff of a deleted and an added line. Undefined when they share too little for
 * highlights to help (then the whole line reads as replaced).
 */
export function diffWords(before: string, after: string): { before: Segment[]; after: Segment[] } | undefined {
  const a = tokenize(before);
  const b = tokenize(after);
  // Myers costs O((N+M)·D): long lines get a lower edit limit, so one pair never costs more than this.
  const runs = diffSequences(a, b, Math.min(500, Math.floor(WORD_WORK / (a.length + b.length || 1))));
  let common = 0;
  const left: Segment[] = [];
  const right: Segment[] = [];
  for (const run of runs) {
    if (run.type === 'equal') {
      const text = a.slice(run.aStart, run.aEnd).join('');
      common += text.replace(/\s/g, '').length;
      left.push({ text, changed: false });
      right.push({ text, changed: false });
    } else if (run.type === 'delete') left.push({ text: a.slice(run.aStart, run.aEnd).join(''), changed: true });
    else right.push({ text: b.slice(run.bStart, run.bEnd).join(''), changed: true });
  }
  const longest = Math.max(before.replace(/\s/g, '').length, after.replace(/\s/g, '').length);
  if (longest > 0 && common / longest < 0.3) return undefined;
  return { before: merge(left), after: merge(right) };
}

/**
 * Bounds on word-level pairing, so a diff of tens of thousands of changed lines stays quick: a block
 * with more pairs than this reads as a rewrite (no highlights), and pairing stops for the rest of a
 * diff once this many characters of lines were paired.
 */
const WORD_PAIR_BLOCK_LIMIT = 1000;
const WORD_PAIR_CHARS = 1_000_000;
const WORD_WORK = 200_000;

/** Pairs the deleted and added lines of one change block and adds word-level segments, within `budget`. */
function changeBlock(dels: DiffLine[], adds: DiffLine[], budget: { chars: number }): DiffLine[] {
  const pairs = Math.min(dels.length, adds.length);
  if (pairs > WORD_PAIR_BLOCK_LIMIT || dels[0]?.uncompared || adds[0]?.uncompared) return [...dels, ...adds];
  for (let i = 0; i < pairs; i++) {
    budget.chars -= dels[i]!.text.length + adds[i]!.text.length;
    if (budget.chars < 0) break;
    const words = diffWords(dels[i]!.text, adds[i]!.text);
    if (!words) continue;
    dels[i] = { ...dels[i]!, segments: words.before };
    adds[i] = { ...adds[i]!, segments: words.after };
  }
  return [...dels, ...adds];
}

/**
 * A unified line diff of two versions of a document, with word-level segments on paired changed
 * lines. `before` undefined means the document was created; `after` undefined, deleted.
 */
export function diffLines(
  before: string | undefined,
  after: string | undefined,
  options: DiffOptions = {},
): DiffLine[] {
  // The header's counts and the diff itself ask for the same diff of a large document: computed once.
  const ignoreWhitespace = options.ignoreWhitespace ?? false;
  const cached = recent.find(
    (entry) => entry.before === before && entry.after === after && entry.ignoreWhitespace === ignoreWhitespace,
  );
  if (cached) return cached.lines;
  const lines = computeDiffLines(before, after, ignoreWhitespace);
  recent.unshift({ before, after, ignoreWhitespace, lines });
  recent.length = Math.min(recent.length, RECENT_DIFFS);
  return lines;
}

const RECENT_DIFFS = 4;
const recent: {
  before: string | undefined;
  after: string | undefined;
  ignoreWhitespace: boolean;
  lines: DiffLine[];
}[] = [];

function computeDiffLines(
  before: string | undefined,
  after: string | undefined,
  ignoreWhitespace: boolean,
): DiffLine[] {
  const a = diffSource(before ?? '');
  const b = diffSource(after ?? '');
  const out: DiffLine[] = [];
  let dels: DiffLine[] = [];
  let adds: DiffLine[] = [];
  const budget = { chars: WORD_PAIR_CHARS };
  const flush = (): void => {
    if (dels.length || adds.length) out.push(...changeBlock(dels, adds, budget));
    dels = [];
    adds = [];
  };
  // A created or deleted document has no other version whose final newline could differ.
  const modified = before !== undefined && after !== undefined;
  const line = (source: SourceLine, fields: Omit<DiffLine, 'text' | 'noNewline'>): DiffLine =>
    modified && source.noNewline ? { ...fields, text: source.text, noNewline: true } : { ...fields, text: source.text };
  const key = ignoreWhitespace ? whitespaceFreeKey : compareKey;
  // Marks only what is true, so lines of small diffs stay as they were.
  const uncompared = (flag: boolean | undefined) => (flag ? { uncompared: true } : {});
  for (const run of diffAnchored(a.map(key), b.map(key))) {
    if (run.type === 'equal') {
      flush();
      for (let i = 0; i < run.aEnd - run.aStart; i++) {
        const old = a[run.aStart + i]!;
        // Equal keys with whitespace ignored: the line shows as the new version has it, the old text beside.
        const source = ignoreWhitespace ? b[run.bStart + i]! : old;
        const fields = { kind: 'context' as const, oldNo: run.aStart + i + 1, newNo: run.bStart + i + 1 };
        const context = line(source, fields);
        out.push(old.text === source.text ? context : { ...context, oldText: old.text });
      }
    } else if (run.type === 'delete') {
      for (let i = run.aStart; i < run.aEnd; i++)
        dels.push(line(a[i]!, { kind: 'del', oldNo: i + 1, ...uncompared(run.uncompared) }));
    } else {
      for (let i = run.bStart; i < run.bEnd; i++)
        adds.push(line(b[i]!, { kind: 'add', newNo: i + 1, ...uncompared(run.uncompared) }));
    }
  }
  flush();
  return out;
}

/** A side-by-side row: the old line on the left, the new one on the right (either may be blank). */
export interface SplitRow {
  readonly left?: DiffLine;
  readonly right?: DiffLine;
}

/** Lays a unified diff out side by side: context on both sides, each change block's deletions beside its additions. */
export function toSplitRows(lines: readonly DiffLine[]): SplitRow[] {
  const rows: SplitRow[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.kind === 'context') {
      rows.push({ left: line.oldText === undefined ? line : { ...line, text: line.oldText }, right: line });
      i++;
      continue;
    }
    const dels: DiffLine[] = [];
    const adds: DiffLine[] = [];
    while (i < lines.length && lines[i]!.kind === 'del') dels.push(lines[i++]!);
    while (i < lines.length && lines[i]!.kind === 'add') adds.push(lines[i++]!);
    for (let j = 0; j < Math.max(dels.length, adds.length); j++) rows.push({ left: dels[j], right: adds[j] });
  }
  return rows;
}

/** A stretch of the diff to show, or a run of unchanged lines folded away. */
export type Hunk =
  | { readonly kind: 'lines'; readonly start: number; readonly end: number }
  | { readonly kind: 'gap'; readonly start: number; readonly end: number };

/** Folds unchanged stretches longer than twice `context` lines, keeping `context` lines around each change. */
export function foldContext(lines: readonly DiffLine[], context = 3): Hunk[] {
  const keep = new Uint8Array(lines.length);
  lines.forEach((line, index) => {
    if (line.kind === 'context') return;
    for (let j = Math.max(0, index - context); j <= Math.min(lines.length - 1, index + context); j++) keep[j] = 1;
  });
  const hunks: Hunk[] = [];
  let index = 0;
  while (index < lines.length) {
    const kind = keep[index] ? 'lines' : 'gap';
    const start = index;
    while (index < lines.length && (keep[index] ? 'lines' : 'gap') === kind) index++;
    hunks.push({ kind, start, end: index });
  }
  // A gap of one or two lines costs more to expand than to show.
  return hunks.map((hunk) =>
    hunk.kind === 'gap' && hunk.end - hunk.start <= 2 ? { ...hunk, kind: 'lines' as const } : hunk,
  );
}

/**
 * Counts of added and deleted lines. Lines of a stretch too large to compare are counted apart, as
 * `uncompared` (old and new lines together): they are shown as replaced, not known to have changed.
 */
export function diffStats(lines: readonly DiffLine[]): { added: number; deleted: number; uncompared: number } {
  let added = 0;
  let deleted = 0;
  let uncompared = 0;
  for (const line of lines) {
    if (line.uncompared) uncompared++;
    else if (line.kind === 'add') added++;
    else if (line.kind === 'del') deleted++;
  }
  return { added, deleted, uncompared };
}
