import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTempServers, storeCaller, TEST_STORE_TOKEN, type TempServers } from '../../support/temp-servers.js';

// POST /v1/gc over real HTTP with tokens whose admin permission is limited to some namespaces.

const TEAM_ADMIN = 'st-team-admin-0123456789abcdef';
const NO_NAMESPACE_ADMIN = 'st-empty-admin-0123456789abcdef';
const REVISIONS = 4;

describe('POST /v1/gc with namespace grants', () => {
  let servers: TempServers;
  const call = storeCaller(() => servers);
  const logIds = async (namespace: string) =>
    (await call(`/v1/log?namespace=${namespace}`, TEST_STORE_TOKEN)).body.entries.map((e: { id: number }) => e.id);

  beforeAll(async () => {
    servers = await startTempServers({
      store: {
        auth: {
          tokens: [
            { name: 'team-admin', token: TEAM_ADMIN, verbs: ['read', 'write', 'admin'], namespaces: ['team/*'] },
            { name: 'nobody', token: NO_NAMESPACE_ADMIN, verbs: ['read', 'admin'], namespaces: [] },
          ],
        },
      },
    });
    for (const namespace of ['team/app', 'team/web', 'other'])
      for (let i = 0; i < REVISIONS; i++) {
        const written = await call('/v1/apply', TEST_STORE_TOKEN, {
          scope: { namespace },
          documents: [{ key: 'k', content: `${namespace} ${i}` }],
        });
        expect(written.status).toBe(200);
      }
  });
  afterAll(async () => servers.stop());

  it('counts and prunes only the namespaces the token may administer', async () => {
    // keep 1: three revisions go in each namespace; the team token sees only its two.
    expect(await call('/v1/gc', TEAM_ADMIN, { keep: 1, dry_run: true })).toEqual({
      status: 200,
      body: { pruned: 6, free_bytes: expect.any(Number) },
    });
    expect(await call('/v1/gc', TEAM_ADMIN, { keep: 1 })).toEqual({
      status: 200,
      body: { pruned: 6, free_bytes: expect.any(Number) },
    });
    expect(await logIds('team/app')).toEqual([REVISIONS]);
    expect(await logIds('team/web')).toEqual([REVISIONS]);
    expect(await logIds('other')).toEqual([4, 3, 2, 1]);
    expect(await call('/v1/gc', TEAM_ADMIN, { keep: 1 })).toEqual({
      status: 200,
      body: { pruned: 0, free_bytes: expect.any(Number) },
    });
  });

  it('keeps whole-store gc for a full-access token', async () => {
    expect(await call('/v1/gc', TEST_STORE_TOKEN, { keep: 1, dry_run: true })).toEqual({
      status: 200,
      body: { pruned: 3, free_bytes: expect.any(Number) },
    });
    expect(await call('/v1/gc', TEST_STORE_TOKEN, { keep: 1 })).toEqual({
      status: 200,
      body: { pruned: 3, free_bytes: expect.any(Number) },
    });
    expect(await logIds('other')).toEqual([4]);
    expect((await call('/v1/state?namespace=other', TEST_STORE_TOKEN)).body.objects).toEqual({ k: 'other 3' });
  });

  it('answers 403 to an admin token that may administer no namespace', async () => {
    const response = await call('/v1/gc', NO_NAMESPACE_ADMIN, { keep: 1, dry_run: true });
    expect(response).toEqual({
      status: 403,
      body: { error: { type: 'permission_error', code: 403, message: 'token "nobody" may administer no namespace' } },
    });
  });
});
