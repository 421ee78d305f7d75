import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSsoHarness, type SsoHarness } from './support/sso-harness.js';

/**
 * A first sign-in creates the user's record and, for a mapped team seen for the first time, the team's.
 * Those creations used to leave no audit event; they are now audited under the provider as actor,
 * before the key's own `api_key.create`, as issuing a key through the admin API does.
 */
describe('SSO sign-in audits the records it creates', () => {
  let h: SsoHarness;
  beforeAll(async () => {
    h = await startSsoHarness();
  });
  afterAll(async () => h?.close());

  it('audits the new user and team, then the key; a second sign-in creates nothing new', async () => {
    const key = await h.signIn('alice');
    const events = (await h.admin('GET', '/internal/audit?limit=20')).body.data as Array<{
      action: string;
      actor: string;
      target: string;
    }>;
    const trail = events.reverse().map((event) => [event.action, event.actor, event.target]);
    expect(trail).toEqual([
      ['team.create', 'sso:testidp', 'ml'],
      ['user.create', 'sso:testidp', 'alice@example.com'],
      ['api_key.create', 'sso:testidp', key.id],
    ]);

    const again = await h.signIn('alice');
    const latest = (await h.admin('GET', '/internal/audit?limit=1')).body.data[0];
    expect(latest).toMatchObject({ action: 'api_key.create', target: again.id });
    expect((await h.admin('GET', '/internal/audit?limit=20')).body.data).toHaveLength(4);
  });
});
