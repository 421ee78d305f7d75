import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

type Page = { data: Array<{ id: string }>; next_cursor: string | null };

/** Ids in bytewise (UTF-8) order, as SQLite orders text: `Zeta` before `alpha`, `ärger` after `beta`. */
const bytewise = (ids: readonly string[]): string[] =>
  [...ids].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));

/**
 * `GET /internal/users` and `GET /internal/teams` answered every record at once and refused `limit`.
 * They page as the key list does: `limit` (1 to 1,000) and `after`, the `next_cursor` of the previous
 * page, in id order; without `limit` they still answer every record, with `next_cursor` null.
 */
describe('the user and team listings in pages', () => {
  let h: GatewayHarness;
  const teamIds = ['Zeta', 'alpha', 'beta', '\u00e4rger', 'gamma'];
  const userIds = ['ada@example.com', 'Bob', 'carol', '\u00e9mile', 'dave', 'erin'];
  beforeAll(async () => {
    h = await startGatewayHarness();
    for (const id of teamIds) expect((await h.admin('POST', '/internal/teams', { id })).status).toBe(201);
    for (const id of userIds)
      expect((await h.admin('POST', '/internal/users', { id, team: 'alpha' })).status).toBe(201);
    expect((await h.admin('POST', '/internal/users', { id: 'outsider', team: 'beta' })).status).toBe(201);
  });
  afterAll(() => h.close());

  /** Follows `next_cursor` from the first page to the last; `between` runs after each page but the last. */
  const readAll = async (path: string, limit: number, between?: (page: Page) => Promise<void>) => {
    const ids: string[] = [];
    const pages: Page[] = [];
    let after: string | null = null;
    for (let count = 0; count < 100; count += 1) {
      const cursor: string = after === null ? '' : `&after=${encodeURIComponent(after)}`;
      const answer = await h.admin('GET', `${path}${path.includes('?') ? '&' : '?'}limit=${limit}${cursor}`);
      expect(answer.status).toBe(200);
      const page = answer.body as Page;
      expect(page.data.length).toBeLessThanOrEqual(limit);
      pages.push(page);
      ids.push(...page.data.map((record) => record.id));
      after = page.next_cursor;
      if (after === null) return { ids, pages };
      await between?.(page);
    }
    throw new Error('the cursor never reached the end');
  };

  it('pages the teams by id, bytewise, each once, as the whole list orders them', async () => {
    const whole = await h.admin('GET', '/internal/teams');
    expect(whole.status).toBe(200);
    expect(whole.body.next_cursor).toBeNull();
    const order = whole.body.data.map((team: { id: string }) => team.id);
    expect(order).toEqual(bytewise(teamIds));

    const { ids, pages } = await readAll('/internal/teams', 2);
    expect(ids).toEqual(order);
    expect(pages).toHaveLength(3);
    // The cursor is the id of the page's last team; the records are whole (counts and limits included).
    expect(pages[0]!.next_cursor).toBe(order[1]);
    expect(pages[0]!.data[0]).toMatchObject({ id: 'Zeta', users: 0, keys: 0, limits: expect.any(Array) });
    const alpha = pages.flatMap((page) => page.data).find((team) => team.id === 'alpha');
    expect(alpha).toMatchObject({ users: userIds.length });
  });

  it('pages one team’s users by id, and every user without the team', async () => {
    const whole = await h.admin('GET', '/internal/users?team=alpha');
    expect(whole.body.next_cursor).toBeNull();
    expect(whole.body.data.map((user: { id: string }) => user.id)).toEqual(bytewise(userIds));

    const { ids } = await readAll('/internal/users?team=alpha', 4);
    expect(ids).toEqual(bytewise(userIds));
    const everyone = await readAll('/internal/users', 3);
    expect(everyone.ids).toEqual(bytewise([...userIds, 'outsider']));
  });

  it('goes on after a cursor whose record was deleted between two pages', async () => {
    const seen: string[] = [];
    const { ids } = await readAll('/internal/users?team=alpha', 2, async (page) => {
      seen.push(...page.data.map((user) => user.id));
      // The last user of the first page goes; the next page still starts after its id.
      if (seen.length === 2)
        expect((await h.admin('DELETE', `/internal/users/${encodeURIComponent(seen[1]!)}`)).status).toBe(200);
    });
    expect(ids).toEqual(bytewise(userIds));
  });

  it('refuses a limit out of range or not a number, naming the parameter', async () => {
    for (const path of ['/internal/teams', '/internal/users'])
      for (const limit of ['0', '1001', 'two']) {
        const answer = await h.admin('GET', `${path}?limit=${limit}`);
        expect({ path, limit, status: answer.status }).toEqual({ path, limit, status: 400 });
        expect(answer.body.error.message).toContain('query parameter limit');
      }
    const empty = await h.admin('GET', '/internal/teams?after=');
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toContain('after');
  });
});
