import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from './app-helpers.js';
import { socketStore } from './support/socket-store.js';

// `GET /v1/log?key=` is a document's history, as `git log -- <path>`: the branch's revisions that
// changed it, newest first, paged and counted like the whole log.
describe('GET /v1/log with key', () => {
  const socket = socketStore({
    tokens: [{ name: 'admin', token: ADMIN_TOKEN, verbs: ['read', 'write', 'admin'], namespaces: ['*'] }],
  });
  const apply = async (branch: string, documents: Record<string, string | null>, message: string) => {
    const written = await socket.send('POST', '/v1/apply', {
      scope: { namespace: 'docs-history', branch },
      message,
      documents: Object.entries(documents).map(([key, content]) =>
        content === null ? { key, delete: true } : { key, content },
      ),
    });
    expect(written.status).toBe(200);
    return written.body.revision as number;
  };
  interface LogPage {
    readonly entries: { id: number; message: string; changes: { key: string; type: string }[] }[];
    readonly total: number;
    readonly next_cursor?: number;
  }
  const log = async (query: string) => {
    const answer = await socket.send('GET', `/v1/log?namespace=docs-history&${query}`);
    return { status: answer.status, body: answer.body as unknown as LogPage & { error: { message: string } } };
  };

  it('lists only the revisions that changed the document, with all their changes, paged and counted', async () => {
    const one = await apply('main', { 'router.json': '{"model":"a"}', 'prompt.md': 'hi' }, 'one');
    await apply('main', { 'prompt.md': 'hello' }, 'two');
    const three = await apply('main', { 'router.json': '{"model":"b"}' }, 'three');
    await apply('main', { 'other.md': 'x' }, 'four');
    await apply('main', { 'router.json': null, 'prompt.md': 'bye' }, 'five');

    const first = await log('branch=main&key=router.json&limit=2');
    expect(first.status).toBe(200);
    expect(first.body.entries.map((entry) => entry.message)).toEqual(['five', 'three']);
    expect(first.body.total).toBe(3);
    expect(first.body.next_cursor).toBe(three);
    // Each entry keeps every change of its revision: the document's own and the rest.
    expect(first.body.entries[0]!.changes.map((change) => [change.key, change.type])).toEqual([
      ['prompt.md', 'update'],
      ['router.json', 'delete'],
    ]);
    const rest = await log(`branch=main&key=router.json&limit=2&after=${first.body.next_cursor}`);
    expect(rest.body).toMatchObject({ total: 3, entries: [{ id: one, message: 'one' }] });
    expect(rest.body.next_cursor).toBeUndefined();
    expect((await log('branch=main')).body.total).toBe(5);
  });

  it('follows the branch: another branch’s changes of the document are not in its history', async () => {
    await socket.send('POST', '/v1/branches', { scope: { namespace: 'docs-history', branch: 'main' }, name: 'side' });
    await apply('side', { 'router.json': '{"model":"side"}' }, 'side change');
    expect((await log('branch=side&key=router.json')).body.entries.map((entry) => entry.message)).toEqual([
      'side change',
    ]);
    expect((await log('branch=main&key=router.json')).body.total).toBe(3);
  });

  it('answers an empty history for a document never written, and names a key that is too long', async () => {
    expect((await log('branch=main&key=nope.md')).body).toEqual({ entries: [], total: 0 });
    const long = await log(`branch=main&key=${'k'.repeat(5000)}`);
    expect(long.status).toBe(400);
    expect(long.body.error.message).toMatch(/^key: must be at most \d+ characters$/);
  });
});
