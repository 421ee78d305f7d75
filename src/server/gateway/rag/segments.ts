/** A piece of a section that chunks keep whole, and what joins it to the piece before it. */
export interface Segment {
  readonly text: string;
  /** A blank line between paragraphs, a space between sentences or words of one paragraph. */
  readonly joiner: string;
}

/**
 * Consecutive sentences (or paragraphs) shorter than this are packed into one segment. Every segment
 * costs the overlap step the same, so text made of one-character sentences (". . .") cost ten times as
 * much as prose of the same length; packed, at least every other segment has this many characters,
 * whatever the text. A short sentence between ordinary ones ("Yes.") stays a segment of its own.
 */
export const MIN_SEGMENT_CHARS = 16;

const PARAGRAPH_BREAK = /\n\s*\n/;
/**
 * Where sentences end, the space after them captured: `.`, `!` or `?` before a space; a full-width
 * `。`, `！` or `？` (with a closing quote or bracket after it) ends one without a space, as Chinese and
 * Japanese write them.
 */
const SENTENCE_BREAK = /((?<=[.!?])\s+|(?<=[。！？][」』）”]?)(?![」』）”])\s*)/;
const LINE_BREAK = /\r?\n/;
const PARAGRAPH_JOINER = '\n\n';
const LINE_JOINER = '\n';
const SENTENCE_JOINER = ' ';

/**
 * Paragraphs, with those longer than `size` split into lines, lines longer than `size` into
 * sentences and, failing that, words; short neighbours are packed together (see MIN_SEGMENT_CHARS).
 * No segment is longer than `size`.
 */
export function splitSegments(body: string, size: number): Segment[] {
  return [...segmentsOf(body, size)];
}

/** The segments of splitSegments, a paragraph at a time: a caller may pause between them (see chunkDocumentInSlices). */
export function* segmentsOf(body: string, size: number): Generator<Segment, void> {
  const out: Segment[] = [];
  const paragraphs = new RunPacker(size, (text) => out.push({ text, joiner: PARAGRAPH_JOINER }));
  for (const paragraph of body.split(PARAGRAPH_BREAK)) {
    if (out.length > 0) yield* out.splice(0);
    const text = paragraph.trim();
    if (text === '') continue;
    if (text.length <= size) {
      paragraphs.add(text, PARAGRAPH_JOINER);
      continue;
    }
    paragraphs.flush();
    // What joins the next piece to the one before it, whatever its own joiner: the paragraph's first
    // to the paragraph before it, a line's first to the line before it.
    let forced: string | undefined = PARAGRAPH_JOINER;
    const emit = (piece: string, joiner: string): void => {
      out.push({ text: piece, joiner: forced ?? joiner });
      forced = undefined;
    };
    // Lines first, joined by their line breaks: a code block, a table or a list keeps its lines (YAML
    // and Python mean nothing without them). A line longer than a chunk goes by sentences, then words.
    const lines = new RunPacker(size, emit);
    for (const line of text.split(LINE_BREAK)) {
      if (line.length <= size) {
        if (line.trim() !== '') lines.add(line, LINE_JOINER);
        continue;
      }
      lines.flush();
      const sentences = new RunPacker(size, emit);
      const parts = line.trim().split(SENTENCE_BREAK);
      for (let index = 0; index < parts.length; index += 2) {
        const sentence = parts[index]!;
        // Sentences that followed each other without a space are joined again without one.
        const joiner = index > 0 && parts[index - 1] === '' ? '' : SENTENCE_JOINER;
        if (sentence === '') continue;
        if (sentence.length <= size) {
          sentences.add(sentence, joiner);
          continue;
        }
        sentences.flush();
        splitWords(sentence, size).forEach((piece, at) => emit(piece, at === 0 ? joiner : SENTENCE_JOINER));
      }
      sentences.flush();
      forced = LINE_JOINER;
    }
    lines.flush();
  }
  paragraphs.flush();
  yield* out;
}

/**
 * Passes pieces on, packing runs of short ones into segments of MIN_SEGMENT_CHARS or more that fit in
 * `size`. Each piece comes with what joins it to the one before it; a segment is passed on with its
 * first piece's.
 */
class RunPacker {
  private text = '';
  private lead = '';
  private parts = 0;

  constructor(
    private readonly size: number,
    private readonly emit: (text: string, joiner: string) => void,
  ) {}

  add(piece: string, joiner: string): void {
    if (piece.length >= MIN_SEGMENT_CHARS) {
      this.flush();
      this.emit(piece, joiner);
      return;
    }
    if (this.parts > 0 && this.text.length + joiner.length + piece.length > this.size) this.flush();
    if (this.parts === 0) {
      this.lead = joiner;
      this.text = piece;
    } else this.text += joiner + piece;
    this.parts += 1;
    if (this.text.length >= MIN_SEGMENT_CHARS) this.flush();
  }

  flush(): void {
    if (this.parts === 0) return;
    this.emit(this.text, this.lead);
    this.text = '';
    this.parts = 0;
  }
}

/** Where a line or sentence begins (after the break that ends the one before), as SENTENCE_BREAK splits them. */
const LINE_OR_SENTENCE_START = /\r?\n|(?<=[.!?])\s+|(?<=[。！？][」』）”]?)(?![」』）”])\s*/g;
const WORD_START = /\s+/g;

/**
 * The longest end of `text` of at most `limit` characters that begins a line or a sentence or, when
 * the last sentence alone is longer, a word; empty when not even the last word fits.
 */
export function trailingText(text: string, limit: number): string {
  if (limit <= 0) return '';
  if (text.length <= limit) return text;
  const earliest = text.length - limit;
  const start = firstStartFrom(text, LINE_OR_SENTENCE_START, earliest) ?? firstStartFrom(text, WORD_START, earliest);
  return start === undefined ? '' : text.slice(start);
}

/** The first position at or after `earliest` (and before the end) where a match of `breaks` ends. */
function firstStartFrom(text: string, breaks: RegExp, earliest: number): number | undefined {
  for (const match of text.matchAll(breaks)) {
    const end = match.index + match[0].length;
    if (end >= text.length) return undefined;
    if (end >= earliest) return end;
  }
  return undefined;
}

/** Words packed into pieces of at most `size` characters; a longer word is cut where it must be. */
function splitWords(text: string, size: number): string[] {
  const out: string[] = [];
  let current = '';
  for (const word of text.split(/\s+/)) {
    // A single "word" longer than a chunk (a URL, base64) is cut, never inside a surrogate pair.
    for (let at = 0; at < word.length;) {
      const end = cutAt(word, at, size);
      const piece = word.slice(at, end);
      at = end;
      if (current !== '' && current.length + 1 + piece.length > size) {
        out.push(current);
        current = '';
      }
      current = current === '' ? piece : `${current} ${piece}`;
    }
  }
  if (current !== '') out.push(current);
  return out;
}

/** Where a piece of at most `size` code units starting at `from` ends, moved back off a surrogate pair. */
function cutAt(text: string, from: number, size: number): number {
  const end = Math.min(from + size, text.length);
  if (end === text.length || end - 1 <= from) return end;
  const before = text.charCodeAt(end - 1);
  return before >= 0xd800 && before <= 0xdbff ? end - 1 : end;
}
