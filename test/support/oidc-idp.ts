import { createSign, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';

/** A user of the test identity provider; `groups` and `disabled` may change between refreshes. */
export interface IdpAccount {
  email: string;
  name?: string;
  groups: string[];
  disabled?: boolean;
  /** Whether the provider vouches for the address (default true); some providers say it as a string. */
  /** As the provider writes it: a boolean, or a string (some write `"false"`, `"False"`). */
  emailVerified?: boolean | string;
}

/** A real OpenID provider (`oidc-provider`) on 127.0.0.1, with knobs for the failure cases tests need. */
export interface TestIdp {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly accounts: Map<string, IdpAccount>;
  /** The account the interaction signs in without a form (tests that drive HTTP themselves); undefined shows the form. */
  autoLogin: string | undefined;
  /** Lifetime of authorization codes, seconds. */
  codeTtlSeconds: number;
  /** Rewrites the ID token of the next token responses (a forged or tampered token), until cleared. */
  rewriteIdToken: ((idToken: string) => string) | undefined;
  /** Makes the token endpoint answer this error (status and OAuth error code) until cleared. */
  failToken: { status: number; error: string } | undefined;
  /** Makes the token endpoint wait this long (ms) before answering, until cleared: a slow provider. */
  stallToken: number | undefined;
  /** Paths of the requests the provider received, in order (e.g. `/token/revocation`). */
  readonly requests: string[];
  /** Every refresh token the provider issued (tests check none leaks). */
  readonly refreshTokens: string[];
  /** Where the client may be sent back; set before the first request (the provider is built then). */
  redirectUris: string[];
  /** Signs `payload` as an ID token with the provider's real key (`kid` kept) or with `key`. */
  sign(payload: Record<string, unknown>, key?: KeyObject): string;
  close(): Promise<void>;
}

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Decodes a JWT's payload (no checks: the test's own tokens). */
export function jwtPayload(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
}

function signJwt(payload: Record<string, unknown>, key: KeyObject, kid: string): string {
  const head = `${b64({ alg: 'RS256', typ: 'JWT', kid })}.${b64(payload)}`;
  return `${head}.${createSign('RSA-SHA256').update(head).sign(key).toString('base64url')}`;
}

function loginPage(uid: string, prompt: string): string {
  const body =
    prompt === 'login'
      ? `<label>User <input name="login" autofocus></label><button type="submit">Sign in to Test IdP</button>`
      : `<p>Gatehouse asks for your email, groups and offline access.</p><button type="submit">Allow</button>`;
  return `<!doctype html><html><head><title>Test IdP</title></head><body><h1>Test IdP</h1>
<form method="post" action="/interaction/${uid}">${body}</form></body></html>`;
}

