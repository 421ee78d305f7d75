import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyListSchema } from '../../../src/shared/gateway-api.js';
import { ssoIssuedKeySchema, ssoSessionListSchema } from '../../../src/shared/sso-api.js';
import { handoffPair, startSsoHarness, UI_RETURN, type SsoHarness } from '../support/sso-harness.js';

describe('single sign-on issuance against a real OpenID provider', () => {
  let h: SsoHarness;
  beforeAll(async () => {
    h = await startSsoHarness({ authorization_params: { ui_locales: 'de' } });
  });
  afterAll(async () => h?.close());

  it('lists the configured provider for the sign-in button', async () => {
    const response = await fetch(`${h.url}/sso/providers`);
    expect(await response.json()).toEqual({ data: [{ id: 'testidp', name: 'Test IdP' }] });
  });

  it('sends the provider an authorization request with PKCE S256, state and nonce, and sets the sign-in cookie', async () => {
    const { challenge } = handoffPair();
    const query = new URLSearchParams({ provider: 'testidp', return_to: UI_RETURN, challenge });
    const response = await fetch(`${h.url}/sso/login?${query}`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const location = new URL(response.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(`${h.idp.issuer}/auth`);
    const params = location.searchParams;
    expect(params.get('response_type')).toBe('code');
    expect(params.get('client_id')).toBe(h.idp.clientId);
    expect(params.get('redirect_uri')).toBe(`${h.url}/sso/callback`);
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    // The gateway's own PKCE pair, not the hand-off challenge of the starter.
    expect(params.get('code_challenge')).not.toBe(challenge);
    expect(params.get('state')!.length).toBeGreaterThanOrEqual(32);
    expect(params.get('nonce')!.length).toBeGreaterThanOrEqual(32);
    expect(params.get('scope')).toBe('openid email profile groups offline_access');
    expect(params.get('prompt')).toBe('consent');
    expect(params.get('ui_locales')).toBe('de');
    expect(response.headers.get('set-cookie')).toMatch(
      /^gatehouse_sso_[\w-]{22}=[\w-]{32}; Path=\/sso; HttpOnly; SameSite=Lax; Max-Age=600$/,
    );
  });

  it('signs in with code + PKCE, maps groups to team, scopes and budgets, and the key works with the OpenAI SDK', async () => {
    const walk = await h.walk('alice');
    // The authorization request carried PKCE (S256), state and nonce.
    const issued = await h.redeem(walk.returned!.searchParams.get('handoff')!, walk.verifier);
    expect(issued.status).toBe(201);
    const key = ssoIssuedKeySchema.parse(issued.body);
    expect(key).toMatchObject({
      user: 'alice@example.com',
      team: 'ml',
      issuer: h.idp.issuer,
      subject: 'alice',
      provider: 'testidp',
      provider_name: 'Test IdP',
      user_tpd_budget: 500_000,
      team_tpd_budget: 5_000_000,
      rpm_limit: 60,
      status: 'active',
    });
    // Scopes add up over every matched group.
    expect([...key.scopes].sort()).toEqual(['chat', 'embeddings']);

    const client = h.openaiClient(key.key);
    const answer = await client.chat.completions.create({
      model: 'demo/echo',
      messages: [{ role: 'user', content: 'hi sso' }],
    });
    expect(answer.choices[0]?.message.content).toBe('hi sso');
    const embedding = await client.embeddings.create({ model: 'demo/embed', input: 'x' });
    expect(embedding.data).toHaveLength(1);

    // Listed with owner and issuer, never the secret; the session shows the groups the grant rests on.
    const list = apiKeyListSchema.parse(
      (await h.admin('GET', `/internal/api-keys?issuer=${encodeURIComponent(h.idp.issuer)}`)).body,
    );
    expect(list.data.map((k) => [k.id, k.user, k.issuer])).toContainEqual([key.id, 'alice@example.com', h.idp.issuer]);
    expect(JSON.stringify(list)).not.toContain(key.key);
    const sessions = ssoSessionListSchema.parse((await h.admin('GET', '/internal/sso/sessions')).body);
    const session = sessions.data.find((s) => s.id === key.session_id)!;
    expect(session).toMatchObject({ user: 'alice@example.com', key_id: key.id, refreshable: true, status: 'active' });
    expect(session.groups.sort()).toEqual(['groups:ml-team', 'groups:staff']);
    expect(JSON.stringify(sessions)).not.toMatch(/refresh_token|v1\./);
    // The key's user and team are records, as an admin-issued key's are.
    const user = await h.admin('GET', `/internal/users/${encodeURIComponent('alice@example.com')}`);
    expect(user.status).toBe(200);
    expect(user.body).toMatchObject({ id: 'alice@example.com', team: 'ml' });
    expect((await h.admin('GET', '/internal/teams')).body.data.map((t: { id: string }) => t.id)).toContain('ml');
  });

  it('stores the refresh token encrypted, never the key secret', async () => {
    const key = await h.signIn('bob');
    const row = h.servers.database.sqlite
      .prepare('SELECT refresh_token FROM gateway_sso_sessions WHERE id = ?')
      .get(key.session_id) as { refresh_token: string };
    expect(row.refresh_token).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    const dump = JSON.stringify(h.servers.database.sqlite.prepare('SELECT * FROM gateway_api_keys').all());
    expect(dump).not.toContain(key.key);
    expect(key).toMatchObject({ team: 'staff', scopes: ['chat'] });
    // bob is not in ml-team: no embeddings scope.
    await expect(h.openaiClient(key.key).embeddings.create({ model: 'demo/embed', input: 'x' })).rejects.toBeInstanceOf(
      OpenAI.PermissionDeniedError,
    );
  });
});
