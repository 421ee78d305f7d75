import { types, type Token, type Tokens } from 'ret';
import { ANY_CHAR, charSetOf, meet, NO_CHARS, unionOf, WORD_CHARS, within, type CharSet } from './regex-charsets.js';

/**
 * Shapes beyond nested repetition (regex-safety.ts) that make V8's backtracking engine slow on a
 * crafted prompt, found on the pattern as `ret` reads it:
 * - `choice`: a repeated choice whose alternatives can begin with the same character (`(a|a)+`,
 *   `(.|\s)*`, `(\d|\w)+`): every run of such characters can be split between them in exponentially
 *   many ways;
 * - `run`: an unbounded repetition that a match can reach at many places of one run of its own
 *   characters, followed by something that can fail (`\s+$`, `.*password`, `\d+ dollars`, `a\w*z`):
 *   each place costs the rest of the run, so the time grows with the square of the run's length.
 *   It is not one when an anchor (`^`, or `\b` before word characters) or a character the repetition
 *   does not take stands before it, or when nothing after it can fail.
 */
export type Backtracking = 'choice' | 'run';

type Sequence = readonly Token[];

/** The alternatives of a group or the whole pattern. */
function alternatives(token: Tokens): Sequence[] {
  if (token.type !== types.ROOT && token.type !== types.GROUP) return [];
  return token.options ?? (token.stack ? [token.stack] : []);
}

function isLookaround(token: Tokens): boolean {
  return token.type === types.GROUP && (token.followedBy === true || token.notFollowedBy === true);
}

/** Whether the part can match without taking a character (so what is before it meets what is after). */
function canBeEmpty(token: Token): boolean {
  switch (token.type) {
    case types.CHAR:
    case types.SET:
      return false;
    case types.REPETITION:
      return token.min === 0 || canBeEmpty(token.value);
    case types.GROUP:
      return isLookaround(token) || alternatives(token).some((sequence) => sequence.every(canBeEmpty));
    default:
      return true;
  }
}

/** Whether the part can fail where it is tried (a position assertion, a character, a lookaround can). */
function canFail(token: Token): boolean {
  switch (token.type) {
    case types.REPETITION:
      return token.min > 0 && canFail(token.value);
    case types.GROUP:
      return isLookaround(token) || alternatives(token).every((sequence) => sequence.some(canFail));
    default:
      return true;
  }
}

function firstOfSequence(sequence: Sequence): CharSet {
  let first = NO_CHARS;
  for (const token of sequence) {
    first = unionOf(first, firstChars(token));
    if (!canBeEmpty(token)) break;
  }
  return first;
}

function lastOfSequence(sequence: Sequence): CharSet {
  let last = NO_CHARS;
  for (let index = sequence.length - 1; index >= 0; index -= 1) {
    last = unionOf(last, lastChars(sequence[index]!));
    if (!canBeEmpty(sequence[index]!)) break;
  }
  return last;
}

/** The characters a match of the part can begin with. */
function firstChars(token: Token): CharSet {
  switch (token.type) {
    case types.CHAR:
    case types.SET:
      return charSetOf(token);
    case types.REPETITION:
      return firstChars(token.value);
    case types.GROUP:
      if (isLookaround(token)) return NO_CHARS;
      return alternatives(token).map(firstOfSequence).reduce(unionOf, NO_CHARS);
    case types.REFERENCE:
      return ANY_CHAR;
    default:
      return NO_CHARS;
  }
}

/** The characters a match of the part can end with. */
function lastChars(token: Token): CharSet {
  switch (token.type) {
    case types.REPETITION:
      return lastChars(token.value);
    case types.GROUP:
      if (isLookaround(token)) return NO_CHARS;
      return alternatives(token).map(lastOfSequence).reduce(unionOf, NO_CHARS);
    default:
      return firstChars(token);
  }
}

/**
 * Where a sequence stands: whether a match may begin right before it, the characters a match may have
 * taken right before it, and whether what follows it can fail.
 */
interface Place {
  readonly matchMayBegin: boolean;
  readonly lastBefore: CharSet;
  readonly restCanFail: boolean;
}

const isStartAnchor = (token: Token): boolean => token.type === types.POSITION && token.value === '^';

/**
 * Whether a match may begin right before `sequence[index]` with nothing taken: the pattern's start
 * reaches it past parts that can be empty, none of them an anchor that pins where the repeated
 * characters `run` may start (`^`; `\b` before word characters, which only a run's first one follows).
 */
function beginsRun(before: Sequence, place: Place, run: CharSet): boolean {
  if (!place.matchMayBegin) return false;
  return before.every((token) => {
    if (token.type === types.POSITION) return token.value !== '^' && !(token.value === 'b' && within(run, WORD_CHARS));
    return canBeEmpty(token);
  });
}

function inSequence(sequence: Sequence, place: Place): Backtracking | undefined {
  for (const [index, token] of sequence.entries()) {
    const before = sequence.slice(0, index);
    const restCanFail = place.restCanFail || sequence.slice(index + 1).some(canFail);
    const beforeCanBeEmpty = before.every(canBeEmpty);
    const here: Place = {
      matchMayBegin: place.matchMayBegin && beforeCanBeEmpty && !before.some(isStartAnchor),
      lastBefore: unionOf(lastOfSequence(before), beforeCanBeEmpty ? place.lastBefore : NO_CHARS),
      restCanFail,
    };
    if (token.type === types.REPETITION) {
      const body = token.value;
      const choices = alternatives(body).map(firstOfSequence);
      if (token.max > 1 && choices.some((first, at) => choices.slice(at + 1).some((other) => meet(first, other))))
        return 'choice';
      if (token.max === Infinity && restCanFail) {
        const run = firstChars(body);
        if (meet(here.lastBefore, run) || beginsRun(before, place, run)) return 'run';
      }
      // Inside, the body follows itself: what it ends with stands before its next turn.
      const inner = inToken(body, {
        ...here,
        lastBefore: unionOf(here.lastBefore, lastChars(body)),
        restCanFail: true,
      });
      if (inner !== undefined) return inner;
    } else {
      const inner = inToken(token, here);
      if (inner !== undefined) return inner;
    }
  }
  return undefined;
}

function inToken(token: Tokens, place: Place): Backtracking | undefined {
  if (isLookaround(token)) return undefined;
  if (token.type === types.REPETITION) return inSequence([token], place);
  for (const sequence of alternatives(token)) {
    const found = inSequence(sequence, place);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The slow shape the parsed pattern has, if any (see {@link Backtracking}). */
export function backtrackingOf(root: Tokens): Backtracking | undefined {
  return inToken(root, { matchMayBegin: true, lastBefore: NO_CHARS, restCanFail: false });
}
