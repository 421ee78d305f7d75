import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_TOKEN } from './app-helpers.js';
import { socketStore } from './support/socket-store.js';

// GET /v1/state?as_of=<time>: the branch's state at that time (its last revision written at or before
// it), as Dolt's `AS OF`, over a real socket, with the clock set before each write so each revision's
// time is known (the store takes its clock when it starts, so the fake one is in place before).

const HOUR = 60 * 60 * 1000;
const T0 = Date.parse('2026-03-01T00:00:00.000Z');
const at = (hours: number) => new Date(T0 + hours * HOUR).toISOString();

describe('GET /v1/state as_of', () => {
  beforeAll(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T0);
  });
  afterAll(() => vi.useRealTimers());
  const socket = socketStore();

  /** Writes `a` = `content` with the clock at `time`; the new revision. */
  async function writeAt(namespace: string, time: string, content: string): Promise<number> {
    vi.setSystemTime(new Date(time));
    const answer = await socket.send('POST', '/v1/apply', { scope: { namespace }, documents: [{ key: 'a', content }] });
    expect(answer.status).toBe(200);
    return answer.body.revision as number;
  }
  const get = (query: string, headers: Record<string, string> = {}) =>
    fetch(`${socket.base}/v1/state?${query}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...headers } });
  const read = async (query: string) => {
    const response = await get(query);
    return { status: response.status, etag: response.headers.get('etag'), body: (await response.json()) as never };
  };

  it('reads the last revision written at or before the time, given as ISO 8601 or Unix milliseconds', async () => {
    const r0 = await writeAt('asof', at(0), 'zero');
    const r1 = await writeAt('asof', at(1), 'one');
    await writeAt('asof', at(2), 'two');
    expect((await read(`namespace=asof&as_of=${at(1)}`)).body).toEqual({ revision: r1, objects: { a: 'one' } });
    expect((await read(`namespace=asof&as_of=${at(1.5)}`)).body).toEqual({ revision: r1, objects: { a: 'one' } });
    expect((await read(`namespace=asof&as_of=${T0 + HOUR - 1}`)).body).toEqual({
      revision: r0,
      objects: { a: 'zero' },
    });
    expect((await read(`namespace=asof&as_of=2026-03-01T01:30:00%2B01:00`)).body).toEqual({
      revision: r0,
      objects: { a: 'zero' },
    });
    // The other reads of a state take it too.
    expect((await read(`namespace=asof&as_of=${at(1)}&contents=false`)).body).toEqual({
      revision: r1,
      documents: [{ key: 'a', bytes: 3 }],
    });
  });

  it('reads a branch made from another as of its first revision, and not before it was made', async () => {
    await writeAt('asof-branch', at(0), 'zero');
    vi.setSystemTime(new Date(at(1)));
    const made = await socket.send('POST', '/v1/branches', { scope: { namespace: 'asof-branch' }, name: 'side' });
    expect(made.status).toBe(200);
    const first = made.body.head_revision as number;
    expect((await read(`namespace=asof-branch&branch=side&as_of=${at(1.5)}`)).body).toEqual({
      revision: first,
      objects: { a: 'zero' },
    });
    expect((await read(`namespace=asof-branch&branch=side&as_of=${at(0.5)}`)).status).toBe(404);
  });

  it('answers the ETag of that revision read, and 304 to a matching If-None-Match', async () => {
    await writeAt('asof-etag', at(0), 'zero');
    const r1 = await writeAt('asof-etag', at(1), 'one');
    await writeAt('asof-etag', at(2), 'two');
    const asOf = await read(`namespace=asof-etag&as_of=${at(1)}`);
    const byRevision = await read(`namespace=asof-etag&revision=${r1}`);
    expect(asOf.etag).not.toBeNull();
    expect(asOf.etag).toBe(byRevision.etag);
    const again = await get(`namespace=asof-etag&as_of=${at(1)}`, { 'if-none-match': asOf.etag as string });
    expect(again.status).toBe(304);
  });

  it('is 404 before the first revision, naming the oldest one', async () => {
    const r0 = await writeAt('asof-early', at(5), 'five');
    const early = await read(`namespace=asof-early&as_of=${at(4)}`);
    expect(early.status).toBe(404);
    const { message } = (early.body as { error: { message: string } }).error;
    expect(message).toContain(`has no revision as_of ${at(4)}`);
    expect(message).toContain(`its oldest revision is ${r0}, written at ${at(5)}`);
  });

  it('refuses as_of with revision or checkpoint, naming both, and a time it cannot read', async () => {
    await writeAt('asof-bad', at(0), 'zero');
    const withRevision = await read(`namespace=asof-bad&as_of=${at(0)}&revision=1`);
    expect(withRevision.status).toBe(400);
    expect((withRevision.body as { error: { message: string } }).error.message).toMatch(
      /as_of and revision cannot be used together/,
    );
    const withCheckpoint = await read(`namespace=asof-bad&as_of=${at(0)}&checkpoint=v1`);
    expect(withCheckpoint.status).toBe(400);
    expect((withCheckpoint.body as { error: { message: string } }).error.message).toMatch(
      /as_of and checkpoint cannot be used together/,
    );
    const unreadable = await read('namespace=asof-bad&as_of=yesterday');
    expect(unreadable.status).toBe(400);
    expect((unreadable.body as { error: { message: string } }).error.message).toMatch(
      /as_of must be an ISO 8601 timestamp .* or milliseconds since the epoch/,
    );
  });
});
