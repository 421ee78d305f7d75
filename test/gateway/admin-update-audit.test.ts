import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayAdmin, startTempServers, type TempServers } from '../support/temp-servers.js';

/**
 * The audit trail of an update records what the record now holds: a relative expiry as the time it set,
 * and an update that names no field is no change at all (no write, no event).
 */
describe('audit events of admin updates', () => {
  let servers: TempServers;
  beforeAll(async () => {
    servers = await startTempServers();
  });
  afterAll(async () => servers?.stop());

  const admin = gatewayAdmin(() => servers);
  const eventsFor = async (target: string) =>
    (await admin('GET', `/internal/audit?target=${encodeURIComponent(target)}`)).body.data as Array<{
      action: string;
      details: Record<string, unknown>;
    }>;

  it('records a relative expiry as the expires_at it set', async () => {
    const key = (await admin('POST', '/internal/api-keys', { name: 'expiring' })).body;
    const patched = await admin('PATCH', `/internal/api-keys/${key.id}`, { expires_in_seconds: 3600, rpm_limit: 5 });
    expect(patched.status).toBe(200);
    const [update] = await eventsFor(key.id);
    expect(update).toMatchObject({
      action: 'api_key.update',
      details: { fields: ['rpm_limit', 'expires_at'], rpm_limit: 5, expires_at: patched.body.expires_at },
    });
    expect(update!.details).not.toHaveProperty('expires_in_seconds');
    expect(patched.body.expires_at).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('records what each changed field of a key held before, so its trail needs no earlier event', async () => {
    const key = (await admin('POST', '/internal/api-keys', { name: 'budgeted', usd_daily_budget: 10, rpm_limit: 60 }))
      .body;
    await admin('PATCH', `/internal/api-keys/${key.id}`, { usd_daily_budget: 2.5, name: 'tightened', tpm_limit: 900 });
    const [update] = await eventsFor(key.id);
    expect([...(update!.details.fields as string[])].sort()).toEqual(['name', 'tpm_limit', 'usd_daily_budget']);
    expect(update!.details).toMatchObject({
      usd_daily_budget: 2.5,
      before: { usd_daily_budget: 10, name: 'budgeted', tpm_limit: null },
    });
    // Only the fields the update named: the untouched limit is not restated.
    expect(update!.details.before).not.toHaveProperty('rpm_limit');
  });

  it('answers an empty update with the record unchanged, writing and recording nothing', async () => {
    const key = (await admin('POST', '/internal/api-keys', { name: 'untouched' })).body;
    const team = (await admin('POST', '/internal/teams', { id: 'still' })).body;
    const user = (await admin('POST', '/internal/users', { id: 'same', team: 'still' })).body;
    await new Promise((resolve) => setTimeout(resolve, 5));
    for (const [path, before] of [
      [`/internal/api-keys/${key.id}`, (await admin('GET', `/internal/api-keys/${key.id}`)).body],
      ['/internal/teams/still', team],
      ['/internal/users/same', user],
    ] as const) {
      const answer = await admin('PATCH', path, {});
      expect({ path, status: answer.status }).toEqual({ path, status: 200 });
      expect(answer.body.updated_at ?? null).toBe(before.updated_at ?? null);
      expect(answer.body.name).toBe(before.name);
    }
    expect((await eventsFor(key.id)).map((event) => event.action)).toEqual(['api_key.create']);
    expect((await eventsFor('still')).map((event) => event.action)).toEqual(['team.create']);
    expect((await eventsFor('same')).map((event) => event.action)).toEqual(['user.create']);
    // A RAG collection's the same.
    const collection = (await admin('POST', '/internal/rag/collections', { name: 'unchanged' })).body;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const patched = await admin('PATCH', '/internal/rag/collections/unchanged', {});
    expect(patched.status).toBe(200);
    expect(patched.body.updated_at).toBe(collection.updated_at);
    expect((await eventsFor('unchanged')).map((event) => event.action)).toEqual(['rag.collection.create']);
    // An empty update of a record that does not exist is still its 404.
    expect((await admin('PATCH', '/internal/teams/nobody', {})).status).toBe(404);
    expect((await admin('PATCH', '/internal/api-keys/key_missing', {})).status).toBe(404);
    expect((await admin('PATCH', '/internal/rag/collections/missing', {})).status).toBe(404);
  });
});
