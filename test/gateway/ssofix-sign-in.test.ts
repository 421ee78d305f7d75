import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyListSchema } from '../../src/shared/gateway-api.js';
import { ssoFailureSchema, ssoSessionListSchema } from '../../src/shared/sso-api.js';
import { CookieJar } from '../support/browser-flow.js';
import { defaultAccounts, startSsoHarness, type SsoHarness } from './support/sso-harness.js';

/** A browser's cookie jar that drops a cookie once its Max-Age has passed on a clock the test moves. */
class ExpiringJar extends CookieJar {
  now = 0;
  private readonly expiries = new Map<string, number>();

  override store(url: string, response: Response): void {
    super.store(url, response);
    for (const line of response.headers.getSetCookie()) {
      const name = line.split('=')[0]!.trim();
      const maxAge = /max-age=(\d+)/i.exec(line)?.[1];
      if (maxAge !== undefined) this.expiries.set(`${new URL(url).host} ${name}`, this.now + Number(maxAge) * 1000);
    }
  }

  override header(url: string): string | undefined {
    const host = new URL(url).host;
    const all = super.header(url);
    if (all === undefined) return undefined;
    const live = all.split('; ').filter((pair) => {
      const expiry = this.expiries.get(`${host} ${pair.split('=')[0]}`);
      return expiry === undefined || expiry > this.now;
    });
    return live.length > 0 ? live.join('; ') : undefined;
  }
}

describe('single sign-on, signing in more than once', () => {
  let h: SsoHarness;
  beforeAll(async () => {
    h = await startSsoHarness(
      {},
      { ...defaultAccounts(), dana: { email: 'dana@example.com', name: '  Dana Doe ', groups: ['staff'] } },
    );
  });
  afterAll(async () => h?.close());

  it('gives a second sign-in within the sign-in time its own cookie lifetime, so it is not refused as another browser', async () => {
    const jar = new ExpiringJar();
    const first = await h.walk('bob', { jar });
    expect(first.returned?.searchParams.get('handoff')).toBeTruthy();
    // The second sign-in starts 400 s later (login_timeout_seconds is 600) and reaches the callback after 700 s.
    jar.now = 400_000;
    const second = await h.walk('bob', { jar, pauseAtCallback: true });
    jar.now = 700_000;
    const done = await h.resume(second);
    expect(done.returned?.searchParams.get('error')).toBeNull();
    expect(done.returned?.searchParams.get('handoff')).toBeTruthy();
  });

  it('fills the user record with the name and e-mail of the claims, keeping what an admin set', async () => {
    await h.signIn('dana');
    const created = await h.admin('GET', '/internal/users/dana@example.com');
    expect(created.body).toMatchObject({ id: 'dana@example.com', name: 'Dana Doe', email: 'dana@example.com' });

    // An admin's name stays; a cleared e-mail is filled again by the next sign-in.
    expect((await h.admin('PATCH', '/internal/users/dana@example.com', { name: 'D. Doe', email: null })).status).toBe(
      200,
    );
    h.idp.accounts.get('dana')!.name = 'Dana Renamed';
    await h.signIn('dana');
    const after = await h.admin('GET', '/internal/users/dana@example.com');
    expect(after.body).toMatchObject({ name: 'D. Doe', email: 'dana@example.com' });
  });

  it('sends the UI only a reference to why a sign-in failed, which the gateway resolves in its own words', async () => {
    const walk = await h.walk('carol');
    const returned = walk.returned!;
    expect(returned.pathname).toBe('/ui/sso/done');
    expect(returned.searchParams.get('error')).toBe('permission_error');
    expect(returned.searchParams.get('error_description')).toBeNull();
    const ref = returned.searchParams.get('error_ref')!;
    const answer = await fetch(`${h.url}/sso/failures/${ref}`);
    expect(answer.status).toBe(200);
    const failure = ssoFailureSchema.parse(await answer.json());
    expect(failure).toEqual({
      type: 'permission_error',
      message: expect.stringContaining('this account matches no claim mapping of Test IdP'),
    });
    // A made-up reference says nothing.
    const unknown = await fetch(`${h.url}/sso/failures/made-up-text`);
    expect(unknown.status).toBe(404);
  });
});

describe('single sign-on, a team another provider maps', () => {
  let h: SsoHarness;
  beforeAll(async () => {
    h = await startSsoHarness(
      // This provider maps staff to no team; the other provider maps its group to team `ml`.
      { mappings: [{ value: 'staff', scopes: ['chat'] }] },
      defaultAccounts(),
      { OTHER_SECRET: 'unused' },
      {
        sso: {
          providers: {
            other: {
              issuer: 'http://127.0.0.1:9/',
              client_id: 'x',
              client_secret_env: 'OTHER_SECRET',
              allow_insecure_http: true,
              mappings: [{ value: 'ml-team', team: 'ml' }],
            },
          },
        },
      },
    );
  });
  afterAll(async () => h?.close());

  it('is not kept on a key as if an admin had given it', async () => {
    // The record holds `ml`, as a sign-in through the other provider (while in its group) left it.
    expect((await h.admin('POST', '/internal/teams', { id: 'ml' })).status).toBe(201);
    expect((await h.admin('POST', '/internal/users', { id: 'bob@example.com', team: 'ml' })).status).toBe(201);
    const key = await h.signIn('bob');
    expect(key.team).toBeNull();
  });

  it('keeps a team no provider maps (an admin gave it)', async () => {
    expect((await h.admin('POST', '/internal/teams', { id: 'research' })).status).toBe(201);
    h.idp.accounts.set('rita', { email: 'rita@example.com', groups: ['staff'] });
    expect((await h.admin('POST', '/internal/users', { id: 'rita@example.com', team: 'research' })).status).toBe(201);
    const key = await h.signIn('rita');
    expect(key.team).toBe('research');
  });
});

describe('single sign-on, max_active_keys_per_user', () => {
  let h: SsoHarness;
  beforeAll(async () => {
    h = await startSsoHarness({ max_active_keys_per_user: 2 });
  });
  afterAll(async () => h?.close());

  it("revokes the user's oldest key of the provider when a sign-in goes past the limit", async () => {
    const first = await h.signIn('bob');
    const second = await h.signIn('bob');
    const alice = await h.signIn('alice');
    const third = await h.signIn('bob');

    const keys = apiKeyListSchema.parse((await h.admin('GET', '/internal/api-keys?include_revoked=true')).body).data;
    const status = (id: string) => keys.find((key) => key.id === id)?.status;
    expect(status(first.id)).toBe('revoked');
    expect([status(second.id), status(third.id), status(alice.id)]).toEqual(['active', 'active', 'active']);

    const sessions = ssoSessionListSchema.parse(
      (await h.admin('GET', '/internal/sso/sessions?include_ended=true')).body,
    ).data;
    expect(sessions.find((session) => session.id === first.session_id)).toMatchObject({
      end_reason: expect.stringContaining('max_active_keys_per_user'),
    });
    // The revoked key no longer works.
    const chat = await fetch(`${h.url}/v1/models`, { headers: { authorization: `Bearer ${first.key}` } });
    expect(chat.status).toBe(401);
  });
});
