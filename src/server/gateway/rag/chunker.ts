import { markdownSections } from './markdown-sections.js';
import { splitSegments, trailingText, type Segment } from './segments.js';

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
 * lines, sentences, then words) are packed whole, and each chunk starts with up to `overlap` characters
 * of the end of the previous one (see carriedEnd), so an answer that straddles a boundary is found in
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
  /** The segments of the chunk emitted last, whose end the next chunk begins with. */
  let previous: readonly Segment[] = [];
  const emit = (): void => {
    if (fresh === 0) return;
    into.push({ text: joined(window), heading });
    previous = window;
    window = [];
    length = 0;
    fresh = 0;
  };
  for (const segment of segments) {
    if (length + segment.joiner.length + segment.text.length > options.size) emit();
    if (window.length === 0) {
      // The overlap is chosen once the next segment is known, so it never pushes that segment out.
      const room = options.size - segment.joiner.length - segment.text.length;
      window = carriedEnd(previous, Math.min(options.overlap, room));
      length = joined(window).length;
    }
    window.push(segment);
    length += segment.text.length + (window.length > 1 ? segment.joiner.length : 0);
    fresh += 1;
  }
  emit();
}

function joined(window: readonly Segment[]): string {
  let text = window[0]?.text ?? '';
  for (let index = 1; index < window.length; index += 1) text += window[index]!.joiner + window[index]!.text;
  return text;
}

/**
 * The end of a chunk that the next one begins with, at most `limit` characters: its last segments
 * whole or, when the last is longer than that (a paragraph of ordinary prose is, at the default sizes),
 * the end of that segment from a sentence or line, failing that a word.
 */
function carriedEnd(chunk: readonly Segment[], limit: number): Segment[] {
  let start = chunk.length;
  let carried = 0;
  // Never the whole chunk: the next would repeat it.
  while (start > 1) {
    const segment = chunk[start - 1]!;
    const cost = segment.text.length + (start < chunk.length ? chunk[start]!.joiner.length : 0);
    if (carried + cost > limit) break;
    carried += cost;
    start -= 1;
  }
  if (start < chunk.length) return chunk.slice(start);
  const last = chunk[chunk.length - 1];
  if (last === undefined) return [];
  const end = trailingText(last.text, limit);
  return end === '' ? [] : [{ text: end, joiner: last.joiner }];
}
