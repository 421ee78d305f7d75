import { describe, expect, it } from 'vitest';
import { socketStore } from './support/socket-store.js';

// GET /v1/log?since_revision=N: oldest first, the revisions after N, for an agent tailing a branch from
// the last revision it saw (`git log --reverse N..`), over a real socket. `after` stays newest first.

type Log = {
  entries: { id: number; changes: { key: string; type: string; after?: string }[] }[];
  next_cursor?: number;
  total: number;
};

describe('GET /v1/log since_revision', () => {
  const socket = socketStore();

  /** Five revisions: `a` on the odd ones, `b` on the even. */
  async function history(namespace: string): Promise<number[]> {
    const ids: number[] = [];
    for (let step = 1; step <= 5; step++) {
      const key = step % 2 ? 'a' : 'b';
      const answer = await socket.send('POST', '/v1/apply', {
        scope: { namespace },
        documents: [{ key, content: `${key}${step}` }],
      });
      expect(answer.status).toBe(200);
      ids.push(answer.body.revision as number);
    }
    return ids;
  }

  const page = async (query: string) => {
    const answer = await socket.send('GET', `/v1/log?${query}`);
    expect(answer.status).toBe(200);
    const body = answer.body as unknown as Log;
    return { ids: body.entries.map((entry) => entry.id), next: body.next_cursor, total: body.total };
  };

  it('pages oldest first after the revision, next_cursor being the next since_revision', async () => {
    const [r1, r2, r3, r4, r5] = await history('tail');
    expect(await page('namespace=tail&since_revision=0&limit=2')).toEqual({ ids: [r1, r2], next: r2, total: 5 });
    expect(await page(`namespace=tail&since_revision=${r2}&limit=2`)).toEqual({ ids: [r3, r4], next: r4, total: 3 });
    expect(await page(`namespace=tail&since_revision=${r4}&limit=2`)).toEqual({ ids: [r5], total: 1 });
    // Caught up: nothing after the head, until the next write.
    expect(await page(`namespace=tail&since_revision=${r5}`)).toEqual({ ids: [], total: 0 });
    // The newest-first log is unchanged.
    expect(await page('namespace=tail&limit=2')).toEqual({ ids: [r5, r4], next: r4, total: 5 });
    expect(await page(`namespace=tail&limit=2&after=${r4}`)).toEqual({ ids: [r3, r2], next: r2, total: 5 });
  });

  it('tails one document, with or without contents', async () => {
    const [r1, , r3, , r5] = await history('tail-key');
    expect(await page(`namespace=tail-key&key=a&since_revision=${r1}`)).toEqual({ ids: [r3, r5], total: 2 });
    const answer = await socket.send('GET', `/v1/log?namespace=tail-key&since_revision=${r3}&contents=false`);
    expect((answer.body as unknown as Log).entries.map((entry) => entry.changes)).toEqual([
      [{ key: 'b', type: 'update' }],
      [{ key: 'a', type: 'update' }],
    ]);
    const withContents = await socket.send('GET', `/v1/log?namespace=tail-key&since_revision=${r3}&limit=1`);
    expect((withContents.body as unknown as Log).entries[0].changes).toEqual([
      { key: 'b', type: 'update', before: 'b2', after: 'b4' },
    ]);
  });

  it('refuses since_revision with after, naming both, and one that is no revision number', async () => {
    await history('tail-bad');
    const both = await socket.send('GET', '/v1/log?namespace=tail-bad&since_revision=1&after=3');
    expect(both.status).toBe(400);
    expect((both.body.error as { message: string }).message).toMatch(
      /since_revision and after cannot be used together/,
    );
    for (const value of ['-1', 'abc', '1.5']) {
      const answer = await socket.send('GET', `/v1/log?namespace=tail-bad&since_revision=${value}`);
      expect(answer.status).toBe(400);
      expect((answer.body.error as { message: string }).message).toMatch(/since_revision/);
    }
  });
});
