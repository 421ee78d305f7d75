import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayAdmin, startTempServers, type TempServers } from '../support/temp-servers.js';

interface AuditEvent {
  readonly action: string;
  readonly details: Record<string, unknown>;
}

/**
 * The audit trail of users and teams keeps what a change replaced: an update records the changed
 * fields' values before and after, a deletion the whole record as it was, and a change that changes
 * nothing is no change at all (no write, no event).
 */
describe('audit events of users and teams', () => {
  let servers: TempServers;
  beforeAll(async () => {
    servers = await startTempServers();
  });
  afterAll(async () => servers?.stop());

  const admin = gatewayAdmin(() => servers);
  const eventsFor = async (target: string): Promise<AuditEvent[]> =>
    (await admin('GET', `/internal/audit?target=${encodeURIComponent(target)}`)).body.data;
  /** A record as stored: without the counts, usage and limit status the view adds. */
  const ownFields = (record: Record<string, unknown>) => {
    const { users: _users, keys: _keys, today: _today, limits: _limits, ...own } = record;
    return own;
  };

  it('records the old and new values of the fields an update changes', async () => {
    await admin('POST', '/internal/teams', { id: 'ledger', name: 'Ledger', tpd_budget: 1000 });
    await admin('POST', '/internal/teams', { id: 'archive' });
    await admin('POST', '/internal/users', { id: 'ivy', team: 'ledger', usd_daily_budget: 5 });

    const team = await admin('PATCH', '/internal/teams/ledger', { tpd_budget: 2000, name: 'Ledger' });
    expect(team.status).toBe(200);
    expect(team.body.tpd_budget).toBe(2000);
    const user = await admin('PATCH', '/internal/users/ivy', { usd_daily_budget: null, team: 'archive', rpm_limit: 3 });
    expect(user.status).toBe(200);

    const [teamUpdate] = await eventsFor('ledger');
    expect(teamUpdate).toMatchObject({ action: 'team.update' });
    expect(teamUpdate!.details).toEqual({ before: { tpd_budget: 1000 }, after: { tpd_budget: 2000 } });
    const [userUpdate] = await eventsFor('ivy');
    expect(userUpdate).toMatchObject({ action: 'user.update' });
    expect(userUpdate!.details).toEqual({
      before: { usd_daily_budget: 5, team: 'ledger', rpm_limit: null },
      after: { usd_daily_budget: null, team: 'archive', rpm_limit: 3 },
    });
  });

  it('writes nothing and records nothing for an update that re-sends the values in force', async () => {
    await admin('POST', '/internal/teams', { id: 'steady', tpd_budget: 500, metadata: { cost_centre: 'R1' } });
    await admin('POST', '/internal/users', { id: 'sam', team: 'steady', tpm_budget: 40, email: 'sam@example.com' });
    await admin('PATCH', '/internal/teams/steady', { tpd_budget: 700 });
    await admin('PATCH', '/internal/users/sam', { tpm_budget: 50 });
    const teamBefore = (await admin('GET', '/internal/teams/steady')).body;
    const userBefore = (await admin('GET', '/internal/users/sam')).body;
    await new Promise((resolve) => setTimeout(resolve, 5));

    for (let i = 0; i < 3; i++) {
      const team = await admin('PATCH', '/internal/teams/steady', { tpd_budget: 700, metadata: { cost_centre: 'R1' } });
      expect(team.status).toBe(200);
      expect(team.body.updated_at).toBe(teamBefore.updated_at);
      const user = await admin('PATCH', '/internal/users/sam', {
        tpm_budget: 50,
        team: 'steady',
        email: 'sam@example.com',
        name: null,
      });
      expect(user.status).toBe(200);
      expect(user.body.updated_at).toBe(userBefore.updated_at);
    }
    expect((await eventsFor('steady')).map((event) => event.action)).toEqual(['team.update', 'team.create']);
    expect((await eventsFor('sam')).map((event) => event.action)).toEqual(['user.update', 'user.create']);
    // A record that does not exist is still its 404, whatever the update names.
    expect((await admin('PATCH', '/internal/users/nobody', { tpm_budget: 50 })).status).toBe(404);
    expect((await admin('PATCH', '/internal/teams/nobody', { tpd_budget: 700 })).status).toBe(404);
  });

  it('keeps the whole record, limits and budgets included, in the audit event of a deletion', async () => {
    await admin('POST', '/internal/teams', { id: 'leaving', tpm_budget: 900, usd_monthly_budget: 250 });
    await admin('POST', '/internal/users', {
      id: 'lee',
      name: 'Lee',
      team: 'leaving',
      rpm_limit: 10,
      tpd_budget: 20000,
      metadata: { desk: 7 },
    });
    const user = (await admin('GET', '/internal/users/lee')).body;
    const team = (await admin('GET', '/internal/teams/leaving')).body;

    expect((await admin('DELETE', '/internal/users/lee')).status).toBe(200);
    expect((await admin('DELETE', '/internal/teams/leaving')).status).toBe(200);

    const [userDelete] = await eventsFor('lee');
    expect(userDelete).toMatchObject({ action: 'user.delete' });
    expect(userDelete!.details).toEqual({ before: ownFields(user) });
    expect(userDelete!.details.before).toMatchObject({ rpm_limit: 10, tpd_budget: 20000, metadata: { desk: 7 } });
    const [teamDelete] = await eventsFor('leaving');
    expect(teamDelete).toMatchObject({ action: 'team.delete' });
    expect(teamDelete!.details).toEqual({ before: ownFields(team), responses_deleted: 0, cache_entries_purged: 0 });
    expect(teamDelete!.details.before).toMatchObject({ tpm_budget: 900, usd_monthly_budget: 250 });
  });
});
