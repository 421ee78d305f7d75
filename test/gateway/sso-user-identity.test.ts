import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultAccounts, returnedError, startSsoHarness, type SsoHarness } from './support/sso-harness.js';

type AuditEvent = { action: string; actor: string; target: string; details: Record<string, unknown> };

describe("an SSO user id is bound to the provider's subject that first signed in with it", () => {
  let h: SsoHarness;
  beforeAll(async () => {
    h = await startSsoHarness(
      {},
      {
        ...defaultAccounts(),
        // Another account of the same provider whose (verified) address is alice's.
        impostor: { email: 'alice@example.com', groups: ['ml-team', 'staff'] },
        hank: { email: 'hank@example.com', groups: ['staff'] },
        hank2: { email: 'Hank@Example.com', groups: ['staff'] },
        ivy: { email: 'ivy@example.com', groups: ['staff'] },
        ivy2: { email: 'ivy@example.com', groups: ['staff'] },
        // A list where one address belongs: the first element must not be taken as the user.
        listy: { email: ['listy@example.com', 'alice@example.com'] as unknown as string, groups: ['staff'] },
      },
    );
  });
  afterAll(async () => h?.close());

  const audit = async (): Promise<AuditEvent[]> => (await h.admin('GET', '/internal/audit?limit=100')).body.data;

  it("refuses another subject with the same address, naming the binding and the admin's remedy, and audits it", async () => {
    const first = await h.signIn('alice');
    expect(first.subject).toBe('alice');
    await h.admin('POST', '/internal/teams', { id: 'platform' });
    await h.admin('PATCH', '/internal/users/alice@example.com', { tpd_budget: 1234 });
    const keysBefore = (await h.admin('GET', '/internal/api-keys?include_revoked=true')).body.data.length;

    const { error, description } = returnedError(await h.walk('impostor'));
    expect(error).toBe('permission_error');
    expect(description).toContain("this account's user id is already bound to another account of Test IdP");
    expect(description).toMatch(/admin/);
    expect(description).toContain('DELETE /internal/users/{user id}');
    expect(description).not.toContain('alice@example.com');
    expect((await h.admin('GET', '/internal/api-keys?include_revoked=true')).body.data.length).toBe(keysBefore);
    expect(
      (await audit()).find((event) => event.action === 'sso.sign_in.refuse' && event.target === 'alice@example.com'),
    ).toMatchObject({ actor: 'sso:testidp', details: { subject: 'impostor', bound_subject: 'alice' } });
    // The bound subject still signs in.
    expect((await h.signIn('alice')).user).toBe('alice@example.com');
  });

  it('binds a user an admin created on its first sign-in, then refuses other subjects', async () => {
    await h.admin('POST', '/internal/users', { id: 'hank@example.com', team: 'platform' });
    const key = await h.signIn('hank');
    expect(key).toMatchObject({ user: 'hank@example.com', subject: 'hank' });
    expect((await audit()).find((event) => event.action === 'sso.user.bind')).toMatchObject({
      target: 'hank@example.com',
      details: { issuer: h.idp.issuer, subject: 'hank' },
    });
    // The same address in other capitals names the same user, and is refused as well.
    expect(returnedError(await h.walk('hank2')).error).toBe('permission_error');
  });

  it('lets the new subject sign in once an admin deleted the user record', async () => {
    const key = await h.signIn('ivy');
    expect(returnedError(await h.walk('ivy2')).error).toBe('permission_error');
    await h.admin('DELETE', `/internal/api-keys/${key.id}`);
    expect((await h.admin('DELETE', '/internal/users/ivy@example.com')).status).toBe(200);
    const rebound = await h.signIn('ivy2');
    expect(rebound).toMatchObject({ user: 'ivy@example.com', subject: 'ivy2' });
    expect(returnedError(await h.walk('ivy')).error).toBe('permission_error');
  });

  it('refuses the second of two sign-ins in flight at once for an unbound address, at redeem', async () => {
    h.idp.accounts.set('jo', { email: 'jo@example.com', groups: ['staff'] });
    h.idp.accounts.set('jo2', { email: 'jo@example.com', groups: ['staff'] });
    const first = await h.walk('jo');
    const second = await h.walk('jo2');
    const redeemedSecond = await h.redeem(second.returned!.searchParams.get('handoff')!, second.verifier);
    expect(redeemedSecond.status).toBe(201);
    const redeemedFirst = await h.redeem(first.returned!.searchParams.get('handoff')!, first.verifier);
    expect(redeemedFirst.status).toBe(403);
    expect(redeemedFirst.body.error).toMatchObject({
      type: 'permission_error',
      message: expect.stringContaining('jo@example.com is already bound to another account of Test IdP'),
    });
  });

  it('refuses a user claim that is a list rather than taking its first value', async () => {
    const { error, description } = returnedError(await h.walk('listy'));
    expect(error).toBe('authentication_error');
    expect(description).toContain("'email' claim");
    expect(description).toContain('a list');
    expect(description).not.toContain('handoff');
    expect((await h.admin('GET', '/internal/users/listy@example.com')).status).toBe(404);
  });
});
