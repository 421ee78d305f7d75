import { describe, expect, it } from 'vitest';
import { chunkDocument, type ChunkOptions } from '../../src/server/gateway/rag/chunker.js';
import { markdownSections } from '../../src/server/gateway/rag/markdown-sections.js';
import { splitSegments } from '../../src/server/gateway/rag/segments.js';
import { fill, ordinaryWords } from './support/degenerate-texts.js';

/**
 * Every segment (paragraph, sentence, run of words) costs the chunker's overlap step the same, so text
 * made of one-character sentences (". . .") had as many segments as characters over two, and 3 MB of
 * it took the chunker ten times as long as 3 MB of words, blocking both services. Runs of short
 * sentences and paragraphs are now packed, so the work follows the text's length.
 */
const MB3 = 3 * 1024 * 1024;
const DEFAULTS: ChunkOptions = { size: 800, overlap: 150 };

/** Inputs of degenerate shape (1 MB each): each must chunk in bounded work, within the size, whole characters. */
const MB1 = 1024 * 1024;
const DEGENERATE: Record<string, readonly [string, 'text' | 'markdown']> = {
  'one-character sentences': [fill('. ', MB1), 'text'],
  'one-character sentences on lines (Markdown)': [fill('.\n', MB1), 'markdown'],
  'one-character paragraphs': [fill('x\n\n', MB1), 'text'],
  'short sentences with CRLF': [fill('a.\r\n', MB1), 'text'],
  'short paragraphs with CRLF (Markdown)': [fill('a.\r\n\r\n', MB1), 'markdown'],
  'emoji sentences': [fill('😀. ', MB1), 'text'],
  'CJK sentences with spaces': [fill('日。 ', MB1), 'text'],
  'CJK sentences without spaces': [fill('日。', MB1), 'text'],
  'short sentences in a deep list (Markdown)': [fill('- a\n  - b\n    - c\n      - d. \n', MB1), 'markdown'],
};

function loneSurrogates(text: string): number {
  return (text.match(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g) ?? []).length;
}

