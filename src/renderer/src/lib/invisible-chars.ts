/** A character that draws nothing (or reorders what follows), with how to show it and its name. */
export interface InvisibleChar {
  /** The character itself. */
  readonly char: string;
  /** What stands for it on screen: an ASCII control's abbreviation (`NUL`, `CR`) or its code point (`U+200B`). */
  readonly shown: string;
  /** Code point and name, for the tooltip: "U+200B zero width space". */
  readonly label: string;
  /**
   * A space other than U+0020 (a no-break space, a thin space): it has a width and reads as a space,
   * so it is shown as itself, outlined, rather than replaced by its code point.
   */
  readonly space?: true;
}

/** A run of ordinary text, or one invisible character. */
export type TextPiece = { readonly text: string } | { readonly invisible: InvisibleChar };

/*
 * Control characters other than tab and newline, and format characters (zero-width spaces and
 * joiners, byte order marks, bidirectional controls): a change made only of these would otherwise
 * show as a changed line with no visible difference, and bidirectional controls can make a line
 * read differently from what it holds.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\u2028\u2029]|[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/gu;

/*
 * Spaces other than U+0020. They look like a space, so a change from one to the other (a no-break
 * space pasted from a word processor breaks YAML indentation and string comparisons) would show as a
 * highlighted change with nothing visibly different.
 */
const UNUSUAL_SPACE = /^[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]$/u;

const NAMES: Readonly<Record<number, string>> = {
  0x00: 'null',
  0x07: 'bell',
  0x08: 'backspace',
  0x09: 'tab',
  0x0a: 'line feed',
  0x0b: 'vertical tab',
  0x0c: 'form feed',
  0x0d: 'carriage return',
  0x1b: 'escape',
  0x20: 'space',
  0x7f: 'delete',
  0xa0: 'no-break space',
  0xad: 'soft hyphen',
  0x1680: 'ogham space mark',
  0x2000: 'en quad',
  0x2001: 'em quad',
  0x2002: 'en space',
  0x2003: 'em space',
  0x2004: 'three-per-em space',
  0x2005: 'four-per-em space',
  0x2006: 'six-per-em space',
  0x2007: 'figure space',
  0x2008: 'punctuation space',
  0x2009: 'thin space',
  0x200a: 'hair space',
  0x061c: 'arabic letter mark',
  0x180e: 'mongolian vowel separator',
  0x200b: 'zero width space',
  0x200c: 'zero width non-joiner',
  0x200d: 'zero width joiner',
  0x200e: 'left-to-right mark',
  0x200f: 'right-to-left mark',
  0x2028: 'line separator',
  0x2029: 'paragraph separator',
  0x202a: 'left-to-right embedding',
  0x202b: 'right-to-left embedding',
  0x202c: 'pop directional formatting',
  0x202d: 'left-to-right override',
  0x202e: 'right-to-left override',
  0x202f: 'narrow no-break space',
  0x205f: 'medium mathematical space',
  0x2060: 'word joiner',
  0x2066: 'left-to-right isolate',
  0x2067: 'right-to-left isolate',
  0x2068: 'first strong isolate',
  0x2069: 'pop directional isolate',
  0x3000: 'ideographic space',
  0xfeff: 'byte order mark',
};

// ASCII's own abbreviations: plain letters read in any font, where the control pictures (U+2400 on) often have no glyph.
const ASCII_CONTROLS =
  'NUL SOH STX ETX EOT ENQ ACK BEL BS HT LF VT FF CR SO SI DLE DC1 DC2 DC3 DC4 NAK SYN ETB CAN EM SUB ESC FS GS RS US'.split(
    ' ',
  );

const PICTOGRAPHIC = /\p{Extended_Pictographic}(?:\u{fe0f}|\p{Emoji_Modifier})?$/u;

const hex = (code: number): string => `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;

/** How one invisible character is shown and named. */
export function describeInvisible(char: string): InvisibleChar {
  const code = char.codePointAt(0) ?? 0;
  const shown = code < 0x20 ? ASCII_CONTROLS[code]! : code === 0x7f ? 'DEL' : hex(code);
  const name = NAMES[code] ?? (code < 0xa0 ? 'control character' : 'format character');
  const label = `${hex(code)} ${name}`;
  return char === ' ' || UNUSUAL_SPACE.test(char) ? { char, shown: char, label, space: true } : { char, shown, label };
}

const joinsPictographs = (text: string, at: number): boolean =>
  PICTOGRAPHIC.test(text.slice(Math.max(0, at - 4), at)) &&
  /^\p{Extended_Pictographic}/u.test(text.slice(at + 1, at + 3));

/*
 * In a name shown on one line (a document key, a checkpoint name) also tabs and line breaks, and plain
 * spaces that HTML hides or collapses: at either end or two or more in a row ("a " would look like "a").
 */
const NAME_INVISIBLE = new RegExp(`${INVISIBLE.source}|^ +| +$| {2,}`, 'gu');

function split(text: string, pattern: RegExp, keepTabs: boolean): TextPiece[] {
  const pieces: TextPiece[] = [];
  let from = 0;
  for (const match of text.matchAll(pattern)) {
    const at = match.index;
    const found = match[0];
    if ((keepTabs && found === '\t') || (found === '\u200d' && joinsPictographs(text, at))) continue;
    if (at > from) pieces.push({ text: text.slice(from, at) });
    // A run of spaces is one match: each space is its own box.
    for (const char of found) pieces.push({ invisible: describeInvisible(char) });
    from = at + found.length;
  }
  if (from < text.length) pieces.push({ text: text.slice(from) });
  return pieces;
}

/**
 * Splits a line into ordinary text and invisible characters. A zero width joiner between two
 * pictographs is part of an emoji (👩‍💻) and stays text.
 */
export function splitInvisible(text: string): TextPiece[] {
  return split(text, INVISIBLE, true);
}

/**
 * Splits a name shown on one line as {@link splitInvisible} splits a line, with its tabs, line breaks
 * and the plain spaces HTML would hide (at either end, or in a run) as invisible characters too.
 */
export function splitName(text: string): TextPiece[] {
  return split(text, NAME_INVISIBLE, false);
}

/**
 * A name as plain text for tooltips, accessible names and messages: each character {@link splitName}
 * marks spelled out in brackets ("[U+202E]evil.txt", "notes[U+0020]", "new[LF]line"), so it cannot
 * reorder the text around it and names that look alike read apart.
 */
export function nameText(text: string): string {
  return splitName(text)
    .map((piece) =>
      'text' in piece
        ? piece.text
        : // A space is shown as itself on screen: here by its code point.
          `[${piece.invisible.space ? hex(piece.invisible.char.codePointAt(0) ?? 0) : piece.invisible.shown}]`,
    )
    .join('');
}
