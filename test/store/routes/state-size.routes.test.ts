import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from '../app-helpers.js';
import { socketStore } from '../support/socket-store.js';

// A branch holds any number of documents of up to a MiB each, so its whole state could be gigabytes that
// one answer would build in memory at once. A whole read is refused past response_bytes, naming the bound
// and how to page; a page of the state in key order carries at most that much beyond its first document.

const RESPONSE_BYTES = 10_000;
const CONTENT = 1_000;

type State = { revision: number; objects: Record<string, string>; next_cursor?: string };

describe('GET /v1/state past response_bytes', () => {
  const socket = socketStore({ limits: { response_bytes: RESPONSE_BYTES } });
  const get = async (query: string) => {
    const response = await fetch(`${socket.base}/v1/state?${query}`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as State };
  };
  const write = async (namespace: string, documents: { key: string; content: string }[]) => {
    const answer = await socket.send('POST', '/v1/apply', { scope: { namespace }, documents });
    expect(answer.status).toBe(200);
    return answer.body.revision as number;
  };
  /** Every page from `query`, following next_cursor. */
  const pages = async (query: string): Promise<State[]> => {
    const read: State[] = [];
    let after = '';
    for (let i = 0; i < 100; i++) {
      const { status, body } = await get(`${query}${after ? `&after=${encodeURIComponent(after)}` : ''}`);
      expect(status).toBe(200);
      read.push(body);
      if (body.next_cursor === undefined) return read;
      after = body.next_cursor;
    }
    throw new Error('paging did not end');
  };
  const size = (objects: Record<string, string>) =>
    Object.entries(objects).reduce((n, [k, v]) => n + Buffer.byteLength(k) + Buffer.byteLength(v), 0);

  // 30 documents of 1,003 bytes each (key and content): 30,090 bytes, three times the bound.
  const documents = Array.from({ length: 30 }, (_, i) => ({
    key: `k${String(i).padStart(2, '0')}`,
    content: String(i % 10).repeat(CONTENT),
  }));

  it('refuses the whole state with 413, naming its size, the bound and how to page', async () => {
    const revision = await write('big/state', documents);
    const { status, headers, body } = await get('namespace=big/state');
    expect(status).toBe(413);
    expect(headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(body).toEqual({
      error: {
        type: 'payload_too_large',
        code: 413,
        message:
          `the state of branch "main" of namespace "big/state" at revision ${revision} is 30090 bytes in 30 ` +
          `documents; a whole state is at most ${RESPONSE_BYTES} bytes (store.limits.response_bytes): read it in ` +
          `pages, GET /v1/state?namespace=big/state&branch=main&revision=${revision}&limit=1000 and then the same ` +
          `with after=<next_cursor> until an answer has no next_cursor`,
      },
    });
    // The same at an older revision and by checkpoint: every whole read is bounded.
    await write('big/state', [{ key: 'k00', content: 'small' }]);
    expect((await get(`namespace=big/state&revision=${revision}`)).status).toBe(413);
    expect(
      (await socket.send('POST', '/v1/checkpoints', { scope: { namespace: 'big/state' }, name: 'c' })).status,
    ).toBe(200);
    expect((await get('namespace=big/state&checkpoint=c')).status).toBe(413);
  });

  it('pages through it as the error says, each page within the bound, every document once', async () => {
    const revision = await write('big/paged', documents);
    // The head moves on: the pages still read the revision they name.
    await write('big/paged', [{ key: 'k05', content: 'moved' }]);
    const read = await pages(`namespace=big/paged&branch=main&revision=${revision}&limit=1000`);
    expect(read.map((page) => Object.keys(page.objects).length)).toEqual([9, 9, 9, 3]);
    for (const page of read) {
      expect(page.revision).toBe(revision);
      expect(size(page.objects)).toBeLessThanOrEqual(RESPONSE_BYTES);
    }
    const all = Object.assign({}, ...read.map((page) => page.objects)) as Record<string, string>;
    expect(all).toEqual(Object.fromEntries(documents.map((d) => [d.key, d.content])));
    expect(read[0].next_cursor).toBe('k08');
  });

  it('takes limit as the most documents of a page, and pages by bytewise key order', async () => {
    const keys = ['__proto__', 'b', 'a', 'é', '🎉', 'Z', 'a/b', 'a\u0000b'];
    await write('small/paged', [...keys.map((key) => ({ key, content: '' })), { key: 'x', content: 'y' }]);
    const read = await pages('namespace=small/paged&limit=2');
    expect(read.map((page) => Object.keys(page.objects).length)).toEqual([2, 2, 2, 2, 1]);
    const order = read.flatMap((page) => Object.keys(page.objects));
    expect(order).toEqual(['Z', '__proto__', 'a', 'a\u0000b', 'a/b', 'b', 'x', 'é', '🎉']);
    expect(read[3].objects).toEqual({ x: 'y', é: '' });
    // A small state is still answered whole, as before.
    const whole = await get('namespace=small/paged');
    expect(whole.status).toBe(200);
    expect(Object.keys(whole.body.objects)).toHaveLength(9);
    expect(whole.body.next_cursor).toBeUndefined();
  });

  it('answers a document larger than the bound alone, with a cursor to the rest', async () => {
    await write('big/one', [
      { key: 'a', content: 'x'.repeat(RESPONSE_BYTES * 2) },
      { key: 'b', content: 'y' },
    ]);
    const first = await get('namespace=big/one&limit=10');
    expect(Object.keys(first.body.objects)).toEqual(['a']);
    expect(first.body.next_cursor).toBe('a');
    const second = await get('namespace=big/one&limit=10&after=a');
    expect(second.body).toEqual({ revision: 1, objects: { b: 'y' } });
  });

  it('pages an unwritten branch as empty, and names a bad after or limit', async () => {
    expect((await get('namespace=none&limit=5')).body).toEqual({ revision: 0, objects: {} });
    const negative = await get('namespace=big/one&limit=-1');
    expect(negative.status).toBe(400);
    expect(JSON.stringify(negative.body)).toContain('limit must not be negative');
    const long = await get(`namespace=big/one&after=${'k'.repeat(1025)}`);
    expect(long.status).toBe(400);
    expect(JSON.stringify(long.body)).toContain('after: must be at most 1024 characters');
  });
});
