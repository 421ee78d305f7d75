import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { startTestIdp, type IdpAccount, type TestIdp } from '../../support/oidc-idp.js';
import { CookieJar, followRedirects, type Hop } from '../../support/browser-flow.js';
import { startGatewayHarness, type GatewayHarness } from './harness.js';

/** The environment variable the test configuration names for the client secret. */
export const SECRET_ENV = 'TEST_IDP_CLIENT_SECRET';
/** Where the UI would land; any path under /ui/ is accepted. */
export const UI_RETURN = '/ui/sso/done';

/** Accounts every SSO test starts with. */
export function defaultAccounts(): Record<string, IdpAccount> {
  return {
    alice: { email: 'alice@example.com', name: 'Alice', groups: ['ml-team', 'staff'] },
    bob: { email: 'bob@example.com', groups: ['staff'] },
    carol: { email: 'carol@example.com', groups: ['contractors'] },
    mallory: { email: 'alice@example.com', groups: ['staff'], emailVerified: false },
    trudy: { email: 'alice@example.com', groups: ['staff'], emailVerified: 'false' },
    victor: { email: 'alice@example.com', groups: ['staff'], emailVerified: 'False' },
    // Written with spaces around, capitals and letters outside ASCII: one user, `carol.ünal@example.com`.
    unal: { email: ' Carol.Ünal@Example.com ', groups: ['staff'] },
    // No user id can hold a space inside.
    spacey: { email: 'a b@example.com', groups: ['staff'] },
  };
}

/** The claim mappings of the test provider. */
export const TEST_MAPPINGS = [
  {
    value: 'ml-team',
    team: 'ml',
    scopes: ['chat', 'embeddings'],
    user_tpd_budget: 500_000,
    team_tpd_budget: 5_000_000,
  },
  { value: 'staff', team: 'staff', scopes: ['chat'], rpm_limit: 60 },
];

/** A verifier and its S256 challenge, as the UI and `npm run login` make them. */
export function handoffPair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/**
 * Follows redirects as {@link followRedirects} does, choosing Allow on the gateway's confirmation page
 * (`/sso/consent`, shown before a hand-off goes to a program on a loopback port) when it comes up.
 */
export async function followAllowing(
  url: string,
  jar: CookieJar,
  options: { stopAt?: (url: string) => boolean } = {},
): Promise<{ last: Hop; stoppedAt?: string }> {
  const walk = await followRedirects(url, jar, options);
  if (walk.stoppedAt !== undefined || new URL(walk.last.url).pathname !== '/sso/consent') return walk;
  const html = await walk.last.response.text();
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? '';
  const cookie = jar.header(walk.last.url);
  const posted = await fetch(new URL('/sso/consent', walk.last.url), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams({ request: field('request'), token: field('token'), decision: 'allow' }),
  });
  const next = new URL(posted.headers.get('location') ?? '', walk.last.url).toString();
  if (posted.status !== 303) throw new Error(`the confirmation answered ${posted.status}: ${await posted.text()}`);
  if (options.stopAt?.(next)) return { last: { url: next, response: posted }, stoppedAt: next };
  return followRedirects(next, jar, options);
}

/** A browser's walk from /sso/login to the hand-off, stopped before it reaches `return_to`. */
export interface SignInWalk {
  readonly jar: CookieJar;
  readonly verifier: string;
  /** The URL the gateway sent the browser back to (with `handoff`, or `error`). */
  readonly returned?: URL;
  /** The callback URL the IdP sent the browser to (to replay it). */
  readonly callbackUrl?: string;
  readonly lastStatus: number;
  readonly lastBody: string;
  /** Why the sign-in failed, as `GET /sso/failures/<error_ref>` says (the UI's address carries only the reference). */
  readonly failure?: string;
}

/** The error a sign-in was sent back with (and that it carried no hand-off). */
export function returnedError(walk: SignInWalk): { error: string | null; description: string } {
  expect(walk.returned, `expected a redirect back, got ${walk.lastStatus} ${walk.lastBody}`).toBeDefined();
  expect(walk.returned!.searchParams.get('handoff')).toBeNull();
  return {
    error: walk.returned!.searchParams.get('error'),
    description: walk.failure ?? walk.returned!.searchParams.get('error_description') ?? '',
  };
}

/** The gateway's description of a failed sign-in whose return address carries an `error_ref`. */
export async function failureOf(returned: URL | undefined): Promise<string | undefined> {
  const ref = returned?.searchParams.get('error_ref');
  if (!ref) return undefined;
  const response = await fetch(`${returned!.origin}/sso/failures/${encodeURIComponent(ref)}`);
  return response.ok ? ((await response.json()) as { message: string }).message : undefined;
}

