import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

const invalid = (message: string) => ({ error: { type: 'invalid_request_error', message, code: 400 } });

/**
 * Changing a key's user or team names existing records, as moving a user to a team does: a typo must
 * not make a new team and take the key out from under its real team's budgets. Issuing a key still
 * creates the records it names.
 */
describe('PATCH /internal/api-keys/:id with a user or team', () => {
  let h: GatewayHarness;
  beforeAll(async () => {
    h = await startGatewayHarness();
  });
  afterAll(() => h.close());

  it('refuses a team or user that does not exist, in the words users get, and creates nothing', async () => {
    const key = await h.issueKey({ scopes: ['chat'], user: 'owners-ada', team: 'owners-ml' });
    const usersBefore = await h.admin('POST', '/internal/users', { id: 'owners-typo-user', team: 'typo-team' });
    expect(usersBefore.body).toEqual(invalid("team: no team with id 'typo-team'"));

    const team = await h.admin('PATCH', `/internal/api-keys/${key.id}`, { team: 'typo-team' });
    expect(team.status).toBe(400);
    expect(team.body).toEqual(invalid("team: no team with id 'typo-team'"));
    const user = await h.admin('PATCH', `/internal/api-keys/${key.id}`, { user: 'typo-user' });
    expect(user.body).toEqual(invalid("user: no user with id 'typo-user'"));

    expect((await h.admin('GET', '/internal/teams/typo-team')).status).toBe(404);
    expect((await h.admin('GET', '/internal/users/typo-user')).status).toBe(404);
    expect((await h.admin('GET', `/internal/api-keys/${key.id}`)).body).toMatchObject({
      user: 'owners-ada',
      team: 'owners-ml',
    });
  });

  it('moves a key to an existing team or user', async () => {
    const key = await h.issueKey({ scopes: ['chat'], user: 'owners-bo', team: 'owners-ops' });
    await h.issueKey({ scopes: ['chat'], user: 'owners-cy', team: 'owners-research' });
    const moved = await h.admin('PATCH', `/internal/api-keys/${key.id}`, {
      user: 'owners-cy',
      team: 'owners-research',
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ user: 'owners-cy', team: 'owners-research' });
  });

  it('refuses any change to a revoked key with 409, as rotating one is', async () => {
    const key = await h.issueKey({ scopes: ['chat'], user: 'owners-dee' });
    expect((await h.admin('DELETE', `/internal/api-keys/${key.id}`)).status).toBe(200);
    const renamed = await h.admin('PATCH', `/internal/api-keys/${key.id}`, { name: 'renamed' });
    expect(renamed.status).toBe(409);
    expect(renamed.body.error.message).toBe(`API key '${key.id}' is revoked: issue a new key instead of changing it`);
    const rotated = await h.admin('POST', `/internal/api-keys/${key.id}/rotate`);
    expect(rotated.status).toBe(409);
    expect((await h.admin('GET', `/internal/api-keys/${key.id}`)).body.name).toBeNull();
  });
});
