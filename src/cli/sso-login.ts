import { spawn } from 'node:child_process';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ssoIssuedKeySchema, ssoProviderListSchema, type SsoIssuedKey } from '../shared/sso-api.js';

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

const page = (title: string, text: string): string =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head>` +
  `<body style="font-family:system-ui;margin:3rem"><h1>${title}</h1><p>${text}</p></body></html>`;

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

async function chooseProvider(gatewayUrl: string, wanted: string | undefined): Promise<string> {
  const response = await fetch(`${gatewayUrl}/sso/providers`);
  if (!response.ok) throw new LoginError(`${gatewayUrl}/sso/providers answered ${response.status}`);
  const { data } = ssoProviderListSchema.parse(await response.json());
  if (data.length === 0)
    throw new LoginError(`the gateway at ${gatewayUrl} has no single sign-on provider (sso.providers)`);
  if (wanted !== undefined) {
    if (!data.some((p) => p.id === wanted))
      throw new LoginError(`no provider '${wanted}'; the gateway offers: ${data.map((p) => p.id).join(', ')}`);
    return wanted;
  }
  if (data.length > 1)
    throw new LoginError(
      `the gateway offers several providers; choose one with --provider: ${data.map((p) => p.id).join(', ')}`,
    );
  return data[0]!.id;
}

/**
 * Signs in through the browser with a loopback redirect (RFC 8252): listens on 127.0.0.1 at a free
 * port, sends the browser to the gateway's /sso/login with that address as `return_to`, and redeems
 * the hand-off that comes back with the verifier only this process knows. Resolves with the new key.
 */
export async function loginWithBrowser(options: LoginOptions): Promise<SsoIssuedKey> {
  const gatewayUrl = options.gatewayUrl.replace(/\/+$/, '');
  const provider = await chooseProvider(gatewayUrl, options.provider);
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

  try {
    const arrival = new Promise<SsoIssuedKey>((resolve, reject) => {
      server.on('request', (req: IncomingMessage, res: ServerResponse) => {
        const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
        const sentState = url.searchParams.get('state') ?? '';
        // Anything else on this port (a favicon, another local page) is not the sign-in.
        if (url.pathname !== '/callback' || !sameText(sentState, state)) {
          res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
          return;
        }
        const error = url.searchParams.get('error');
        if (error) {
          const description = url.searchParams.get('error_description') ?? '';
          res
            .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
            .end(page('Sign-in failed', escapeHtml(description || error)));
          reject(new LoginError(`sign-in failed (${error}): ${description}`));
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
    options.tell(`Sign in with ${provider} in your browser. If it does not open, open this URL:\n\n  ${loginUrl}\n`);
    if (!(await options.openBrowser(loginUrl))) options.tell('(could not open a browser; use the URL above)');
    return await Promise.race([arrival, timeout]);
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

async function redeem(gatewayUrl: string, handoff: string, verifier: string): Promise<SsoIssuedKey> {
  const response = await fetch(`${gatewayUrl}/sso/redeem`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ handoff, verifier }),
  });
  const body = (await response.json()) as { error?: { message?: string } };
  if (response.status !== 201)
    throw new LoginError(`the gateway refused the hand-off: ${body.error?.message ?? response.status}`);
  return ssoIssuedKeySchema.parse(body);
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
