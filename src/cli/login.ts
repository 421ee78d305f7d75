/**
 * `npm run login -- [--gateway <url>] [--provider <id>] [--no-browser] [--timeout <seconds>] [--json]`:
 * signs in with the gateway's OpenID provider in the browser and prints the new API key on stdout
 * (everything else goes to stderr), so `export OPENAI_API_KEY=$(npm run -s login)` works.
 * Exit codes: 0 signed in, 1 the sign-in failed or timed out, 2 bad arguments.
 */
import { isIP } from 'node:net';
import { isUnspecified } from '../server/ui-addresses.js';
import {
  GatewayUnreachableError,
  LoginArgumentError,
  LoginError,
  loginWithBrowser,
  openSystemBrowser,
} from './sso-login.js';

const USAGE =
  'usage: npm run login -- [--gateway <url>] [--provider <id>] [--no-browser] [--timeout <seconds>] [--json]';

const HELP = `${USAGE}

Signs in with the gateway's OpenID provider in the browser and prints a new API key on stdout
(everything else goes to stderr), so export OPENAI_API_KEY=$(npm run -s login) works.

options:
  --gateway <url>      the gateway's address; default GATEHOUSE_GATEWAY_URL, else
                       http://<GATEHOUSE_HOST, else 127.0.0.1>:<GATEWAY_PORT, else 8747>
  --provider <id>      the provider to sign in with (its id under sso.providers); needed when the
                       gateway has several, else its only one
  --no-browser         print the sign-in URL without opening a browser; open it in a browser on this
                       machine (the URL is printed either way)
  --timeout <seconds>  how long to wait for the sign-in to finish; default 300
  --json               print the whole key record (key, id, owner, team, scopes, expiry) as JSON
                       instead of the key alone
  -h, --help           this text

environment:
  GATEHOUSE_GATEWAY_URL    the gateway's address when --gateway is not given
  GATEHOUSE_HOST           the gateway's host when neither is set, as the server reads it; default
                           127.0.0.1 (one listening on every interface, 0.0.0.0 or ::, is reached
                           on this machine's loopback address)
  GATEWAY_PORT             the gateway's port when neither is set, as the server reads it; default 8747
  DISPLAY, WAYLAND_DISPLAY on Linux, without either no browser is opened (as with --no-browser)

exit codes: 0 signed in, 1 the sign-in failed or timed out, 2 bad arguments
`;

/**
 * The gateway's address when --gateway is not given: GATEHOUSE_GATEWAY_URL, else where a server
 * started from the same environment listens (GATEHOUSE_HOST and GATEWAY_PORT, as the server reads them).
 */
function defaultGatewayUrl(env: NodeJS.ProcessEnv): string {
  if (env.GATEHOUSE_GATEWAY_URL) return env.GATEHOUSE_GATEWAY_URL;
  const host = connectHost(env.GATEHOUSE_HOST || DEFAULT_HOST);
  const port = env.GATEWAY_PORT;
  if (port === undefined || port === '') return `http://${host}:${DEFAULT_PORT}`;
  if (!/^\d+$/.test(port) || Number(port) > 65535)
    fail(`GATEWAY_PORT must be a port number from 1 to 65535, got "${port}"`, 2);
  if (Number(port) === 0)
    fail(
      'GATEWAY_PORT is 0, so the server picked a free port: pass --gateway with the address it printed ("gateway listening on ...")',
      2,
    );
  return `http://${host}:${Number(port)}`;
}

/** The server's defaults for `server.host` and `server.gateway_port`. */
const DEFAULT_HOST = '127.0.0.1';
const DEFAULT_PORT = 8747;

/**
 * The host to connect to for a server listening on `listenHost`, as a URL's host: a server bound to
 * every interface (`0.0.0.0`, `::`) is reached on this machine's loopback address of the same family;
 * an IPv6 address is bracketed.
 */
function connectHost(listenHost: string): string {
  if (isUnspecified(listenHost)) return listenHost.includes(':') ? '[::1]' : '127.0.0.1';
  return isIP(listenHost) === 6 ? `[${listenHost}]` : listenHost;
}

/** The address as given, or a bad-arguments exit naming it: fetch would only say it cannot parse a URL. */
function gatewayAddress(value: string, from: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    fail(`${from} must be an http:// or https:// address such as http://127.0.0.1:8747, got '${value}'`, 2);
  return value;
}

/**
 * Text from the gateway or the identity provider (an error description, a user name) as the terminal
 * may show it: control characters (escape sequences that retitle the window, clear the screen or
 * fake a prompt) are written as `\x1b`, as `gh` does; line breaks and tabs stay.
 */
function terminalSafe(text: string): string {
  return text.replace(
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g,
    (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
}

/** Writes a line to standard error, made safe for the terminal. */
function tell(line: string): void {
  process.stderr.write(`${terminalSafe(line)}\n`);
}

function fail(message: string, code: number): never {
  tell(`login: ${message}`);
  process.exit(code);
}

async function main(args: readonly string[]): Promise<void> {
  let gatewayUrl: string | undefined;
  let provider: string | undefined;
  let browser = true;
  let json = false;
  let timeoutSeconds = 300;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    const value = (): string => args[++i] ?? fail(`${arg} needs a value\n${USAGE}`, 2);
    if (arg === '--gateway') gatewayUrl = gatewayAddress(value(), '--gateway');
    else if (arg === '--provider') provider = value();
    else if (arg === '--no-browser') browser = false;
    else if (arg === '--json') json = true;
    else if (arg === '--timeout') {
      timeoutSeconds = Number(value());
      if (!Number.isInteger(timeoutSeconds) || timeoutSeconds <= 0)
        fail(`--timeout must be a whole number of seconds`, 2);
    } else if (arg === '--help' || arg === '-h') {
      process.stdout.write(HELP);
      return;
    } else fail(`unknown argument ${arg}\n${USAGE}\n(--help explains each option)`, 2);
  }
  gatewayUrl ??= gatewayAddress(
    defaultGatewayUrl(process.env),
    process.env.GATEHOUSE_GATEWAY_URL ? 'GATEHOUSE_GATEWAY_URL' : 'the gateway address',
  );
  try {
    const key = await loginWithBrowser({
      gatewayUrl,
      provider,
      openBrowser: browser ? openSystemBrowser : async () => false,
      tell,
      timeoutMs: timeoutSeconds * 1000,
    });
    const expiry = key.expires_at ? `, expires ${key.expires_at}` : '';
    tell(
      `Signed in as ${key.user ?? key.subject} with ${key.provider_name}: key ${key.id}` +
        `${key.team ? `, team ${key.team}` : ''}, scopes ${key.scopes.join(' ')}${expiry}. It is shown this once.`,
    );
    process.stdout.write(json ? `${JSON.stringify(key)}\n` : `${key.key}\n`);
  } catch (error) {
    if (error instanceof GatewayUnreachableError)
      fail(`${error.message}: is it running? Pass --gateway <url> or set GATEHOUSE_GATEWAY_URL`, 1);
    // Which provider is the caller's choice to make: a bad-arguments exit, as a missing value is.
    if (error instanceof LoginArgumentError) fail(`${error.message}\n${USAGE}`, 2);
    if (error instanceof LoginError || error instanceof TypeError) fail((error as Error).message, 1);
    throw error;
  }
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => fail((error as Error).stack ?? String(error), 1),
);