/** The gateway harness with a test IdP configured as provider `testidp`. */
export interface SsoHarness extends GatewayHarness {
  readonly idp: TestIdp;
  /** Walks a browser (auto sign-in as `account`) through the sign-in; `pauseAtCallback` stops before the gateway's callback. */
  walk(
    account: string,
    options?: { pauseAtCallback?: boolean; returnTo?: string; jar?: CookieJar },
  ): Promise<SignInWalk>;
  /** Continues a walk paused at the callback. */
  resume(walk: SignInWalk, url?: string): Promise<SignInWalk>;
  /** POST /sso/redeem. */
  redeem(handoff: string, verifier: string): Promise<{ status: number; body: any }>;
  /** The whole sign-in: the issued key's answer. */
  signIn(account: string): Promise<any>;
  /** POST /sso/logout with the key. */
  logout(key: string): Promise<{ status: number; body: any }>;
}

/**
 * Starts the IdP, then the gateway with `sso.providers.testidp` pointing at it; `sso` adds to the
 * section (other providers, login_timeout_seconds), `server` sets the server section.
 */
export async function startSsoHarness(
  provider: Record<string, unknown> = {},
  accounts: Record<string, IdpAccount> = defaultAccounts(),
  env: NodeJS.ProcessEnv = {},
  more: {
    sso?: { providers?: Record<string, unknown>; [key: string]: unknown };
    server?: Record<string, unknown>;
    gateway?: Record<string, unknown>;
  } = {},
): Promise<SsoHarness> {
  const idp = await startTestIdp({ accounts });
  const harness = await startGatewayHarness(
    {
      ...(more.server ? { server: more.server } : {}),
      ...(more.gateway ? { gateway: more.gateway } : {}),
      sso: {
        ...more.sso,
        providers: {
          ...more.sso?.providers,
          testidp: {
            name: 'Test IdP',
            issuer: idp.issuer,
            client_id: idp.clientId,
            client_secret_env: SECRET_ENV,
            scopes: ['openid', 'email', 'profile', 'groups', 'offline_access'],
            mappings: TEST_MAPPINGS,
            allow_insecure_http: true,
            refresh_interval_seconds: 3600,
            ...provider,
          },
        },
      },
    },
    { [SECRET_ENV]: idp.clientSecret, ...env },
  );
  idp.redirectUris = [`${harness.url}/sso/callback`];

  const finishWalk = async (walk: SignInWalk, from: string, returnTo: string): Promise<SignInWalk> => {
    const target = new URL(returnTo, harness.url).toString().split('?')[0]!;
    const result = await followRedirects(from, walk.jar, {
      stopAt: (next) =>
        next.startsWith(target) || (walk.callbackUrl === undefined && next.startsWith(`${harness.url}/sso/callback`)),
    });
    if (result.stoppedAt?.startsWith(`${harness.url}/sso/callback`) && !result.stoppedAt.startsWith(target))
      return { ...walk, callbackUrl: result.stoppedAt, lastStatus: 302, lastBody: '' };
    const returned = result.stoppedAt ? new URL(result.stoppedAt) : undefined;
    return {
      ...walk,
      returned,
      lastStatus: result.last.response.status,
      lastBody: result.stoppedAt ? '' : await result.last.response.text(),
      failure: await failureOf(returned),
    };
  };

  const resume: SsoHarness['resume'] = (walk, url) =>
    finishWalk({ ...walk, callbackUrl: walk.callbackUrl ?? url }, url ?? walk.callbackUrl!, UI_RETURN);

  const walk: SsoHarness['walk'] = async (account, options = {}) => {
    const { verifier, challenge } = handoffPair();
    const jar = options.jar ?? new CookieJar();
    idp.autoLogin = account;
    const returnTo = options.returnTo ?? UI_RETURN;
    const query = new URLSearchParams({ provider: 'testidp', return_to: returnTo, challenge });
    const start = `${harness.url}/sso/login?${query}`;
    const paused = await finishWalk({ jar, verifier, lastStatus: 0, lastBody: '' }, start, returnTo);
    if (options.pauseAtCallback || paused.callbackUrl === undefined) return paused;
    return finishWalk(paused, paused.callbackUrl, returnTo);
  };

  const post = async (path: string, body: unknown, key?: string): Promise<{ status: number; body: any }> => {
    const response = await fetch(`${harness.url}${path}`, {
      method: 'POST',
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(key ? { authorization: `Bearer ${key}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
  const redeem: SsoHarness['redeem'] = (handoff, verifier) => post('/sso/redeem', { handoff, verifier });

  return {
    ...harness,
    idp,
    walk,
    resume,
    redeem,
    signIn: async (account) => {
      const result = await walk(account);
      const handoff = result.returned?.searchParams.get('handoff');
      if (!handoff)
        throw new Error(`sign-in of ${account} gave no hand-off: ${result.returned?.toString() ?? result.lastBody}`);
      const redeemed = await redeem(handoff, result.verifier);
      if (redeemed.status !== 201) throw new Error(`redeem failed: ${JSON.stringify(redeemed.body)}`);
      return redeemed.body;
    },
    logout: (key) => post('/sso/logout', undefined, key),
    close: async () => {
      await harness.close();
      await idp.close();
    },
  };
}
