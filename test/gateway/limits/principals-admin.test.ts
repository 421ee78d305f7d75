import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from '../support/harness.js';

// Users and teams through the admin API: records, validation naming the field, conflicts, audit.

let h: GatewayHarness;

beforeAll(async () => {
  h = await startGatewayHarness();
});
afterAll(() => h.close());

describe('/internal/teams and /internal/users', () => {
  it('creates, lists, changes and deletes teams and users', async () => {
    const team = await h.admin('POST', '/internal/teams', { id: 'research', name: 'Research', tpd_budget: 5000 });
    expect(team.status).toBe(201);
    expect(team.body).toMatchObject({ id: 'research', name: 'Research', tpd_budget: 5000, users: 0, keys: 0 });
    expect(team.body.limits).toEqual([expect.objectContaining({ limit_type: 'team_daily', limit: 5000, used: 0 })]);

    const user = await h.admin('POST', '/internal/users', {
      id: 'ada@example.com',
      email: 'ada@example.com',
      team: 'research',
      rpm_limit: 60,
    });
    expect(user.status).toBe(201);
    expect(user.body).toMatchObject({ id: 'ada@example.com', team: 'research', rpm_limit: 60, keys: 0 });

    const listed = await h.admin('GET', '/internal/users?team=research');
    expect(listed.body.data.map((u: any) => u.id)).toEqual(['ada@example.com']);
    expect((await h.admin('GET', '/internal/teams/research')).body.users).toBe(1);

    const changed = await h.admin('PATCH', '/internal/users/ada@example.com', { rpm_limit: null, tpm_budget: 900 });
    expect(changed.body).toMatchObject({ rpm_limit: null, tpm_budget: 900 });

    const conflict = await h.admin('DELETE', '/internal/teams/research');
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.message).toContain('1 user(s)');
    expect((await h.admin('DELETE', '/internal/users/ada@example.com')).status).toBe(200);
    expect((await h.admin('DELETE', '/internal/teams/research')).status).toBe(200);
    expect((await h.admin('GET', '/internal/teams/research')).status).toBe(404);

    const audit = await h.admin('GET', '/internal/audit?limit=20');
    const actions = audit.body.data.map((e: any) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining(['team.create', 'user.create', 'user.update', 'user.delete', 'team.delete']),
    );
  });

  it('a key issued for an unknown user and team creates both, and the user is then in the team', async () => {
    const key = await h.issueKey({ scopes: ['chat'], user: 'grace', team: 'compilers' });
    expect(key).toMatchObject({ user: 'grace', team: 'compilers' });
    const user = await h.admin('GET', '/internal/users/grace');
    expect(user.body).toMatchObject({ team: 'compilers', keys: 1 });
    expect((await h.admin('GET', '/internal/teams/compilers')).body.keys).toBe(1);
    // A later key of the user, issued without a team, gets the user's team.
    const second = await h.issueKey({ scopes: ['chat'], user: 'grace' });
    expect(second.team).toBe('compilers');
    // The user cannot be deleted while they own active keys.
    const refused = await h.admin('DELETE', '/internal/users/grace');
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain('2 active key(s)');
  });

  it('refuses bad input with a message naming the field', async () => {
    const badId = await h.admin('POST', '/internal/users', { id: 'has space' });
    expect(badId.status).toBe(400);
    expect(badId.body.error.message).toContain('id');
    const badLimit = await h.admin('POST', '/internal/teams', { id: 'x', rpm_limit: -1 });
    expect(badLimit.status).toBe(400);
    expect(badLimit.body.error.message).toContain('rpm_limit');
    // Spend is counted to the billionth of a dollar: a smaller budget would refuse every priced request.
    const tinyBudget = await h.admin('POST', '/internal/teams', { id: 'x', usd_daily_budget: 1e-12 });
    expect(tinyBudget.status).toBe(400);
    expect(tinyBudget.body.error.message).toContain('usd_daily_budget');
    expect(tinyBudget.body.error.message).toContain('at least 0.000000001');
    const unknownField = await h.admin('POST', '/internal/teams', { id: 'y', rpm: 5 });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.error.message).toContain('rpm');
    const unknownTeam = await h.admin('POST', '/internal/users', { id: 'z', team: 'nowhere' });
    expect(unknownTeam.status).toBe(400);
    expect(unknownTeam.body.error.message).toContain("team: no team with id 'nowhere'");
    const duplicate = await h.admin('POST', '/internal/teams', { id: 'dup' });
    expect(duplicate.status).toBe(201);
    expect((await h.admin('POST', '/internal/teams', { id: 'dup' })).status).toBe(409);
    expect((await h.admin('PATCH', '/internal/users/nobody', { name: 'x' })).status).toBe(404);
  });

  it('takes a user id however its accents were typed: composed and decomposed are one user', async () => {
    const composed = 'carol.\u00fcnal@example.com';
    const decomposed = 'carol.u\u0308nal@example.com';
    const created = await h.admin('POST', '/internal/users', { id: composed, tpd_budget: 1000 });
    expect(created.status).toBe(201);
    const again = await h.admin('POST', '/internal/users', { id: decomposed });
    expect(again.status).toBe(409);
    const found = await h.admin('GET', `/internal/users/${encodeURIComponent(decomposed)}`);
    expect(found.status).toBe(200);
    expect(found.body.id).toBe(composed);
    const key = await h.admin('POST', '/internal/api-keys', { scopes: ['chat'], user: decomposed });
    expect(key.body.user).toBe(composed);
    // null names nobody, on a new key as on a change.
    const nobody = await h.admin('POST', '/internal/api-keys', { scopes: ['chat'], user: null, team: null });
    expect(nobody.status).toBe(201);
    expect(nobody.body).toMatchObject({ user: null, team: null });
  });

  it('needs the master key', async () => {
    const response = await fetch(`${h.url}/internal/users`);
    expect(response.status).toBe(401);
  });
});
