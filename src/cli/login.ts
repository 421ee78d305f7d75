/**
 * `npm run login -- [--gateway <url>] [--provider <id>] [--no-browser] [--timeout <seconds>] [--json]`:
 * signs in with the gateway's OpenID provider in the browser and prints the new API key on stdout
 * (everything else goes to stderr), so `export OPENAI_API_KEY=$(npm run -s login)` works.
 * Exit codes: 0 signed in, 1 the sign-in failed or timed out, 2 bad arguments.
 */
import { LoginError, loginWithBrowser, openSystemBrowser } from './sso-login.js';

const USAGE =
  'usage: npm run login -- [--gateway <url>] [--provider <id>] [--no-browser] [--timeout <seconds>] [--json]';

function fail(message: string, code: number): never {
  process.stderr.write(`login: ${message}\n`);
  process.exit(code);
}

async function main(args: readonly string[]): Promise<void> {
  let gatewayUrl = process.env.GATEHOUSE_GATEWAY_URL ?? 'http://127.0.0.1:8747';
  let provider: string | undefined;
  let browser = true;
  let json = false;
  let timeoutSeconds = 300;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    const value = (): string => args[++i] ?? fail(`${arg} needs a value\n${USAGE}`, 2);
    if (arg === '--gateway') gatewayUrl = value();
    else if (arg === '--provider') provider = value();
    else if (arg === '--no-browser') browser = false;
    else if (arg === '--json') json = true;
    else if (arg === '--timeout') {
      timeoutSeconds = Number(value());
      if (!Number.isInteger(timeoutSeconds) || timeoutSeconds <= 0)
        fail(`--timeout must be a whole number of seconds`, 2);
    } else if (arg === '--help' || arg === '-h') {
      process.stdout.write(`${USAGE}\n`);
      return;
    } else fail(`unknown argument ${arg}\n${USAGE}`, 2);
  }
  try {
    const key = await loginWithBrowser({
      gatewayUrl,
      provider,
      openBrowser: browser ? openSystemBrowser : async () => false,
      tell: (line) => process.stderr.write(`${line}\n`),
      timeoutMs: timeoutSeconds * 1000,
    });
    const expiry = key.expires_at ? `, expires ${key.expires_at}` : '';
    process.stderr.write(
      `Signed in as ${key.user ?? key.subject} with ${key.provider_name}: key ${key.id}` +
        `${key.team ? `, team ${key.team}` : ''}, scopes ${key.scopes.join(' ')}${expiry}. It is shown this once.\n`,
    );
    process.stdout.write(json ? `${JSON.stringify(key)}\n` : `${key.key}\n`);
  } catch (error) {
    if (error instanceof LoginError || error instanceof TypeError) fail((error as Error).message, 1);
    throw error;
  }
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => fail((error as Error).stack ?? String(error), 1),
);
