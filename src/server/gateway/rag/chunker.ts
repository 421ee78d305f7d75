import { eventLoopTurns } from './event-loop-turns.js';
import { markdownSections } from './markdown-sections.js';
import { segmentsOf, trailingText, type Segment } from './segments.js';

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
  const steps = chunking(content, contentType, options, stopAfter);
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}

/**
 * chunkDocument, handing the event loop back every SEGMENTS_PER_SLICE segments: a document of a few
 * MB takes a tenth of a second and more to chunk, which would hold up every other request.
 */
export async function chunkDocumentInSlices(
  content: string,
  contentType: 'text' | 'markdown',
  options: ChunkOptions,
  stopAfter = Infinity,
): Promise<DraftChunk[]> {
  const steps = chunking(content, contentType, options, stopAfter);
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
    await eventLoopTurns.next();
  }
}

/** Segments packed between two pauses of chunkDocumentInSlices (a few milliseconds of work). */
const SEGMENTS_PER_SLICE = 500;

/** The chunking of chunkDocument, pausing (yielding) every SEGMENTS_PER_SLICE segments. */
function* chunking(
  content: string,
  contentType: 'text' | 'markdown',
  options: ChunkOptions,
  stopAfter: number,
): Generator<void, DraftChunk[]> {
  // Every section makes at least one chunk, so no more sections are needed than chunks.
  const sections =
    contentType === 'markdown' ? markdownSections(content, stopAfter) : [{ heading: null, body: content }];
  const chunks: DraftChunk[] = [];
  let segments = 0;
  for (const section of sections) {
    const packer = new Packer(section.heading, options, chunks);
    for (const segment of segmentsOf(section.body, options.size)) {
      packer.add(segment);
      segments += 1;
      if (segments % SEGMENTS_PER_SLICE === 0) yield;
    }
    packer.end();
    // A document over the limit is refused whole: a heading-only document of a few MB would
    // otherwise be chunked for seconds, holding up every request, only to be refused.
    if (chunks.length > stopAfter) break;
  }
  return chunks;
}

/** Packs one section's segments into chunks, one segment at a time. */
class Packer {
  private window: Segment[] = [];
  private length = 0;
  private fresh = 0;
  /** The segments of the chunk emitted last, whose end the next chunk begins with. */
  private previous: readonly Segment[] = [];

  constructor(
    private readonly heading: string | null,
    private readonly options: ChunkOptions,
    private readonly into: DraftChunk[],
  ) {}

  add(segment: Segment): void {
    const { size, overlap } = this.options;
    if (this.length + segment.joiner.length + segment.text.length > size) this.end();
    if (this.window.length === 0) {
      // The overlap is chosen once the next segment is known, so it never pushes that segment out.
      const room = size - segment.joiner.length - segment.text.length;
      this.window = carriedEnd(this.previous, Math.min(overlap, room));
      this.length = joined(this.window).length;
    }
    this.window.push(segment);
    this.length += segment.text.length + (this.window.length > 1 ? segment.joiner.length : 0);
    this.fresh += 1;
  }

  /** Emits the chunk being packed, if it holds a segment of its own. */
  end(): void {
    if (this.fresh === 0) return;
    this.into.push({ text: joined(this.window), heading: this.heading });
    this.previous = this.window;
    this.window = [];
    this.length = 0;
    this.fresh = 0;
  }
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
