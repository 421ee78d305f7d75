import { spawn } from 'node:child_process';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ssoIssuedKeySchema,
  ssoProviderListSchema,
  type SsoIssuedKey,
  type SsoProviderInfo,
} from '../shared/sso-api.js';

/** Options of a sign-in from a tool. */
export interface LoginOptions {
  readonly gatewayUrl: string;
  /** The provider id; when absent, the gateway's only provider. */
  readonly provider?: string;
  /** Opens the sign-in URL; false when it could not (the URL is printed either way). */
  readonly openBrowser: (url: string) => Promise<boolean>;
  /** Where progress and the URL are told (stderr); the key itself is the caller's to print. */
  readonly tell: (line: string) => void;
  readonly timeoutMs: number;
}

/** A sign-in that did not end with a key; the message says why. */
export class LoginError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LoginError';
  }
}

/** The command was asked for something it cannot choose by itself (which provider): a bad-arguments exit. */
export class LoginArgumentError extends LoginError {
  constructor(message: string) {
    super(message);
    this.name = 'LoginArgumentError';
  }
}

/** The gateway did not answer at all (nothing listening, no such host, a dropped connection). */
export class GatewayUnreachableError extends LoginError {
  constructor(
    readonly gatewayUrl: string,
    readonly reason: string,
  ) {
    super(`cannot reach the gateway at ${gatewayUrl} (${reason})`);
    this.name = 'GatewayUnreachableError';
  }
}

/** Plain words for the network errors a request to the gateway fails with most often. */
const NETWORK_REASONS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'the host name could not be looked up',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_SOCKET: 'the connection closed',
};

/**
 * Why fetch failed, from the error it threw: fetch says only "fetch failed" and keeps the network
 * error in `cause` (an AggregateError when both IPv4 and IPv6 were tried). Undefined when it was no
 * network error.
 */
function networkReason(error: unknown): string | undefined {
  if (!(error instanceof TypeError) || error.cause === undefined) return undefined;
  const cause = error.cause as { code?: string; message?: string; errors?: ReadonlyArray<{ code?: string }> };
  // Ports browsers block (1, 22, 25, 6000, ...) fetch refuses too, before any connection.
  if (cause.message === 'bad port') return 'a port fetch does not connect to, as browsers do not';
  const code = cause.code ?? cause.errors?.[0]?.code;
  return (code !== undefined ? NETWORK_REASONS[code] : undefined) ?? cause.message ?? code ?? String(cause);
}

/** fetch to the gateway, failing with {@link GatewayUnreachableError} when nothing answers. */
async function fetchGateway(gatewayUrl: string, path: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(`${gatewayUrl}${path}`, init);
  } catch (error) {
    const reason = networkReason(error);
    if (reason === undefined) throw error;
    throw new GatewayUnreachableError(gatewayUrl, reason);
  }
}

