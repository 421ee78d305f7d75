import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTempServers, storeCaller, TEST_STORE_TOKEN, type TempServers } from '../../support/temp-servers.js';

// POST /v1/gc {namespace}: trimming a chatty agent-state namespace no longer cuts every other
// namespace's history to the same length (gc covered every namespace the token may administer).

const TEAM_ADMIN = 'st-team-admin-gc-ns-0123456789';

describe('POST /v1/gc for one namespace', () => {
  let servers: TempServers;
  const call = storeCaller(() => servers);
  const revisions = async (namespace: string) =>
    (await call(`/v1/log?namespace=${namespace}`, TEST_STORE_TOKEN)).body.entries.length as number;

  beforeAll(async () => {
    servers = await startTempServers({
      store: {
        auth: {
          tokens: [
            { name: 'team-admin', token: TEAM_ADMIN, verbs: ['read', 'write', 'admin'], namespaces: ['team/*'] },
          ],
        },
      },
    });
    for (const namespace of ['team/agent', 'team/config', 'other'])
      for (let i = 0; i < 4; i++)
        expect(
          (
            await call('/v1/apply', TEST_STORE_TOKEN, {
              scope: { namespace },
              documents: [{ key: 'k', content: `${i}` }],
            })
          ).status,
        ).toBe(200);
  });
  afterAll(async () => servers.stop());

  it('counts and prunes the named namespace alone', async () => {
    expect(await call('/v1/gc', TEST_STORE_TOKEN, { keep: 1, dry_run: true, namespace: 'team/agent' })).toEqual({
      status: 200,
      body: { pruned: 3, free_bytes: expect.any(Number) },
    });
    expect(await call('/v1/gc', TEAM_ADMIN, { keep: 1, namespace: 'team/agent' })).toEqual({
      status: 200,
      body: { pruned: 3, free_bytes: expect.any(Number) },
    });
    expect([await revisions('team/agent'), await revisions('team/config'), await revisions('other')]).toEqual([
      1, 4, 4,
    ]);
  });

  it('refuses a namespace the token may not administer, and names one that does not exist', async () => {
    const forbidden = await call('/v1/gc', TEAM_ADMIN, { keep: 1, namespace: 'other' });
    expect(forbidden.status).toBe(403);
    expect(await revisions('other')).toBe(4);
    const missing = await call('/v1/gc', TEST_STORE_TOKEN, { keep: 1, namespace: 'team/agnet' });
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe('namespace "team/agnet" does not exist');
    const bad = await call('/v1/gc', TEST_STORE_TOKEN, { keep: 1, namespace: '../x' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('namespace');
  });
});
