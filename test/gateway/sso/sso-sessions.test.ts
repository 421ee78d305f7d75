import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ssoLogoutResultSchema, ssoRefreshResultSchema, ssoSessionRecordSchema } from '../../../src/shared/sso-api.js';
import { startSsoHarness, type SsoHarness } from '../support/sso-harness.js';

const chat = (h: SsoHarness, key: string) =>
  h.openaiClient(key).chat.completions.create({ model: 'demo/echo', messages: [{ role: 'user', content: 'ping' }] });

describe('SSO sessions: refresh, group removal and sign-out revoke keys', () => {
  let h: SsoHarness;
  beforeAll(async () => {
    h = await startSsoHarness({ timeout_seconds: 2 });
  });
  afterAll(async () => h?.close());
  afterEach(() => {
    h.idp.failToken = undefined;
  });

  it('keeps a key whose user still holds the mapped groups, using (and rotating) the refresh token', async () => {
    const key = await h.signIn('alice');
    const before = h.idp.requests.filter((path) => path === '/token').length;
    const refreshed = await h.admin('POST', `/internal/sso/sessions/${key.session_id}/refresh`);
    expect(refreshed.status).toBe(200);
    const session = ssoSessionRecordSchema.parse(refreshed.body);
    expect(session.status).toBe('active');
    expect(session.refreshed_at).not.toBeNull();
    expect(h.idp.requests.filter((path) => path === '/token').length).toBe(before + 1);
    await expect(chat(h, key.key)).resolves.toBeDefined();
    // Another user gaining a group changes nothing for this key.
    h.idp.accounts.get('alice')!.groups.push('new-group');
    expect(
      ssoSessionRecordSchema.parse((await h.admin('POST', `/internal/sso/sessions/${key.session_id}/refresh`)).body)
        .status,
    ).toBe('active');
  });

  it('revokes the key at refresh when the user was removed from a mapped group', async () => {
    h.idp.accounts.set('dave', { email: 'dave@example.com', groups: ['ml-team', 'staff'] });
    const key = await h.signIn('dave');
    await expect(chat(h, key.key)).resolves.toBeDefined();
    h.idp.accounts.get('dave')!.groups = ['staff'];
    const tokensBefore = h.idp.refreshTokens.length;
    const checked = await h.admin('POST', `/internal/sso/sessions/${key.session_id}/refresh`);
    expect(checked.body).toMatchObject({ status: 'ended', end_reason: 'removed from a mapped group' });
    // The refresh that found the removal is the only one since.
    expect(h.idp.refreshTokens.length).toBe(tokensBefore + 1);
    await expect(chat(h, key.key)).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    const record = (await h.admin('GET', `/internal/api-keys/${key.id}`)).body;
    expect(record.status).toBe('revoked');
    const session = ssoSessionRecordSchema.parse(
      (await h.admin('GET', `/internal/sso/sessions/${key.session_id}`)).body,
    );
    expect(session).toMatchObject({ status: 'ended', end_reason: 'removed from a mapped group', refreshable: false });
    // The refresh token is forgotten here and revoked at the provider: the live one (after the
    // refresh that found the removal) no longer works there.
    expect(h.idp.requests).toContain('/token/revocation');
    const live = h.idp.refreshTokens.at(-1)!;
    const reuse = await fetch(`${h.idp.issuer}/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${h.idp.clientId}:${h.idp.clientSecret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: live }).toString(),
    });
    expect(reuse.status).toBe(400);
    expect(((await reuse.json()) as { error: string }).error).toBe('invalid_grant');
    const row = h.servers.database.sqlite
      .prepare('SELECT refresh_token FROM gateway_sso_sessions WHERE id = ?')
      .get(key.session_id) as {
      refresh_token: string | null;
    };
    expect(row.refresh_token).toBeNull();
    const audit = (await h.admin('GET', '/internal/audit?limit=20')).body;
    expect(JSON.stringify(audit)).toContain('sso.session.end');
  });

  it('revokes the key when the provider refuses the refresh (the account was disabled)', async () => {
    h.idp.accounts.set('erin', { email: 'erin@example.com', groups: ['staff'] });
    const key = await h.signIn('erin');
    h.idp.accounts.get('erin')!.disabled = true;
    const session = ssoSessionRecordSchema.parse(
      (await h.admin('POST', `/internal/sso/sessions/${key.session_id}/refresh`)).body,
    );
    expect(session.status).toBe('ended');
    expect(session.end_reason).toContain('refresh refused by the provider');
    await expect(chat(h, key.key)).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
  });

  it('keeps sessions open when the provider refuses the gateway itself or is down, and says so', async () => {
    const key = await h.signIn('bob');
    for (const failure of [
      { status: 401, error: 'invalid_client' },
      { status: 503, error: 'temporarily_unavailable' },
    ]) {
      h.idp.failToken = failure;
      const refreshed = await h.admin('POST', `/internal/sso/sessions/${key.session_id}/refresh`);
      expect(refreshed.status, failure.error).toBe(502);
      expect(refreshed.body.error.type).toBe('upstream_error');
      const round = ssoRefreshResultSchema.parse((await h.admin('POST', '/internal/sso/refresh')).body);
      expect(round.ended.map((e) => e.session_id)).not.toContain(key.session_id);
      expect(round.unavailable).toBeGreaterThanOrEqual(1);
    }
    h.idp.failToken = undefined;
    await expect(chat(h, key.key)).resolves.toBeDefined();
    const session = ssoSessionRecordSchema.parse(
      (await h.admin('POST', `/internal/sso/sessions/${key.session_id}/refresh`)).body,
    );
    expect(session.status).toBe('active');
  });

  it('keeps sessions open when the provider is too slow to answer a refresh', async () => {
    // The harness's provider allows 2 s per answer; this one takes 3.
    const key = await h.signIn('bob');
    h.idp.stallToken = 3_000;
    try {
      const round = ssoRefreshResultSchema.parse((await h.admin('POST', '/internal/sso/refresh')).body);
      expect(round.ended.map((e) => e.session_id)).not.toContain(key.session_id);
      expect(round.unavailable).toBeGreaterThanOrEqual(1);
    } finally {
      h.idp.stallToken = undefined;
    }
    await expect(chat(h, key.key)).resolves.toBeDefined();
  });

  it('signs out with the key itself: revoked at once, the refresh token revoked at the provider, the logout URL given', async () => {
    const key = await h.signIn('bob');
    const revocations = h.idp.requests.filter((path) => path === '/token/revocation').length;
    const out = await h.logout(key.key);
    expect(out.status).toBe(200);
    const result = ssoLogoutResultSchema.parse(out.body);
    expect(result).toMatchObject({ key_id: key.id, session_id: key.session_id, revoked: true });
    expect(result.end_session_url).toContain(`${h.idp.issuer}/session/end`);
    expect(h.idp.requests.filter((path) => path === '/token/revocation').length).toBe(revocations + 1);
    await expect(chat(h, key.key)).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    // Signing out twice: the key no longer authenticates.
    const again = await h.logout(key.key);
    expect(again.status).toBe(401);
    // In the words /v1 uses for the same key.
    expect(again.body.error).toMatchObject({ type: 'authentication_error', message: 'API key has been revoked' });
  });

  it('refuses sign-out without a key, and for a key the master key issued', async () => {
    expect((await h.logout('')).status).toBe(401);
    const adminKey = await h.issueKey({ scopes: ['chat'] });
    const out = await h.logout(adminKey.key);
    expect(out.status).toBe(400);
    expect(out.body.error.message).toContain('not issued by single sign-on');
    await expect(chat(h, adminKey.key)).resolves.toBeDefined();
  });

  it('ends the session when an admin revokes the key, or ends the session itself', async () => {
    const first = await h.signIn('bob');
    await h.admin('DELETE', `/internal/api-keys/${first.id}`);
    // Ended at once, not at the next refresh round.
    expect((await h.admin('GET', `/internal/sso/sessions/${first.session_id}`)).body).toMatchObject({
      status: 'ended',
      end_reason: 'key revoked',
    });
    const round = ssoRefreshResultSchema.parse((await h.admin('POST', '/internal/sso/refresh')).body);
    expect(round.ended.map((entry) => entry.session_id)).not.toContain(first.session_id);

    const second = await h.signIn('bob');
    const ended = ssoSessionRecordSchema.parse(
      (await h.admin('DELETE', `/internal/sso/sessions/${second.session_id}`)).body,
    );
    expect(ended).toMatchObject({ status: 'ended', end_reason: 'ended by an admin' });
    await expect(chat(h, second.key)).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    expect((await h.admin('GET', '/internal/sso/sessions/sso_nope')).status).toBe(404);
    const listed = (await h.admin('GET', '/internal/sso/sessions?include_ended=true')).body.data;
    expect(listed.map((s: { id: string }) => s.id)).toEqual(
      expect.arrayContaining([first.session_id, second.session_id]),
    );
    expect((await h.admin('GET', '/internal/sso/sessions')).body.data.map((s: { id: string }) => s.id)).not.toContain(
      second.session_id,
    );
  });

  it('ends the session of a key that expired, giving the refresh token back', async () => {
    const key = await h.signIn('bob');
    await h.admin('PATCH', `/internal/api-keys/${key.id}`, { expires_at: new Date(Date.now() - 1000).toISOString() });
    const session = ssoSessionRecordSchema.parse(
      (await h.admin('POST', `/internal/sso/sessions/${key.session_id}/refresh`)).body,
    );
    expect(session).toMatchObject({ status: 'ended', end_reason: 'key expired', refreshable: false });
  });

  it('needs the master key for the session admin API', async () => {
    const response = await fetch(`${h.url}/internal/sso/sessions`);
    expect(response.status).toBe(401);
  });
});

describe('SSO sessions are checked on their own schedule', () => {
  it('the refresher revokes a key whose user left the mapped group without an admin asking', async () => {
    const h = await startSsoHarness({ refresh_interval_seconds: 1 });
    try {
      const key = await h.signIn('alice');
      h.idp.accounts.get('alice')!.groups = ['staff'];
      const deadline = Date.now() + 8000;
      let status = 'active';
      while (status === 'active' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        status = (await h.admin('GET', `/internal/sso/sessions/${key.session_id}`)).body.status;
      }
      expect(status).toBe('ended');
      await expect(chat(h, key.key)).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    } finally {
      await h.close();
    }
  });
});

describe("a sign-in's team comes from the provider's claims alone", () => {
  it('gives no team to a user who left the team-setting group, but keeps one an admin gave', async () => {
    const h = await startSsoHarness({ default_grant: { scopes: ['chat'] } });
    try {
      h.idp.accounts.set('frank', { email: 'frank@example.com', groups: ['ml-team'] });
      const first = await h.signIn('frank');
      expect(first.team).toBe('ml');
      // Out of ml-team and into no mapped group: the default grant, which sets no team.
      h.idp.accounts.get('frank')!.groups = [];
      const later = await h.signIn('frank');
      expect(later.team).toBeNull();
      expect((await h.admin('GET', `/internal/api-keys/${later.id}`)).body.team).toBeNull();
      // Into staff: that mapping's team, not the first sign-in's.
      h.idp.accounts.get('frank')!.groups = ['staff'];
      expect((await h.signIn('frank')).team).toBe('staff');
      // A team an admin gave the user, which no mapping assigns, applies as to admin-issued keys.
      await h.admin('POST', '/internal/teams', { id: 'platform' });
      await h.admin('PATCH', '/internal/users/frank@example.com', { team: 'platform' });
      h.idp.accounts.get('frank')!.groups = [];
      expect((await h.signIn('frank')).team).toBe('platform');
    } finally {
      await h.close();
    }
  });
});
