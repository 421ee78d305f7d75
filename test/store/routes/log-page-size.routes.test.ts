import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestStore, type TestStore } from '../app-helpers.js';

// Log entries carry the contents before and after each change, so a page of large revisions (limit
// up to 1,000) could hold gigabytes and take the process down. A page ends, with next_cursor, once its
// JSON would pass the log's page bound (16 MiB, or response_bytes when lower); the first entry always comes.

const PAGE_BYTES = 64 * 1024;
const CONTENT = 10_000;

type Page = { entries: { id: number; changes: { before?: string; after?: string }[] }[]; next_cursor?: number };

describe('GET /v1/log over large revisions', () => {
  let store: TestStore;
  const scope = { namespace: 'big/log' };
  beforeAll(async () => {
    store = await buildTestStore({ limits: { response_bytes: PAGE_BYTES } });
    // Ten revisions of about 20,000 characters each (an update shows before and after).
    for (let i = 0; i < 10; i++) {
      const content = String(i).repeat(CONTENT);
      const response = await store.call('POST', '/v1/apply', { scope, documents: [{ key: 'doc', content }] });
      expect(response.statusCode).toBe(200);
    }
  });
  afterAll(async () => store.close());

  const contentOf = (page: Page) =>
    page.entries.flatMap((e) => e.changes).reduce((n, c) => n + (c.before?.length ?? 0) + (c.after?.length ?? 0), 0);

  it('ends a page once its contents would pass the page bound, and pages through every revision once', async () => {
    const seen: number[] = [];
    let after = 0;
    for (let pages = 0; pages < 20; pages++) {
      const response = await store.call('GET', `/v1/log?namespace=big/log&limit=20&after=${after}`);
      expect(response.statusCode).toBe(200);
      const page = response.json() as Page & { total: number };
      expect(page.total).toBe(10);
      expect(page.entries.length).toBeGreaterThan(0);
      expect(contentOf(page)).toBeLessThanOrEqual(PAGE_BYTES);
      seen.push(...page.entries.map((e) => e.id));
      if (page.next_cursor === undefined) break;
      expect(page.next_cursor).toBe(page.entries[page.entries.length - 1].id);
      after = page.next_cursor;
    }
    expect(seen).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
  });

  it('lists the whole history in one page with contents=false, each change with its key and type only', async () => {
    const response = await store.call('GET', '/v1/log?namespace=big/log&limit=20&contents=false');
    expect(response.statusCode).toBe(200);
    const page = response.json() as Page & { entries: { contents_omitted?: boolean }[] };
    expect(page.entries.map((e) => e.id)).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(page.next_cursor).toBeUndefined();
    expect(page.entries[0]).toMatchObject({ contents_omitted: true, changes: [{ key: 'doc', type: 'update' }] });
    expect(page.entries[9]!.changes).toEqual([{ key: 'doc', type: 'create' }]);
    const bad = await store.call('GET', '/v1/log?namespace=big/log&contents=no');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toContain('contents');
  });

  it('omits the contents of an entry larger than response_bytes, and goes on with the page', async () => {
    // Seven documents written one by one, then deleted by one replace: that entry's contents pass the bound.
    const other = { namespace: 'big/one' };
    for (let i = 0; i < 7; i++) {
      const documents = [{ key: `k${i}`, content: 'x'.repeat(CONTENT) }];
      expect((await store.call('POST', '/v1/apply', { scope: other, documents })).statusCode).toBe(200);
    }
    const replace = { scope: other, documents: [{ key: 'only', content: '' }], mode: 'replace' };
    expect((await store.call('POST', '/v1/apply', replace)).statusCode).toBe(200);

    const page = (await store.call('GET', '/v1/log?namespace=big/one')).json() as Page & {
      entries: { contents_omitted?: boolean }[];
    };
    expect(page.entries[0]).toMatchObject({ id: 8, contents_omitted: true });
    expect(page.entries.length).toBeGreaterThan(1);
    expect(contentOf(page)).toBeLessThanOrEqual(PAGE_BYTES);
  });

  it('leaves pages of ordinary revisions as long as the limit asks', async () => {
    const small = { namespace: 'big/small' };
    for (let i = 0; i < 30; i++)
      await store.call('POST', '/v1/apply', { scope: small, documents: [{ key: 'a', content: String(i) }] });
    const page = (await store.call('GET', '/v1/log?namespace=big/small&limit=25')).json() as Page;
    expect(page.entries).toHaveLength(25);
    expect(page.next_cursor).toBe(page.entries[24].id);
  });
});

describe('GET /v1/log over revisions whose contents are omitted', () => {
  let store: TestStore;
  // Each revision lists 40 keys of 30 characters (1,200 characters of keys) with contents past
  // response_bytes, so its entry carries keys and types only; with the page bound at response_bytes
  // (10 bytes), each page carries the one entry that always comes.
  beforeAll(async () => {
    store = await buildTestStore({ limits: { body_bytes: 4096, response_bytes: 10 } });
    for (let i = 0; i < 6; i++) {
      const documents = Array.from({ length: 40 }, (_, k) => ({
        key: `key-${String(k).padStart(26, '0')}`,
        content: `${i}`,
      }));
      const response = await store.call('POST', '/v1/apply', { scope: { namespace: 'keys/log' }, documents });
      expect(response.statusCode).toBe(200);
    }
  });
  afterAll(async () => store.close());

  it('ends a page once its keys would pass the page bound', async () => {
    const page = (await store.call('GET', '/v1/log?namespace=keys/log&limit=100')).json() as {
      entries: { contents_omitted?: boolean }[];
      next_cursor?: number;
    };
    expect(page.entries.map((e) => e.contents_omitted)).toEqual([true]);
    expect(page.next_cursor).toBe(6);
  });
});
