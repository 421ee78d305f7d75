import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

type KeyList = { data: Array<{ id: string; name: string | null; status: string }>; next_cursor: string | null };

/**
 * `GET /internal/api-keys` filtered by user, team and issuer only: a script looking for its expired
 * keys, or for a key by name, read every key and filtered it itself. It filters by `status` and by
 * `name` (any part of it, in any case, as the Keys screen's filter finds names), with the paging.
 */
describe('the key listing filtered by status and name', () => {
  let h: GatewayHarness;
  const ids: Record<string, string> = {};
  const list = async (query: string) => {
    const answer = await h.admin('GET', `/internal/api-keys?${query}`);
    expect({ query, status: answer.status }).toEqual({ query, status: 200 });
    return answer.body as KeyList;
  };
  // Keys issued in the same millisecond may list in either order: compare the names as sets.
  const names = (page: KeyList) => page.data.map((key) => key.name ?? '').sort();

  beforeAll(async () => {
    h = await startGatewayHarness();
    for (const name of ['CI runner', 'nightly-ci', 'laptop', 'old CI', 'expired ci'])
      ids[name] = (await h.issueKey({ name, scopes: ['chat'] })).id;
    expect((await h.admin('DELETE', `/internal/api-keys/${ids['old CI']}`)).status).toBe(200);
    // An update may set a past expiry, to end a key now.
    const ended = await h.admin('PATCH', `/internal/api-keys/${ids['expired ci']}`, {
      expires_at: '2020-01-01T00:00:00Z',
    });
    expect(ended.status).toBe(200);
  });
  afterAll(() => h.close());

  it('lists the keys of one status, revoked ones without include_revoked', async () => {
    expect(names(await list('status=active'))).toEqual(['CI runner', 'laptop', 'nightly-ci']);
    expect(names(await list('status=expired'))).toEqual(['expired ci']);
    expect(names(await list('status=revoked'))).toEqual(['old CI']);
    expect(names(await list('status=active&include_revoked=true'))).toEqual(['CI runner', 'laptop', 'nightly-ci']);
    for (const key of (await list('status=expired')).data) expect(key.status).toBe('expired');
  });

  it('finds keys by any part of their name, in any case', async () => {
    expect(names(await list('name=ci'))).toEqual(['CI runner', 'expired ci', 'nightly-ci']);
    expect(names(await list('name=CI&include_revoked=true'))).toEqual([
      'CI runner',
      'expired ci',
      'nightly-ci',
      'old CI',
    ]);
    expect(names(await list('name=Runner'))).toEqual(['CI runner']);
    expect(names(await list('name=nobody'))).toEqual([]);
    // `%` and `_` are letters here, not patterns.
    expect(names(await list('name=%25'))).toEqual([]);
    expect(names(await list('name=ci&status=active'))).toEqual(['CI runner', 'nightly-ci']);
  });

  it('pages a filtered list, each key once, in the order of the whole list', async () => {
    const whole = await list('name=ci&include_revoked=true');
    const first = await list('name=ci&include_revoked=true&limit=3');
    expect(first.data.map((key) => key.id)).toEqual(whole.data.slice(0, 3).map((key) => key.id));
    expect(first.next_cursor).toBe(whole.data[2]!.id);
    const second = await list(`name=ci&include_revoked=true&limit=3&after=${first.next_cursor}`);
    expect(second.data.map((key) => key.id)).toEqual([whole.data[3]!.id]);
    expect(second.next_cursor).toBeNull();
  });

  it('refuses an unknown status, an empty name, and revoked keys asked for and left out at once', async () => {
    for (const [query, words] of [
      ['status=disabled', 'status'],
      ['name=', 'name'],
      ['status=revoked&include_revoked=false', 'include_revoked=false'],
    ] as const) {
      const answer = await h.admin('GET', `/internal/api-keys?${query}`);
      expect({ query, status: answer.status }).toEqual({ query, status: 400 });
      expect(answer.body.error.message).toContain(words);
    }
  });
});
