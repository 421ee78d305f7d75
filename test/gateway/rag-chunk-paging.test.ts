import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * `GET /internal/rag/collections/<name>/chunks` answered every chunk at once: a document of 16,000
 * chunks made one answer of about 4 MB. It now pages as the admin API's other lists do (`limit` 1-1000,
 * default 100, `next_cursor` null on the last page), with `after` taking the previous `next_cursor`.
 */
describe('RAG chunk list paging', () => {
  let h: GatewayHarness;
  type Chunk = { id: number; document_key: string; ordinal: number; text: string };
  type Page = { data: Chunk[]; next_cursor: string | null };
  const paragraphs = (prefix: string, count: number): string =>
    Array.from({ length: count }, (_, i) => `${prefix} paragraph number ${i} says something of its own here.`).join(
      '\n\n',
    );
  const list = async (query: string): Promise<{ status: number; body: any }> =>
    h.admin('GET', `/internal/rag/collections/manual/chunks${query}`);
  /** Follows `next_cursor` to the end, `limit` at a time, optionally acting between pages. */
  const readAll = async (query: string, between?: (page: number) => Promise<void>): Promise<Chunk[]> => {
    const chunks: Chunk[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 1000; page += 1) {
      const after: string = cursor === null ? '' : `&after=${encodeURIComponent(cursor)}`;
      const answer = await list(`?${query}${after}`);
      expect(answer.status).toBe(200);
      chunks.push(...(answer.body as Page).data);
      cursor = (answer.body as Page).next_cursor;
      if (cursor === null) return chunks;
      await between?.(page);
    }
    throw new Error('the cursor never reached the end');
  };
  const ingest = async (key: string, content: string): Promise<{ id: string; chunks: number }> => {
    const answer = await h.admin('POST', '/internal/rag/collections/manual/documents', { key, content });
    expect(answer.status).toBe(201);
    return answer.body;
  };

  beforeAll(async () => {
    // Paragraphs of about 60 characters with a chunk size of 100: one chunk each.
    h = await startGatewayHarness({ rag: { chunk_size: 100, chunk_overlap: 0 } });
    await h.admin('POST', '/internal/rag/collections', { name: 'manual' });
    expect((await ingest('b-guide.txt', paragraphs('Guide', 250))).chunks).toBe(250);
    expect((await ingest('a-intro.txt', paragraphs('Intro', 3))).chunks).toBe(3);
    expect((await ingest('c-faq.txt', paragraphs('Faq', 5))).chunks).toBe(5);
  });
  afterAll(() => h.close());

  it('answers 100 chunks by default, with a cursor to the next page', async () => {
    const first = await list('');
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(100);
    expect(typeof first.body.next_cursor).toBe('string');
    expect(first.body.data[0]).toMatchObject({ document_key: 'a-intro.txt', ordinal: 0 });
  });

  it('pages through every chunk once, in document and chunk order, across documents', async () => {
    const chunks = await readAll('limit=7');
    expect(chunks).toHaveLength(258);
    expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(258);
    const order = chunks.map((chunk) => `${chunk.document_key}#${String(chunk.ordinal).padStart(3, '0')}`);
    expect(order).toEqual([...order].sort());
    expect(order.slice(0, 4)).toEqual(['a-intro.txt#000', 'a-intro.txt#001', 'a-intro.txt#002', 'b-guide.txt#000']);
    // The last page is null exactly when nothing follows: 258 chunks fill 1000 in one page.
    const whole = await list('?limit=1000');
    expect(whole.body.data).toHaveLength(258);
    expect(whole.body.next_cursor).toBeNull();
  });

  it('pages one document', async () => {
    const guide = (await h.admin('GET', '/internal/rag/collections/manual/documents')).body.data.find(
      (doc: { key: string }) => doc.key === 'b-guide.txt',
    );
    const chunks = await readAll(`document=${guide.id}&limit=1000`);
    expect(chunks.map((chunk) => chunk.ordinal)).toEqual(Array.from({ length: 250 }, (_, i) => i));
    const paged = await readAll(`document=${guide.id}&limit=30`);
    expect(paged.map((chunk) => chunk.id)).toEqual(chunks.map((chunk) => chunk.id));
  });

  it('neither repeats nor skips chunks when a document is re-indexed between pages', async () => {
    const chunks = await readAll('limit=50', async (page) => {
      // Replacing the document being paged gives its chunks new ids; the cursor is a position.
      if (page === 0) await ingest('b-guide.txt', paragraphs('Guide', 250));
    });
    expect(chunks).toHaveLength(258);
    expect(chunks.filter((chunk) => chunk.document_key === 'b-guide.txt').map((chunk) => chunk.ordinal)).toEqual(
      Array.from({ length: 250 }, (_, i) => i),
    );
  });

  it('refuses bad paging values with the messages of the other admin lists', async () => {
    for (const limit of ['0', '1001', 'abc', '']) {
      const chunks = await list(`?limit=${limit}`);
      const usage = await h.admin('GET', `/internal/usage/logs?limit=${limit}`);
      expect(chunks.status).toBe(400);
      expect(chunks.body).toEqual(usage.body);
    }
    for (const after of ['not-a-cursor!', 'bm90IGpzb24', 'WyJhIiwtMV0']) {
      const answer = await list(`?after=${after}`);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({
        type: 'invalid_request_error',
        message: `query parameter after must be the next_cursor of an earlier page, got '${after}'`,
      });
    }
    expect((await list('?after=')).body.error.message).toBe('query parameter after must not be empty');
  });

  it('answers 404 for a collection that does not exist, whatever the cursor', async () => {
    const answer = await h.admin('GET', '/internal/rag/collections/no-such-collection/chunks?after=not-a-cursor!');
    expect(answer.status).toBe(404);
    expect(answer.body.error.type).toBe('not_found_error');
  });

  it('keeps the answers for a 16,000-chunk document small, to its last page', async () => {
    const lines = Array.from({ length: 16_000 }, (_, i) => `Line ${i} of the long log, padded to fill a chunk alone.`);
    expect((await ingest('d-log.txt', lines.join('\n\n'))).chunks).toBe(16_000);
    const log = (await h.admin('GET', '/internal/rag/collections/manual/documents')).body.data.find(
      (doc: { key: string }) => doc.key === 'd-log.txt',
    );
    const first = await list(`?document=${log.id}`);
    expect(first.body.data).toHaveLength(100);
    expect(JSON.stringify(first.body).length).toBeLessThan(64 * 1024);
    let cursor: string = first.body.next_cursor;
    for (let page = 1; page < 160; page += 1) {
      const next = await list(`?document=${log.id}&after=${encodeURIComponent(cursor)}`);
      expect(next.body.data[0].ordinal).toBe(page * 100);
      cursor = next.body.next_cursor;
      if (page === 159) expect(cursor).toBeNull();
    }
  });
});
