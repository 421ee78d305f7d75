import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from './app-helpers.js';
import { socketStore } from './support/socket-store.js';

// A poller of a few documents (an agent watching its own config) sends back the ETag of `state?key=`:
// it gets a 304 while other documents of the branch change, and the documents once one of them does.

describe('conditional reads of named documents', () => {
  const socket = socketStore();
  const namespace = 'named-etag';
  const get = (query: string, tag?: string) =>
    fetch(`${socket.base}/v1/state?namespace=${namespace}&${query}`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(tag === undefined ? {} : { 'if-none-match': tag }) },
    });
  const apply = async (documents: { key: string; content?: string; delete?: boolean }[]) => {
    const answer = await socket.send('POST', '/v1/apply', { scope: { namespace }, documents });
    expect(answer.status).toBe(200);
    return answer.body.revision as number;
  };
  const tagOf = async (query: string) => {
    const answer = await get(query);
    expect(answer.status).toBe(200);
    return { tag: answer.headers.get('etag')!, body: (await answer.json()) as Record<string, unknown> };
  };

  it('keeps the tag of one document through writes of others, and changes it when that one changes', async () => {
    const first = await apply([
      { key: 'cfg.json', content: '{"v":1}' },
      { key: 'log.md', content: 'one' },
    ]);
    const { tag, body } = await tagOf('key=cfg.json');
    // Weak: two answers under it may name different revisions of the same documents.
    expect(tag).toMatch(/^W\/"[^"]+"$/);
    expect(body).toEqual({ revision: first, objects: { 'cfg.json': '{"v":1}' } });

    await apply([{ key: 'log.md', content: 'two' }]);
    const unchanged = await get('key=cfg.json', tag);
    expect(unchanged.status).toBe(304);
    expect(unchanged.headers.get('etag')).toBe(tag);
    expect(await unchanged.text()).toBe('');
    // The strong form of the same tag matches too (If-None-Match compares weakly).
    expect((await get('key=cfg.json', tag.slice(2))).status).toBe(304);
    // A whole read still names the revision: it changed.
    const whole = await tagOf('');
    await apply([{ key: 'log.md', content: 'three' }]);
    expect((await get('', whole.tag)).status).toBe(200);

    const changed = await apply([{ key: 'cfg.json', content: '{"v":2}' }]);
    const after = await get('key=cfg.json', tag);
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(tag);
    expect(await after.json()).toEqual({ revision: changed, objects: { 'cfg.json': '{"v":2}' } });
  });

  it('covers every named document, its deletion, and the listing without contents', async () => {
    await apply([
      { key: 'a', content: 'a1' },
      { key: 'b', content: 'b1' },
      { key: 'c', content: 'c1' },
    ]);
    const both = await tagOf('key=a&key=b');
    const sizes = await tagOf('key=a&key=b&contents=false');
    expect(sizes.tag).not.toBe(both.tag);
    await apply([{ key: 'c', content: 'c2' }]);
    expect((await get('key=a&key=b', both.tag)).status).toBe(304);
    expect((await get('key=a&key=b&contents=false', sizes.tag)).status).toBe(304);

    // The same size with another content is another listing tag as well: the tag follows contents.
    await apply([{ key: 'b', content: 'b2' }]);
    expect((await get('key=a&key=b', both.tag)).status).toBe(200);
    expect((await get('key=a&key=b&contents=false', sizes.tag)).status).toBe(200);

    const present = await tagOf('key=a');
    await apply([{ key: 'a', delete: true }]);
    const deleted = await get('key=a', present.tag);
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toMatchObject({ objects: {} });
    // A key that is absent stays absent through other writes: 304 for that too.
    const absent = deleted.headers.get('etag')!;
    await apply([{ key: 'c', content: 'c3' }]);
    expect((await get('key=a', absent)).status).toBe(304);
  });

  it('keeps the tag of a checkpoint read while the checkpoint moves past revisions that left the document', async () => {
    await apply([{ key: 'base.md', content: 'base' }]);
    const mark = () => socket.send('POST', '/v1/checkpoints', { scope: { namespace }, name: 'nightly' });
    expect((await mark()).status).toBe(200);
    const { tag } = await tagOf('checkpoint=nightly&key=base.md');
    await apply([{ key: 'other.md', content: 'other' }]);
    expect((await mark()).status).toBe(200);
    expect((await get('checkpoint=nightly&key=base.md', tag)).status).toBe(304);
    await apply([{ key: 'base.md', content: 'base 2' }]);
    expect((await mark()).status).toBe(200);
    expect((await get('checkpoint=nightly&key=base.md', tag)).status).toBe(200);
  });
});
