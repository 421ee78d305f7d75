import { describe, expect, it } from 'vitest';
import { socketStore, type SocketStore } from './support/socket-store.js';

// A log page of whole contents is built in memory at once. Its bound is its own (16 MiB, or
// response_bytes when lower), not the upload limit, and counts the bytes as sent: a document of
// quotes is twice its size once escaped.
describe('the log page bound', () => {
  interface Page {
    readonly entries: { id: number }[];
    readonly next_cursor?: number;
    readonly total: number;
  }

  /** Writes `revisions` revisions of one document of `size` quotes, each a new text; returns their ids. */
  const writeQuotes = async (socket: SocketStore, revisions: number, size: number): Promise<number[]> => {
    const ids: number[] = [];
    for (let n = 0; n < revisions; n++) {
      const written = await socket.send('POST', '/v1/apply', {
        scope: { namespace: 'quotes', branch: 'main' },
        documents: [{ key: 'q.txt', content: `${n}${'"'.repeat(size)}` }],
      });
      expect(written.status).toBe(200);
      ids.push(written.body.revision as number);
    }
    return ids.reverse();
  };

  /** Every page of the log: their entry ids and body sizes in bytes. */
  const readAllPages = async (socket: SocketStore): Promise<{ ids: number[][]; bytes: number[] }> => {
    const ids: number[][] = [];
    const bytes: number[] = [];
    let after: number | undefined;
    do {
      const response = await fetch(`${socket.base}/v1/log?namespace=quotes${after ? `&after=${after}` : ''}`, {
        headers: { authorization: `Bearer st-admin-token-0123456789abcdef` },
      });
      const text = await response.text();
      expect(response.status).toBe(200);
      const page = JSON.parse(text) as Page;
      ids.push(page.entries.map((entry) => entry.id));
      bytes.push(Buffer.byteLength(text));
      after = page.next_cursor;
    } while (after !== undefined);
    return { ids, bytes };
  };

  describe('by default, with documents of some MB', () => {
    const socket = socketStore({ limits: { document_bytes: 3 * 1024 * 1024, body_bytes: 64 * 1024 * 1024 } });

    it('ends a page before 16 MiB of JSON as sent, and pages through every revision once', async () => {
      // Each update carries 2.5 MB before and after, 10 MB once escaped: one entry a page.
      const ids = await writeQuotes(socket, 4, 2_500_000);
      const pages = await readAllPages(socket);
      expect(pages.ids.flat()).toEqual(ids);
      // The first revision (a create, 5 MB escaped) shares its page.
      expect(pages.ids.map((page) => page.length)).toEqual([1, 1, 2]);
      for (const size of pages.bytes) expect(size).toBeLessThanOrEqual(16 * 1024 * 1024);
    });
  });

  describe('with response_bytes lower than 16 MiB', () => {
    const socket = socketStore({ limits: { response_bytes: 1024 * 1024 } });

    it('follows response_bytes, counting the escaped bytes', async () => {
      // 300 KB of quotes before and after: 1.2 MB escaped per update, 600 KB stored.
      const ids = await writeQuotes(socket, 5, 300_000);
      const pages = await readAllPages(socket);
      expect(pages.ids.flat()).toEqual(ids);
      expect(pages.ids.map((page) => page.length)).toEqual([1, 1, 1, 1, 1]);
      const { entries } = (await socket.send('GET', '/v1/log?namespace=quotes&contents=false')).body as unknown as Page;
      expect(entries).toHaveLength(5);
    });
  });
});