async function formBody(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/**
 * Starts the provider with one confidential client (`redirectUris`), PKCE required, refresh tokens
 * for offline_access, revocation and RP-initiated logout on. Groups are a claim of the `groups` scope;
 * as oidc-provider does by default, profile claims come from userinfo, not the ID token.
 */
export async function startTestIdp(
  options: { redirectUris?: string[]; accounts?: Record<string, IdpAccount> } = {},
): Promise<TestIdp> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = `test-${randomUUID()}`;
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' };
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const accounts = new Map(Object.entries(options.accounts ?? {}));
  const clientId = 'gatehouse';
  const clientSecret = `idp-secret-${randomUUID()}`;

  const idp: TestIdp = {
    issuer,
    clientId,
    clientSecret,
    accounts,
    autoLogin: undefined,
    codeTtlSeconds: 60,
    rewriteIdToken: undefined,
    failToken: undefined,
    stallToken: undefined,
    requests: [],
    refreshTokens: [],
    redirectUris: options.redirectUris ?? [],
    sign: (payload, key) => signJwt(payload, key ?? privateKey, kid),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  // Built on the first request, so that the client's redirect URIs can name a gateway started after this.
  const build = (): Provider => {
    const configuration: Configuration = {
      clients: [
        {
          client_id: clientId,
          client_secret: clientSecret,
          redirect_uris: idp.redirectUris,
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          post_logout_redirect_uris: [],
        },
      ],
      jwks: { keys: [jwk as never] },
      cookies: { keys: [`cookie-${randomUUID()}`] },
      pkce: { required: () => true },
      scopes: ['openid', 'offline_access', 'email', 'profile', 'groups'],
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
      features: {
        devInteractions: { enabled: false },
        revocation: {
          enabled: true,
          // A client revokes only its own tokens (the provider's default, said explicitly).
          allowedPolicy: (_ctx: unknown, client: { clientId: string }, token: { clientId: string }) =>
            token.clientId === client.clientId,
        },
        rpInitiatedLogout: { enabled: true },
      },
      ttl: {
        AuthorizationCode: () => idp.codeTtlSeconds,
        AccessToken: 600,
        IdToken: 600,
        RefreshToken: 3600,
        Grant: 3600,
        Session: 3600,
        Interaction: 600,
      },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      findAccount: (_ctx, id) => {
        const account = accounts.get(id);
        if (!account || account.disabled) return undefined;
        return {
          accountId: id,
          claims: () => ({
            sub: id,
            email: account.email,
            email_verified: account.emailVerified ?? true,
            name: account.name,
            groups: [...account.groups],
          }),
        };
      },
    };
    const provider = new Provider(issuer, configuration);
    // Recorded, and the ID token rewritten where a test asks: the provider's own answer otherwise.
    provider.use(async (ctx: KoaContextWithOIDC, next: () => Promise<void>) => {
      idp.requests.push(ctx.path);
      if (ctx.path === '/token' && idp.stallToken !== undefined)
        await new Promise((resolve) => setTimeout(resolve, idp.stallToken));
      if (ctx.path === '/token' && idp.failToken) {
        ctx.status = idp.failToken.status;
        ctx.body = { error: idp.failToken.error, error_description: 'set by the test' };
        return;
      }
      await next();
      const body = ctx.body as Record<string, unknown> | undefined;
      if (ctx.path === '/token' && body && typeof body.refresh_token === 'string')
        idp.refreshTokens.push(body.refresh_token);
      if (ctx.path === '/token' && idp.rewriteIdToken && body && typeof body.id_token === 'string')
        ctx.body = { ...body, id_token: idp.rewriteIdToken(body.id_token) };
    });

    return provider;
  };
  let built: Provider | undefined;
  const finish = async (req: IncomingMessage, res: ServerResponse, login: string | undefined): Promise<void> => {
    const provider = built!;
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name === 'login') {
      if (!login || !accounts.has(login)) {
        res.writeHead(200, { 'content-type': 'text/html' }).end(loginPage(details.uid, 'login'));
        return;
      }
      await provider.interactionFinished(req, res, { login: { accountId: login } }, { mergeWithLastSubmission: false });
      return;
    }
    // Consent: grant what was asked.
    const grant = details.grantId
      ? await provider.Grant.find(details.grantId)
      : new provider.Grant({ accountId: details.session!.accountId, clientId: details.params.client_id as string });
    grant!.addOIDCScope(String(details.params.scope));
    const grantId = await grant!.save();
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  };

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    built ??= build();
    const provider = built;
    // A browser asks every host for one; a 404 would be an error in its console.
    if (req.url === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    const match = /^\/interaction\/([^/?]+)/.exec(req.url ?? '');
    if (!match) {
      provider.callback()(req, res);
      return;
    }
    const run = async (): Promise<void> => {
      if (req.method === 'POST') {
        const form = await formBody(req);
        await finish(req, res, form.get('login') ?? idp.autoLogin);
        return;
      }
      const details = await provider.interactionDetails(req, res);
      if (details.prompt.name !== 'login' || idp.autoLogin) await finish(req, res, idp.autoLogin);
      else res.writeHead(200, { 'content-type': 'text/html' }).end(loginPage(details.uid, 'login'));
    };
    run().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`interaction failed: ${(error as Error).message}`);
    });
  });
  return idp;
}