const page = (title: string, text: string): string =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head>` +
  `<body style="font-family:system-ui;margin:3rem"><h1>${title}</h1><p>${text}</p></body></html>`;

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

async function chooseProvider(gatewayUrl: string, wanted: string | undefined): Promise<SsoProviderInfo> {
  const response = await fetchGateway(gatewayUrl, '/sso/providers');
  if (!response.ok) throw new LoginError(`${gatewayUrl}/sso/providers answered ${response.status}`);
  const { data } = ssoProviderListSchema.parse(await response.json());
  if (data.length === 0)
    throw new LoginError(`the gateway at ${gatewayUrl} has no single sign-on provider (sso.providers)`);
  const offered = data.map((p) => `${p.id} (${p.name})`).join(', ');
  if (wanted !== undefined) {
    const chosen = data.find((p) => p.id === wanted);
    if (chosen === undefined) throw new LoginArgumentError(`no provider '${wanted}'; the gateway offers: ${offered}`);
    return chosen;
  }
  if (data.length > 1)
    throw new LoginArgumentError(`the gateway offers several providers; choose one with --provider: ${offered}`);
  return data[0]!;
}

/**
 * Signs in through the browser with a loopback redirect (RFC 8252): listens on 127.0.0.1 at a free
 * port, sends the browser to the gateway's /sso/login with that address as `return_to`, and redeems
 * the hand-off that comes back with the verifier only this process knows. Resolves with the new key.
 *
 * The address opened is this listener's own `/start`, not the gateway's: another local user can read
 * a browser's command line, and with the challenge and state in it could finish a sign-in of their
 * own account and hand it to this listener, which would then print their key as the user's. `/start`
 * works once: it sets a cookie that the callback must bring back, and redirects to the gateway. A
 * second visit means someone else opened it too, and ends the sign-in.
 *
 * Before the hand-off comes back, the gateway asks the user on its own page whether the program
 * listening on this port may have a key (any program could have made the link); the port is printed
 * so the user can tell this command is the one asking.
 */
export async function loginWithBrowser(options: LoginOptions): Promise<SsoIssuedKey> {
  const gatewayUrl = options.gatewayUrl.replace(/\/+$/, '');
  const { id: provider, name: providerName } = await chooseProvider(gatewayUrl, options.provider);
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const state = randomBytes(16).toString('base64url');

  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const returnTo = `http://127.0.0.1:${port}/callback?state=${state}`;
  const loginUrl = `${gatewayUrl}/sso/login?${new URLSearchParams({ provider, return_to: returnTo, challenge })}`;
  const startUrl = `http://127.0.0.1:${port}/start`;
  const cookie = `gatehouse_login_${port}`;
  const binding = randomBytes(16).toString('base64url');
  let started = false;

  try {
    const arrival = new Promise<SsoIssuedKey>((resolve, reject) => {
      server.on('request', (req: IncomingMessage, res: ServerResponse) => {
        const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
        if (url.pathname === '/start') {
          if (started) {
            res
              .writeHead(409, { 'content-type': 'text/html; charset=utf-8' })
              .end(page('Sign-in stopped', OPENED_TWICE));
            reject(new LoginError(OPENED_TWICE));
            return;
          }
          started = true;
          res
            .writeHead(302, {
              location: loginUrl,
              'set-cookie': `${cookie}=${binding}; Path=/callback; HttpOnly; SameSite=Lax`,
              'cache-control': 'no-store',
            })
            .end();
          return;
        }
        const sentState = url.searchParams.get('state') ?? '';
        // Anything else on this port (a favicon, another local page) is not the sign-in.
        if (url.pathname !== '/callback' || !sameText(sentState, state)) {
          res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
          return;
        }
        if (!sameText(cookieValue(req, cookie), binding)) {
          res
            .writeHead(403, { 'content-type': 'text/html; charset=utf-8' })
            .end(page('Sign-in refused', OTHER_BROWSER));
          return;
        }
        const error = url.searchParams.get('error');
        if (error) {
          const description = url.searchParams.get('error_description') ?? '';
          res
            .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
            .end(page('Sign-in failed', escapeHtml(description || error)));
          reject(
            new LoginError(
              error === 'access_denied'
                ? "Deny was chosen on the gateway's confirmation page; no key was issued"
                : `sign-in failed (${error}): ${description}`,
            ),
          );
          return;
        }
        const handoff = url.searchParams.get('handoff');
        if (!handoff) {
          res.writeHead(400, { 'content-type': 'text/plain' }).end('missing handoff');
          return;
        }
        redeem(gatewayUrl, handoff, verifier).then(
          (key) => {
            res
              .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
              .end(page('Signed in', 'Your API key is in the terminal. You can close this window.'));
            resolve(key);
          },
          (err: unknown) => {
            res
              .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
              .end(page('Sign-in failed', escapeHtml((err as Error).message)));
            reject(err);
          },
        );
      });
    });
    const timeout = new Promise<never>((_, reject) => {
      const timer = setTimeout(
        () => reject(new LoginError(`no sign-in within ${Math.round(options.timeoutMs / 1000)} s`)),
        options.timeoutMs,
      );
      timer.unref();
    });
    options.tell(
      `Sign in with ${providerName} in your browser. If it does not open, open this URL:\n\n  ${startUrl}\n\n` +
        `The gateway then asks whether the program listening on 127.0.0.1:${port} may have an API key:\n` +
        `that is this command, so choose Allow.\n`,
    );
    if (!(await options.openBrowser(startUrl))) options.tell('(could not open a browser; use the URL above)');
    return await Promise.race([arrival, timeout]);
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

async function redeem(gatewayUrl: string, handoff: string, verifier: string): Promise<SsoIssuedKey> {
  const response = await fetchGateway(gatewayUrl, '/sso/redeem', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ handoff, verifier }),
  });
  const body = (await response.json()) as { error?: { message?: string } };
  if (response.status !== 201)
    throw new LoginError(`the gateway refused the hand-off: ${body.error?.message ?? response.status}`);
  return ssoIssuedKeySchema.parse(body);
}

const OPENED_TWICE =
  'the sign-in address was opened twice, so another program may have read it; nothing was signed in. Run npm run login again.';
const OTHER_BROWSER =
  'This sign-in was finished in a browser other than the one that started it; no key was issued here.';

/** A cookie's value in the request, or '' when it has none. */
function cookieValue(req: IncomingMessage, name: string): string {
  for (const pair of (req.headers.cookie ?? '').split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim() === name) return pair.slice(eq + 1).trim();
  }
  return '';
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Opens `url` in the system browser; false when there is none to open (no display, no opener). */
export function openSystemBrowser(url: string): Promise<boolean> {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url.replace(/&/g, '^&')]]
        : ['xdg-open', [url]];
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY)
    return Promise.resolve(false);
  return new Promise((resolve) => {
    const child = spawn(command as string, args as string[], { stdio: 'ignore', detached: true });
    child.once('error', () => resolve(false));
    child.once('exit', (code) => resolve(code === 0));
    child.unref();
  });
}
