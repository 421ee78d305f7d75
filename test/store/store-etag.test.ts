import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from './app-helpers.js';
import { socketStore } from './support/socket-store.js';

const READER = 'st-etag-reader-0123456789abcdef';
const OTHER_NAMESPACE = 'st-etag-other-0123456789abcdef';

/**
 * A poller (an agent watching its state, the UI refetching) sends back the `ETag` it was given; while
 * the branch has not moved it gets a 304 with no body, and the full state once it has.
 */
describe('conditional reads of the store', () => {
  const socket = socketStore({
    tokens: [
      { name: 'admin', token: ADMIN_TOKEN, verbs: ['read', 'write', 'admin'], namespaces: ['*'] },
      { name: 'reader', token: READER, verbs: ['read'], namespaces: ['etag'] },
      { name: 'elsewhere', token: OTHER_NAMESPACE, verbs: ['read'], namespaces: ['other'] },
    ],
  });
  const get = (path: string, headers: Record<string, string> = {}, token = ADMIN_TOKEN) =>
    fetch(`${socket.base}${path}`, { headers: { authorization: `Bearer ${token}`, ...headers } });
  const apply = (content: string) =>
    socket.send('POST', '/v1/apply', { scope: { namespace: 'etag' }, documents: [{ key: 'a', content }] });

  it('answers 304 with no body to a matching If-None-Match, and the new state after a write', async () => {
    await apply('one');
    const first = await get('/v1/state?namespace=etag');
    expect(first.status).toBe(200);
    const tag = first.headers.get('etag');
    expect(tag).toMatch(/^"[^"]+"$/);

    const unchanged = await get('/v1/state?namespace=etag', { 'if-none-match': tag! });
    expect(unchanged.status).toBe(304);
    expect(await unchanged.text()).toBe('');
    expect(unchanged.headers.get('etag')).toBe(tag);
    expect(unchanged.headers.get('x-request-id')).toBeTruthy();
    // A weak form of the tag, and a list holding it, match too (If-None-Match compares weakly).
    expect((await get('/v1/state?namespace=etag', { 'if-none-match': `W/${tag}` })).status).toBe(304);
    expect((await get('/v1/state?namespace=etag', { 'if-none-match': `"x", ${tag}` })).status).toBe(304);

    await apply('two');
    const changed = await get('/v1/state?namespace=etag', { 'if-none-match': tag! });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(tag);
    expect(await changed.json()).toMatchObject({ objects: { a: 'two' } });
  });

  it('gives each query its own tag: a revision, a page, another branch', async () => {
    await apply('three');
    const tags = await Promise.all(
      [
        '/v1/state?namespace=etag',
        '/v1/state?namespace=etag&revision=1',
        '/v1/state?namespace=etag&limit=1',
        '/v1/state?namespace=etag&branch=dev',
      ].map(async (path) => (await get(path)).headers.get('etag')),
    );
    expect(new Set(tags).size).toBe(4);
    // A revision's documents never change: its tag still matches after the head moves.
    await apply('four');
    expect((await get('/v1/state?namespace=etag&revision=1', { 'if-none-match': tags[1]! })).status).toBe(304);
    expect((await get('/v1/state?namespace=etag', { 'if-none-match': tags[1]! })).status).toBe(200);
  });

  it('answers 404, not 304, once the checkpoint a tag was given for is gone', async () => {
    await socket.send('POST', '/v1/checkpoints', { scope: { namespace: 'etag' }, name: 'gone' });
    const tag = (await get('/v1/state?namespace=etag&checkpoint=gone')).headers.get('etag')!;
    expect((await get('/v1/state?namespace=etag&checkpoint=gone', { 'if-none-match': tag })).status).toBe(304);
    await socket.send('DELETE', '/v1/checkpoints', { namespace: 'etag', name: 'gone' });
    expect((await get('/v1/state?namespace=etag&checkpoint=gone', { 'if-none-match': tag })).status).toBe(404);
  });

  it('tags the log, 304 until the branch moves', async () => {
    const first = await get('/v1/log?namespace=etag&limit=5');
    const tag = first.headers.get('etag')!;
    expect(tag).toBeTruthy();
    expect((await get('/v1/log?namespace=etag&limit=5', { 'if-none-match': tag })).status).toBe(304);
    expect((await get('/v1/log?namespace=etag&limit=2', { 'if-none-match': tag })).status).toBe(200);
    await apply('five');
    expect((await get('/v1/log?namespace=etag&limit=5', { 'if-none-match': tag })).status).toBe(200);
  });

  it('checks the token before a 304: a stranger learns nothing from a matching tag', async () => {
    const tag = (await get('/v1/state?namespace=etag', {}, READER)).headers.get('etag')!;
    expect((await get('/v1/state?namespace=etag', { 'if-none-match': tag }, READER)).status).toBe(304);
    expect((await get('/v1/state?namespace=etag', { 'if-none-match': tag }, 'st-wrong-0123456789abcdef')).status).toBe(
      401,
    );
    expect((await get('/v1/state?namespace=etag', { 'if-none-match': tag }, OTHER_NAMESPACE)).status).toBe(403);
  });
});