/** The fastest of a few runs, so one pause of a loaded machine does not decide a comparison. */
function fastestMs(run: () => void, times = 3): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < times; i += 1) {
    const started = performance.now();
    run();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

describe('RAG chunking of text made of very short sentences', () => {
  it('makes at most one segment per 8 characters of any text (it made one per 2)', () => {
    for (const [name, [text]] of Object.entries(DEGENERATE)) {
      const segments = splitSegments(text, DEFAULTS.size);
      expect(segments.length, name).toBeLessThanOrEqual(text.length / 8);
      expect(
        segments.every((segment) => segment.text.length <= DEFAULTS.size),
        name,
      ).toBe(true);
    }
  });

  it('chunks 3 MB of ". " in about the time of 3 MB of words (it took ten times as long)', () => {
    const words = ordinaryWords(MB3);
    const dots = fill('. ', MB3);
    const wordsMs = fastestMs(() => chunkDocument(words, 'text', DEFAULTS));
    const dotsMs = fastestMs(() => chunkDocument(dots, 'text', DEFAULTS));
    expect(dotsMs, `". " took ${dotsMs.toFixed(0)} ms, words ${wordsMs.toFixed(0)} ms`).toBeLessThan(4 * wordsMs);
  });

  it('keeps every chunk within the size and every character whole, losing no text', () => {
    for (const [name, [text, contentType]] of Object.entries(DEGENERATE)) {
      const chunks = chunkDocument(text, contentType, DEFAULTS);
      expect(chunks.length, name).toBeGreaterThan(0);
      expect(chunks.filter((chunk) => chunk.text.length > DEFAULTS.size).length, name).toBe(0);
      expect(
        chunks.reduce((lone, chunk) => lone + loneSurrogates(chunk.text), 0),
        name,
      ).toBe(0);
      if (contentType === 'text') {
        // Overlap repeats text, so the chunks hold at least the document's non-space characters.
        const kept = chunks.map((chunk) => chunk.text.replace(/\s+/g, '')).join('').length;
        expect(kept, name).toBeGreaterThanOrEqual(text.replace(/\s+/g, '').length);
      }
    }
  });

  it('never cuts a long word inside a surrogate pair, whatever the chunk size', () => {
    const word = `a${'😀'.repeat(20_000)}`;
    for (const size of [100, 301, 800]) {
      const chunks = chunkDocument(word, 'text', { size, overlap: 20 });
      expect(
        chunks.reduce((lone, chunk) => lone + loneSurrogates(chunk.text), 0),
        `size ${size}`,
      ).toBe(0);
      expect(chunks.every((chunk) => chunk.text.length <= size)).toBe(true);
      expect(chunks.map((chunk) => chunk.text).join('')).toBe(word);
    }
  });

  it('keeps the chunks of ordinary prose exactly, a short sentence between others included', () => {
    const prose =
      'Full-time employees receive 27 days of paid annual leave per calendar year. Part-time staff accrue leave pro ' +
      'rata. Yes. Unused days may be carried into the next year, but they expire on 31 March. Ask HR! Parents may ' +
      'take up to 16 weeks of paid parental leave within the first year after a birth or adoption. Is weekend ' +
      'access possible without a badge request? It is not.';
    expect(chunkDocument(prose, 'text', { size: 120, overlap: 40 }).map((chunk) => chunk.text)).toEqual([
      'Full-time employees receive 27 days of paid annual leave per calendar year. Part-time staff accrue leave pro rata. Yes.',
      'Yes. Unused days may be carried into the next year, but they expire on 31 March. Ask HR!',
      'Ask HR! Parents may take up to 16 weeks of paid parental leave within the first year after a birth or adoption.',
      'first year after a birth or adoption. Is weekend access possible without a badge request? It is not.',
    ]);
  });

  it('keeps the lines of a code block longer than a chunk, each chunk starting on a line', () => {
    const lines = Array.from(
      { length: 30 },
      (_, index) => `  server_${index}: host=10.0.0.${index} port=80${index % 10}`,
    );
    const doc = `## Load balancer config\n\n\`\`\`yaml\nservers:\n${lines.join('\n')}\n\`\`\`\n`;
    const chunks = chunkDocument(doc, 'markdown', { size: 400, overlap: 80 });
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) {
      expect(chunk.text.length).toBeLessThanOrEqual(400);
      // Whole lines, as written: none joined to the next by a space.
      for (const line of chunk.text.split('\n').filter((l) => l.includes('server_')))
        expect(line, chunk.text).toMatch(/^ {2}server_\d+: host=10\.0\.0\.\d+ port=80\d$/);
    }
    // Every line is in some chunk.
    const all = chunks.map((chunk) => chunk.text).join('\n');
    for (const line of lines) expect(all).toContain(line);
  });

  it('ends Chinese and Japanese sentences at full-width stops, joined again without a space', () => {
    // One paragraph of 30 sentences on one line, longer than a chunk: it was cut every 100 characters,
    // mid-sentence, as one "word" with no space in it.
    const sentences = Array.from({ length: 30 }, (_, n) => `東京の天気は晴れで、気温は${n}度になる見込みです。`);
    sentences[5] = '「明日は雨？」と彼は聞いた。';
    const text = sentences.join('');
    const chunks = chunkDocument(text, 'text', { size: 100, overlap: 0 });
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) {
      expect(chunk.text.length).toBeLessThanOrEqual(100);
      expect(chunk.text).toMatch(/^[「東]/);
      expect(chunk.text).toMatch(/。$/);
      expect(text).toContain(chunk.text);
    }
    expect(chunks.map((chunk) => chunk.text).join('')).toBe(text);
  });

  it('packs a run of short sentences into one segment, never past the size', () => {
    expect(
      splitSegments(`${'Intro sentence that is long enough to exceed. '.repeat(3)}a. b. c. d. e. f. g. h. i.`, 100),
    ).toEqual([
      { text: 'Intro sentence that is long enough to exceed.', joiner: '\n\n' },
      { text: 'Intro sentence that is long enough to exceed.', joiner: ' ' },
      { text: 'Intro sentence that is long enough to exceed.', joiner: ' ' },
      { text: 'a. b. c. d. e. f.', joiner: ' ' },
      { text: 'g. h. i.', joiner: ' ' },
    ]);
  });
});

/**
 * A document over the chunk limit is refused whole, so the chunker stops once it is past the limit: a
 * 3 MB document of one-line headings (786,432 chunks) was chunked in full, holding up every request for
 * seconds, only to be refused.
 */
describe('RAG chunking with a limit', () => {
  const headings = (count: number): string =>
    Array.from({ length: count }, (_, index) => `# Heading ${index}`).join('\n');

  it('stops just past the limit, having read only the headings it needed', () => {
    const chunks = chunkDocument(headings(100_000), 'markdown', DEFAULTS, 50);
    expect(chunks.length).toBe(51);
    expect(chunks.at(-1)).toEqual({ heading: 'Heading 50', text: 'Heading 50' });
    const sections = markdownSections(headings(100_000), 50);
    expect(sections).toHaveLength(51);
  });

  it('chunks a document within the limit exactly as without one', () => {
    const prose = `# Intro\n\n${ordinaryWords(4000)}\n\n## Details\r\n\r\n${ordinaryWords(3000)}\r\n# End\nbye\r`;
    const limited = chunkDocument(prose, 'markdown', DEFAULTS, 1000);
    expect(limited).toEqual(chunkDocument(prose, 'markdown', DEFAULTS));
    expect(limited.length).toBeGreaterThan(3);
    expect(limited.at(-1)).toEqual({ heading: 'End', text: 'End\nbye' });
  });
});
