import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

type Page = { data: Array<{ id: string; key: string; chunks: number }>; next_cursor: string | null };

/**
 * `GET /internal/rag/collections/<name>/documents` answered every document of a collection at once and
 * refused `limit`. It pages as the other admin lists do, by document key (`after`: the previous page's
 * `next_cursor`, the key of its last document); without `limit` it still answers every document, which
 * the collection screen shows.
 */
describe('the RAG document listing in pages', () => {
  let h: GatewayHarness;
  // Keys a query string must carry encoded: a space, `&`, `+`, `#` and a letter past ASCII.
  const keys = ['b c&d.txt', 'a.md', 'Z+1.txt', 'notes/#2.md', '\u00fcber.txt', 'e.txt'];
  const bytewise = (values: readonly string[]) =>
    [...values].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  const path = '/internal/rag/collections/manual/documents';

  /** Follows `next_cursor` to the end; `between` runs after each page but the last. */
  const readAll = async (limit: number, between?: (page: Page) => Promise<void>): Promise<string[]> => {
    const read: string[] = [];
    let after: string | null = null;
    for (let count = 0; count < 100; count += 1) {
      const cursor: string = after === null ? '' : `&after=${encodeURIComponent(after)}`;
      const answer = await h.admin('GET', `${path}?limit=${limit}${cursor}`);
      expect(answer.status).toBe(200);
      const page = answer.body as Page;
      expect(page.data.length).toBeLessThanOrEqual(limit);
      read.push(...page.data.map((document) => document.key));
      after = page.next_cursor;
      if (after === null) return read;
      await between?.(page);
    }
    throw new Error('the cursor never reached the end');
  };

  beforeAll(async () => {
    h = await startGatewayHarness();
    expect((await h.admin('POST', '/internal/rag/collections', { name: 'manual' })).status).toBe(201);
    for (const key of keys) {
      const answer = await h.admin('POST', path, { key, content: `The document ${key} says something.` });
      expect(answer.status).toBe(201);
    }
  });
  afterAll(() => h.close());

  it('answers every document by key without limit, and the same ones a page at a time', async () => {
    const whole = await h.admin('GET', path);
    expect(whole.status).toBe(200);
    expect(whole.body.next_cursor).toBeNull();
    expect(whole.body.data.map((document: { key: string }) => document.key)).toEqual(bytewise(keys));

    const first = await h.admin('GET', `${path}?limit=4`);
    expect(first.body.data).toEqual(whole.body.data.slice(0, 4));
    expect(first.body.next_cursor).toBe(bytewise(keys)[3]);
    expect(await readAll(4)).toEqual(bytewise(keys));
    expect(await readAll(1)).toEqual(bytewise(keys));
  });

  it('goes on after a cursor whose document was deleted between two pages', async () => {
    let deleted = false;
    const read = await readAll(2, async (page) => {
      if (deleted) return;
      deleted = true;
      const last = page.data[page.data.length - 1]!;
      expect((await h.admin('DELETE', `${path}/${last.id}`)).status).toBe(204);
    });
    expect(read).toEqual(bytewise(keys));
  });

  it('refuses a limit out of range, and lists no collection that does not exist', async () => {
    for (const limit of ['0', '1001', 'two']) {
      const answer = await h.admin('GET', `${path}?limit=${limit}`);
      expect({ limit, status: answer.status }).toEqual({ limit, status: 400 });
      expect(answer.body.error.message).toContain('query parameter limit');
    }
    const missing = await h.admin('GET', '/internal/rag/collections/absent/documents?limit=2');
    expect(missing.status).toBe(404);
  });
});
