import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from '../support/harness.js';

// A key handed to another user: the team it had from its old user becomes the new user's, so the
// new user's spending is charged to their own team's budget and reads their own team's cache.

let h: GatewayHarness;

beforeAll(async () => {
  h = await startGatewayHarness({ cache: { enabled: true } });
});
afterAll(() => h.close());

const ask = (key: string) =>
  h
    .openaiClient(key)
    .chat.completions.create({
      model: 'gpt-4o-mini',
      temperature: 0,
      max_tokens: 10,
      messages: [{ role: 'user', content: 'the plan' }],
    })
    .withResponse();

describe('a key given to another user', () => {
  it("takes the new user's team when its team came from its old user", async () => {
    await h.admin('POST', '/internal/teams', { id: 'reassign-red', tpd_budget: 100_000 });
    await h.admin('POST', '/internal/teams', { id: 'reassign-blue', tpd_budget: 100_000 });
    await h.admin('POST', '/internal/users', { id: 'reassign-alice', team: 'reassign-red' });
    await h.admin('POST', '/internal/users', { id: 'reassign-bob', team: 'reassign-blue' });
    const alices = await h.issueKey({ scopes: ['chat'], user: 'reassign-alice' });
    expect(alices.team).toBe('reassign-red');
    // Red's answer is in the cache.
    expect((await ask(alices.key)).response.headers.get('x-cache-hit')).toBe('false');

    const patched = await h.admin('PATCH', `/internal/api-keys/${alices.id}`, { user: 'reassign-bob' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ user: 'reassign-bob', team: 'reassign-blue' });

    // Bob does not read red's kept answer, and his spending is blue's.
    const bobs = await ask(alices.key);
    expect(bobs.response.headers.get('x-cache-hit')).toBe('false');
    expect(h.openai.requests).toHaveLength(2);
    const red = await h.admin('GET', '/internal/teams/reassign-red');
    const blue = await h.admin('GET', '/internal/teams/reassign-blue');
    expect(red.body.today.requests).toBe(1);
    expect(blue.body.today.requests).toBe(1);
    const [row] = await h.usageRows();
    expect(row).toMatchObject({ user: 'reassign-bob', team: 'reassign-blue' });
  });

  it('keeps a team it was given on purpose, and one the change names', async () => {
    await h.admin('POST', '/internal/teams', { id: 'reassign-ops' });
    await h.admin('POST', '/internal/users', { id: 'reassign-carol', team: 'reassign-red' });
    const onPurpose = await h.issueKey({ scopes: ['chat'], user: 'reassign-carol', team: 'reassign-ops' });
    const moved = await h.admin('PATCH', `/internal/api-keys/${onPurpose.id}`, { user: 'reassign-bob' });
    expect(moved.body.team).toBe('reassign-ops');
    const named = await h.issueKey({ scopes: ['chat'], user: 'reassign-carol' });
    const both = await h.admin('PATCH', `/internal/api-keys/${named.id}`, {
      user: 'reassign-bob',
      team: 'reassign-ops',
    });
    expect(both.body.team).toBe('reassign-ops');
  });

  it('loses the team it had from its user when the user is cleared, and keeps one given on purpose', async () => {
    await h.admin('POST', '/internal/users', { id: 'reassign-dan', team: 'reassign-red' });
    const inherited = await h.issueKey({ scopes: ['chat'], user: 'reassign-dan' });
    const cleared = await h.admin('PATCH', `/internal/api-keys/${inherited.id}`, { user: null });
    expect(cleared.body).toMatchObject({ user: null, team: null });
    const onPurpose = await h.issueKey({ scopes: ['chat'], user: 'reassign-dan', team: 'reassign-ops' });
    const kept = await h.admin('PATCH', `/internal/api-keys/${onPurpose.id}`, { user: null });
    expect(kept.body).toMatchObject({ user: null, team: 'reassign-ops' });
  });
});

describe('a user moved to another team', () => {
  it("writes each key that followed into that key's own audit trail", async () => {
    await h.admin('POST', '/internal/teams', { id: 'mover-from' });
    await h.admin('POST', '/internal/teams', { id: 'mover-to' });
    await h.admin('POST', '/internal/users', { id: 'mover', team: 'mover-from' });
    const followed = await h.issueKey({ scopes: ['chat'], user: 'mover' });
    const stays = await h.issueKey({ scopes: ['chat'], user: 'mover', team: 'mover-to' });
    await h.admin('PATCH', '/internal/users/mover', { team: 'mover-to' });
    expect((await h.admin('GET', `/internal/api-keys/${followed.id}`)).body.team).toBe('mover-to');
    const trail = (await h.admin('GET', `/internal/audit?target=${followed.id}`)).body.data;
    expect(trail.map((event: { action: string }) => event.action)).toEqual(['api_key.update', 'api_key.create']);
    expect(trail[0].details).toMatchObject({
      team: 'mover-to',
      following_user: 'mover',
      before: { team: 'mover-from' },
    });
    // A key already in the new team did not move, and has nothing new in its trail.
    const unmoved = (await h.admin('GET', `/internal/audit?target=${stays.id}`)).body.data;
    expect(unmoved.map((event: { action: string }) => event.action)).toEqual(['api_key.create']);
  });
});
