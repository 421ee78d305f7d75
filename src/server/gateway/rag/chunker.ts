/** A chunk of a document before it is stored: its text and, for Markdown, the heading it sits under. */
export interface DraftChunk {
  readonly text: string;
  readonly heading: string | null;
}

/** Chunk size and overlap, in characters. */
export interface ChunkOptions {
  readonly size: number;
  readonly overlap: number;
}

interface Segment {
  readonly text: string;
  readonly heading: string | null;
  /** What joins it to the segment before: a blank line between paragraphs, a space inside one. */
  readonly joiner: string;
}

// Only the opening is matched by a pattern; the title is trimmed by hand (headingTitle). A pattern with
// a lazy title followed by optional spaces and closing #s backtracks in cubic time over a long run of
// spaces, which let one line of a document stall the process for minutes.
const HEADING_OPENING = /^(#{1,6})[ \t]+(?=\S)/;

/** An ATX heading's level and title (without a closing run of #s), or undefined for other lines. */
export function parseHeading(line: string): { level: number; title: string } | undefined {
  const opening = HEADING_OPENING.exec(line);
  if (opening === null) return undefined;
  let title = line.slice(opening[0].length).trimEnd();
  let end = title.length;
  while (end > 0 && title[end - 1] === '#') end -= 1;
  // A closing sequence counts only after a space ("# C#" keeps its #); a title of #s alone stays.
  if (end < title.length && end > 0 && (title[end - 1] === ' ' || title[end - 1] === '\t'))
    title = title.slice(0, end).trimEnd();
  return { level: opening[1]!.length, title };
}

/**
 * Splits a document into chunks of at most `size` characters. Paragraphs (and, inside long ones,
 * sentences, then words) are packed whole, and each chunk starts with the last `overlap` characters'
 * worth of whole segments of the previous one, so an answer that straddles a boundary is found in
 * one chunk. Markdown chunks never cross a heading and remember the heading path they sit under.
 */
export function chunkDocument(content: string, contentType: 'text' | 'markdown', options: ChunkOptions): DraftChunk[] {
  const sections = contentType === 'markdown' ? markdownSections(content) : [{ heading: null, body: content }];
  const chunks: DraftChunk[] = [];
  for (const section of sections) {
    const segments = splitSegments(section.body, options.size).map((piece) => ({ ...piece, heading: section.heading }));
    pack(segments, options, chunks);
  }
  return chunks;
}

/** Markdown split at headings; each section carries its heading path (`Setup > Linux`). */
function markdownSections(content: string): Array<{ heading: string | null; body: string }> {
  const sections: Array<{ heading: string | null; body: string }> = [];
  const path: string[] = [];
  let current: string[] = [];
  let hasContent = false;
  let inFence = false;
  /** The level of the heading the current section is under (0: before the first heading). */
  let level = 0;
  /** Ends the current section; `nextLevel` is the level of the heading that ends it (undefined: the end). */
  const flush = (nextLevel?: number): void => {
    const body = current.join('\n').trim();
    // A heading directly followed by a subheading has nothing of its own to index: the subheading's
    // section carries its title in its path. One followed by nothing deeper is text in its own right
    // (a title-only document, a closing "## Questions? Ask #help" line), so it is kept.
    const titleOnly = level > 0 && (nextLevel === undefined || nextLevel <= level);
    if ((hasContent || titleOnly) && body !== '')
      sections.push({ heading: path.length > 0 ? path.join(' > ') : null, body });
    current = [];
    hasContent = false;
  };
  for (const line of content.split(/\r?\n/)) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    const heading = inFence ? undefined : parseHeading(line);
    if (heading !== undefined) {
      flush(heading.level);
      level = heading.level;
      path.length = Math.min(path.length, heading.level - 1);
      path.push(heading.title);
      // The heading's words are part of the section's text, so BM25 finds the section by its title.
      current.push(heading.title);
      continue;
    }
    current.push(line);
    if (line.trim() !== '') hasContent = true;
  }
  flush();
  return sections;
}

/** Paragraphs, with those longer than `size` split into sentences and, failing that, words. */
function splitSegments(body: string, size: number): Array<{ text: string; joiner: string }> {
  const out: Array<{ text: string; joiner: string }> = [];
  for (const paragraph of body.split(/\n\s*\n/)) {
    const text = paragraph.trim();
    if (text === '') continue;
    if (text.length <= size) {
      out.push({ text, joiner: '\n\n' });
      continue;
    }
    const pieces = text
      .split(/(?<=[.!?])\s+/)
      .flatMap((sentence) => (sentence.length <= size ? [sentence] : splitWords(sentence, size)));
    pieces.forEach((piece, index) => out.push({ text: piece, joiner: index === 0 ? '\n\n' : ' ' }));
  }
  return out;
}

function splitWords(text: string, size: number): string[] {
  const out: string[] = [];
  let current = '';
  for (const word of text.split(/\s+/)) {
    // A single "word" longer than a chunk (a URL, base64) is cut where it must be.
    for (let at = 0; at < word.length; at += size) {
      const piece = word.slice(at, at + size);
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

function pack(segments: readonly Segment[], options: ChunkOptions, into: DraftChunk[]): void {
  let window: Segment[] = [];
  let length = 0;
  let fresh = 0;
  const emit = (): void => {
    if (fresh === 0) return;
    const text = window.map((segment, index) => (index === 0 ? segment.text : segment.joiner + segment.text)).join('');
    into.push({ text, heading: window[0]!.heading });
    // Carry whole trailing segments up to `overlap` characters into the next chunk.
    const carried: Segment[] = [];
    let carriedLength = 0;
    for (let index = window.length - 1; index > 0; index -= 1) {
      const segment = window[index]!;
      if (carriedLength + segment.text.length + segment.joiner.length > options.overlap) break;
      carried.unshift(segment);
      carriedLength += segment.text.length + segment.joiner.length;
    }
    window = carried;
    length = carriedLength;
    fresh = 0;
  };
  for (const segment of segments) {
    if (length + segment.joiner.length + segment.text.length > options.size) emit();
    // The carried overlap must not push a new segment over the size: drop it then.
    if (length + segment.joiner.length + segment.text.length > options.size) {
      window = [];
      length = 0;
    }
    window.push(segment);
    length += segment.text.length + (window.length > 1 ? segment.joiner.length : 0);
    fresh += 1;
  }
  emit();
}
