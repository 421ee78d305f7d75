import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { socketStore } from './support/socket-store.js';

// GET /v1/log?since&until, as `git log --since --until` and Dolt: only the revisions created from
// `since` (inclusive) to `until` (exclusive), over a real socket, with the clock set before each write
// so each revision's `created_at` is known (the store takes its clock when it starts, so the fake one is
// in place before).

type Entry = { id: number; created_at: string; changes: { key: string; type: string; after?: string }[] };
type Log = { entries: Entry[]; next_cursor?: number; total: number };

const HOUR = 60 * 60 * 1000;
const T0 = Date.parse('2026-03-01T00:00:00.000Z');
const at = (hours: number) => new Date(T0 + hours * HOUR).toISOString();

describe('GET /v1/log since and until', () => {
  beforeAll(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T0);
  });
  afterAll(() => vi.useRealTimers());
  const socket = socketStore();

  /** Writes `key` on a branch with the clock at `time`; the new revision. */
  async function writeAt(namespace: string, time: string, key: string, branch = 'main'): Promise<number> {
    vi.setSystemTime(new Date(time));
    const answer = await socket.send('POST', '/v1/apply', {
      scope: { namespace, branch },
      documents: [{ key, content: `${key} at ${time}` }],
    });
    expect(answer.status).toBe(200);
    return answer.body.revision as number;
  }

  const log = async (query: string) => socket.send('GET', `/v1/log?${query}`);
  const ids = async (query: string) => {
    const answer = await log(query);
    expect(answer.status).toBe(200);
    const body = answer.body as unknown as Log;
    return { ids: body.entries.map((entry) => entry.id), total: body.total, next: body.next_cursor };
  };

  /** Five revisions an hour apart, T0 to T0+4h; `a.md` on the even hours, `b.md` on the odd. */
  async function hourly(namespace: string): Promise<number[]> {
    const revisions: number[] = [];
    for (let hour = 0; hour < 5; hour++) revisions.push(await writeAt(namespace, at(hour), hour % 2 ? 'b.md' : 'a.md'));
    return revisions;
  }

  it('lists the revisions created from since (inclusive) to until (exclusive), counting only those', async () => {
    const [r0, r1, r2, r3, r4] = await hourly('hours');
    expect(await ids(`namespace=hours&since=${at(1)}&until=${at(3)}`)).toEqual({ ids: [r2, r1], total: 2 });
    expect(await ids(`namespace=hours&since=${at(3)}`)).toEqual({ ids: [r4, r3], total: 2 });
    expect(await ids(`namespace=hours&until=${at(1)}`)).toEqual({ ids: [r0], total: 1 });
    // The entries are the log's own: created_at is what the window was compared with.
    const entries = ((await log(`namespace=hours&since=${at(4)}`)).body as unknown as Log).entries;
    expect(entries).toEqual([expect.objectContaining({ id: r4, created_at: at(4) })]);
    // An empty window and one outside the history list nothing.
    expect(await ids(`namespace=hours&since=${at(2)}&until=${at(2)}`)).toEqual({ ids: [], total: 0 });
    expect(await ids(`namespace=hours&since=${at(9)}`)).toEqual({ ids: [], total: 0 });
    expect(await ids(`namespace=hours&until=${at(-1)}`)).toEqual({ ids: [], total: 0 });
  });

  it('pages with limit and after, and combines with key and contents', async () => {
    const [, r1, r2, r3, r4] = await hourly('paged');
    const first = await ids(`namespace=paged&since=${at(1)}&limit=2`);
    expect(first).toEqual({ ids: [r4, r3], total: 4, next: r3 });
    expect(await ids(`namespace=paged&since=${at(1)}&limit=2&after=${r3}`)).toEqual({ ids: [r2, r1], total: 4 });
    // A cursor above the window starts at its newest revision.
    expect(await ids(`namespace=paged&until=${at(3)}&after=${r4}&limit=1`)).toEqual({
      ids: [r2],
      total: 3,
      next: r2,
    });
    expect(await ids(`namespace=paged&since=${at(1)}&key=a.md`)).toEqual({ ids: [r4, r2], total: 2 });
    expect(await ids(`namespace=paged&since=${at(1)}&until=${at(4)}&key=b.md&limit=1`)).toEqual({
      ids: [r3],
      total: 2,
      next: r3,
    });
    const keysOnly = (await log(`namespace=paged&since=${at(4)}&contents=false`)).body as unknown as Log;
    expect(keysOnly.entries[0].changes).toEqual([{ key: 'a.md', type: 'update' }]);
  });

  it('reads offsets, dates and sub-millisecond digits exactly, a "+" sent unencoded included', async () => {
    const [r0, r1, r2] = await hourly('zones');
    // 02:00+01:00 is 01:00Z.
    expect(await ids(`namespace=zones&since=${encodeURIComponent('2026-03-01T02:00:00+01:00')}`)).toMatchObject({
      total: 4,
    });
    // The same offset with its "+" unencoded arrives as a space.
    expect(await ids(`namespace=zones&since=2026-03-01T02:00:00+01:00`)).toMatchObject({ total: 4 });
    expect(await ids(`namespace=zones&until=2026-03-01T01:00:00-00:30`)).toEqual({ ids: [r1, r0], total: 2 });
    expect(await ids(`namespace=zones&until=2026-03-01`)).toEqual({ ids: [], total: 0 });
    expect(await ids(`namespace=zones&since=2026-03-01&until=2026-03-02`)).toMatchObject({ total: 5 });
    // A revision at 01:00:00.000 is before 01:00:00.0001 and within until 01:00:00.0001.
    expect(await ids(`namespace=zones&since=2026-03-01T01:00:00.0001Z&until=${at(3)}`)).toEqual({
      ids: [r2],
      total: 1,
    });
    expect(await ids(`namespace=zones&until=2026-03-01T01:00:00.0001Z`)).toEqual({ ids: [r1, r0], total: 2 });
  });

  it('compares each revision’s own time, also where the clock went back between writes', async () => {
    const r1 = await writeAt('clock', at(0), 'a.md');
    const r2 = await writeAt('clock', at(2), 'a.md');
    const r3 = await writeAt('clock', at(1), 'a.md');
    const r4 = await writeAt('clock', at(3), 'a.md');
    expect(await ids(`namespace=clock&since=${at(1)}&until=${at(2.5)}`)).toEqual({ ids: [r3, r2], total: 2 });
    expect(await ids(`namespace=clock&until=${at(1.5)}`)).toEqual({ ids: [r3, r1], total: 2 });
    expect(await ids(`namespace=clock&since=${at(2)}`)).toEqual({ ids: [r4, r2], total: 2 });
  });

  it('answers 400 naming the parameter for a value that is no timestamp, or since after until', async () => {
    await writeAt('bad', at(0), 'a.md');
    const refused = async (query: string) => {
      const answer = await log(`namespace=bad&${query}`);
      expect(answer.status).toBe(400);
      return (answer.body as { error: { type: string; message: string } }).error;
    };
    expect(await refused('since=yesterday')).toEqual({
      type: 'invalid_request_error',
      code: 400,
      message:
        'since must be an ISO 8601 timestamp such as 2026-11-30T08:00:00Z, 2026-11-30T09:00:00+01:00 or ' +
        '2026-11-30 (midnight UTC), got "yesterday"',
    });
    expect((await refused('until=2026-02-30')).message).toMatch(
      /^until must be an ISO 8601 timestamp .* got "2026-02-30"$/,
    );
    expect((await refused('until=2026-03-01T25:00:00Z')).message).toMatch(/^until must be an ISO 8601 timestamp/);
    expect((await refused('since=2026-03-01T08:00:00')).message).toMatch(
      /^since must be .* got "2026-03-01T08:00:00" \(add Z for UTC, or an offset such as \+01:00\)$/,
    );
    expect((await refused('since=1772323200000')).message).toMatch(/^since must be an ISO 8601 timestamp/);
    expect((await refused(`since=${at(2)}&until=${at(1)}`)).message).toBe(
      `since (${at(2)}) is after until (${at(1)}); since is the earliest time listed (inclusive) and until the end (exclusive)`,
    );
    expect((await refused(`since=${at(0)}&since=${at(1)}`)).message).toBe('since is given 2 times; give it once');
  });
});
