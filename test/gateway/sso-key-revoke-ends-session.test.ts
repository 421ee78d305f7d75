import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ssoSessionRecordSchema } from '../../src/shared/sso-api.js';
import { rawRequest } from '../foundation/raw-http.js';
import { handoffPair, startSsoHarness, UI_RETURN, type SsoHarness } from './support/sso-harness.js';

const revocations = (h: SsoHarness): number => h.idp.requests.filter((path) => path === '/token/revocation').length;

async function until(condition: () => boolean): Promise<void> {
  for (let tries = 0; tries < 100 && !condition(); tries += 1) await new Promise((resolve) => setTimeout(resolve, 50));
}

describe('SSO keys revoked by an admin, and a sign-in without Host', () => {
  let h: SsoHarness;
  beforeAll(async () => {
    h = await startSsoHarness();
  });
  afterAll(async () => h?.close());

  // Revoking the key left its session "active" and the refresh token live at the provider until the
  // next refresh round (up to refresh_interval_seconds, an hour here).
  it('ends the session at once, revoking the refresh token at the provider, when its key is revoked', async () => {
    const key = await h.signIn('alice');
    const before = revocations(h);
    const revoked = await h.admin('DELETE', `/internal/api-keys/${key.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.status).toBe('revoked');

    const session = ssoSessionRecordSchema.parse(
      (await h.admin('GET', `/internal/sso/sessions/${key.session_id}`)).body,
    );
    expect(session).toMatchObject({ status: 'ended', end_reason: 'key revoked', refreshable: false });
    expect(session.ended_at).not.toBeNull();
    await until(() => revocations(h) > before);
    expect(revocations(h)).toBe(before + 1);
    await expect(
      h
        .openaiClient(key.key)
        .chat.completions.create({ model: 'demo/echo', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toBeInstanceOf(OpenAI.AuthenticationError);

    // The admin's revocation and the session's end are both in the audit trail, the key's once.
    const audit = (await h.admin('GET', `/internal/audit?target=${key.id}`)).body as { data: { action: string }[] };
    expect(audit.data.filter((entry) => entry.action === 'api_key.revoke')).toHaveLength(1);

    // Revoking again changes nothing, and revokes nothing more at the provider.
    expect((await h.admin('DELETE', `/internal/api-keys/${key.id}`)).status).toBe(200);
    expect(revocations(h)).toBe(before + 1);
  });

  it('keeps the reason of a session ended by sign-out, whose key it revoked itself', async () => {
    const key = await h.signIn('bob');
    expect((await h.logout(key.key)).status).toBe(200);
    const session = ssoSessionRecordSchema.parse(
      (await h.admin('GET', `/internal/sso/sessions/${key.session_id}`)).body,
    );
    expect(session).toMatchObject({ status: 'ended', end_reason: 'signed out' });
  });

  // HTTP/1.0 without Host passes the Host check on purpose (health checkers send it); the sign-in
  // then built its addresses from an empty host and answered 500.
  it('answers 400 naming the Host header to an HTTP/1.0 sign-in without one', async () => {
    const query = new URLSearchParams({
      provider: 'testidp',
      return_to: UI_RETURN,
      challenge: handoffPair().challenge,
    });
    const answer = await rawRequest(h.url, `GET /sso/login?${query} HTTP/1.0\r\n\r\n`);
    expect(answer.status).toBe(400);
    const body = JSON.parse(answer.body) as { error: { type: string; message: string } };
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.message).toContain('the Host header is missing');
  });
});
