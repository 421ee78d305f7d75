import { markdownSections } from './markdown-sections.js';
import { splitSegments, type Segment } from './segments.js';

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

/**
 * Splits a document into chunks of at most `size` characters. Paragraphs (and, inside long ones,
 * sentences, then words) are packed whole, and each chunk starts with the last `overlap` characters'
 * worth of whole segments of the previous one, so an answer that straddles a boundary is found in
 * one chunk. Markdown chunks never cross a heading and remember the heading path they sit under.
 * With `stopAfter`, it stops once it has more chunks than that (the rest of the document unread).
 */
export function chunkDocument(
  content: string,
  contentType: 'text' | 'markdown',
  options: ChunkOptions,
  stopAfter = Infinity,
): DraftChunk[] {
  // Every section makes at least one chunk, so no more sections are needed than chunks.
  const sections =
    contentType === 'markdown' ? markdownSections(content, stopAfter) : [{ heading: null, body: content }];
  const chunks: DraftChunk[] = [];
  for (const section of sections) {
    pack(splitSegments(section.body, options.size), section.heading, options, chunks);
    // A document over the limit is refused whole: a heading-only document of a few MB would
    // otherwise be chunked for seconds, holding up every request, only to be refused.
    if (chunks.length > stopAfter) break;
  }
  return chunks;
}

function pack(segments: readonly Segment[], heading: string | null, options: ChunkOptions, into: DraftChunk[]): void {
  let window: Segment[] = [];
  let length = 0;
  let fresh = 0;
  const emit = (): void => {
    if (fresh === 0) return;
    let text = window[0]!.text;
    for (let index = 1; index < window.length; index += 1) text += window[index]!.joiner + window[index]!.text;
    into.push({ text, heading });
    // Carry whole trailing segments up to `overlap` characters into the next chunk.
    let start = window.length;
    let carriedLength = 0;
    while (start - 1 > 0) {
      const segment = window[start - 1]!;
      if (carriedLength + segment.text.length + segment.joiner.length > options.overlap) break;
      carriedLength += segment.text.length + segment.joiner.length;
      start -= 1;
    }
    window = window.slice(start);
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
