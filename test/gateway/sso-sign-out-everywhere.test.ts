import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSsoHarness, type SsoHarness } from './support/sso-harness.js';

const chat = (h: SsoHarness, key: string) =>
  h.openaiClient(key).chat.completions.create({ model: 'demo/echo', messages: [{ role: 'user', content: 'ping' }] });

/** The audit events of `action` on `target`. */
async function auditOf(h: SsoHarness, action: string, target: string): Promise<any[]> {
  const events = (await h.admin('GET', '/internal/audit?limit=200')).body.data as any[];
  return events.filter((event) => event.action === action && event.target === target);
}

/**
 * A user who lost a laptop signs out of every key of their account at once, and an admin removes a
 * user together with the keys they hold, instead of revoking key after key.
 */
describe('signing out everywhere, and deleting a user with their keys', () => {
  let h: SsoHarness;
  beforeAll(async () => {
    h = await startSsoHarness();
  });
  afterAll(async () => h?.close());

  it("revokes every key of the account at the provider with POST /sso/logout?all=true, and nobody else's", async () => {
    const alice = [await h.signIn('alice'), await h.signIn('alice'), await h.signIn('alice')];
    const bob = await h.signIn('bob');
    const revocations = h.idp.requests.filter((path) => path === '/token/revocation').length;

    const response = await fetch(`${h.url}/sso/logout?all=true`, {
      method: 'POST',
      headers: { authorization: `Bearer ${alice[1].key}` },
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      key_id: alice[1].id,
      session_id: alice[1].session_id,
      revoked: true,
      revoked_keys: 3,
    });
    expect([...(body.key_ids as string[])].sort()).toEqual(alice.map((key) => key.id).sort());
    expect(body.end_session_url).toContain(`${h.idp.issuer}/session/end`);

    for (const key of alice) {
      await expect(chat(h, key.key)).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
      const session = (await h.admin('GET', `/internal/sso/sessions/${key.session_id}`)).body;
      expect(session.status).toBe('ended');
    }
    await expect(chat(h, bob.key)).resolves.toBeDefined();
    // Each session's refresh token is revoked at the provider (the others' after the answer).
    await expect.poll(() => h.idp.requests.filter((path) => path === '/token/revocation').length).toBe(revocations + 3);
    // Audited as the sign-out of one key is: the key's revocation by the provider's sign-in, and its session's end.
    for (const key of alice) {
      const [revoked] = await auditOf(h, 'api_key.revoke', key.id);
      expect(revoked).toMatchObject({ actor: 'sso:testidp' });
      expect(await auditOf(h, 'sso.session.end', key.session_id)).toHaveLength(1);
    }
  });

  it('signs out only the presented key without all, and refuses an all that is not a boolean', async () => {
    const [first, second] = [await h.signIn('bob'), await h.signIn('bob')];
    const bad = await fetch(`${h.url}/sso/logout?all=yes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${first.key}` },
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toBe(
      "query parameter all must be one of 'true', 'false', got 'yes'",
    );
    await expect(chat(h, first.key)).resolves.toBeDefined();

    const out = await h.logout(first.key);
    expect(out.status).toBe(200);
    expect(out.body.revoked_keys).toBeUndefined();
    await expect(chat(h, first.key)).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    await expect(chat(h, second.key)).resolves.toBeDefined();
  });

  it('deletes a user with every active key with DELETE /internal/users/{id}?revoke_keys=true', async () => {
    const sso = [await h.signIn('unal'), await h.signIn('unal')];
    const user = sso[0].user as string;
    const path = `/internal/users/${encodeURIComponent(user)}`;
    const issued = await h.issueKey({ user, scopes: ['chat'] });

    const refused = await h.admin('DELETE', path);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain('still owns 3 active key(s)');
    expect(refused.body.error.message).toContain('revoke_keys=true');
    const invalid = await h.admin('DELETE', `${path}?revoke_keys=yes`);
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.message).toContain('query parameter revoke_keys must be one of');
    await expect(chat(h, issued.key)).resolves.toBeDefined();

    const deleted = await h.admin('DELETE', `${path}?revoke_keys=true`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ id: user });
    expect((await h.admin('GET', path)).status).toBe(404);
    for (const key of [...sso, issued]) {
      await expect(chat(h, key.key)).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
      expect(await auditOf(h, 'api_key.revoke', key.id)).toMatchObject([{ actor: 'master' }]);
    }
    for (const key of sso) {
      const session = (await h.admin('GET', `/internal/sso/sessions/${key.session_id}`)).body;
      expect(session).toMatchObject({ status: 'ended', end_reason: 'key revoked' });
    }
    expect(await auditOf(h, 'user.delete', user)).toHaveLength(1);
    expect((await h.admin('DELETE', `/internal/users/nobody?revoke_keys=true`)).status).toBe(404);
  });
});
