/**
 * The headless command (`npm run serve`): starts both servers with the UI at /ui on the gateway,
 * prints each address on its own line, and shuts down cleanly on SIGINT/SIGTERM/SIGHUP, or when the
 * npm run that started it ends.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CliArgumentError, parseCliArguments, USAGE } from './cli-arguments.js';
import { loadCallersConfig } from './config/callers-folder.js';
import { configurationIssues, configurationWarnings } from './config-check.js';
import { ConfigError, invalidConfiguration } from './config/load.js';
import type { Config } from './config/schema.js';
import type { ResolvedSecret } from './config/secrets.js';
import { stopOnSignals, stopWithParent } from './shutdown.js';
import { localUiUrl } from './ui-addresses.js';
import { networkWarnings } from './network-warnings.js';
import { startServers, type RunningServers } from './start.js';

function describeSecret(label: string, secret: ResolvedSecret | undefined, envName: string): string | undefined {
  if (!secret) return undefined;
  if (secret.source === 'environment') return `${label}: from ${envName}`;
  return `${label}: ${secret.source === 'generated' ? 'generated and ' : ''}stored in ${secret.path} (mode 0600)`;
}

/**
 * Why the `store.token` an earlier start generated no longer works, when it is there: with tokens in
 * `store.auth.tokens` and no `STORE_TOKEN`, only the configured ones are accepted.
 */
function unusedStoreToken(config: Config): string | undefined {
  const file = join(config.server.data_dir!, 'store.token');
  if (!config.store.auth.enabled || config.store.auth.tokens.length === 0 || !existsSync(file)) return undefined;
  return `store token: only the ${config.store.auth.tokens.length} in store.auth.tokens are accepted; ${file} (generated earlier) is not, unless STORE_TOKEN is set to it`;
}

/** Where the UI is, or why that address does not show it. */
function uiLine(servers: RunningServers): string {
  if (servers.ui === 'off') return 'ui off (server.ui is false)';
  // A browser is sent to an address it can open: 0.0.0.0 is where the server listens, not a page.
  const local = localUiUrl(servers.uiUrl);
  const where = local === servers.uiUrl ? local : `${local} (and at this machine's other addresses, same port)`;
  if (servers.ui === 'served') return `ui available at ${where}`;
  return `ui not built: run npm run build, then restart (it will be at ${where})`;
}

const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** An unusable configuration: its message, and exit code 2 (1 is for failures while running). */
function refuse(error: ConfigError): never {
  process.stderr.write(`gatehouse: ${error.message}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  let request;
  try {
    request = parseCliArguments(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof CliArgumentError)) throw error;
    process.stderr.write(`gatehouse: ${error.message}\n\n${USAGE}\n`);
    process.exit(2);
  }
  if (request.kind === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  let loaded;
  try {
    loaded = loadCallersConfig(request.configFile);
  } catch (error) {
    if (error instanceof ConfigError) refuse(error);
    throw error;
  }
  const { config, source } = loaded;
  for (const warning of loaded.warnings) process.stderr.write(`gatehouse: ${warning}\n`);
  if (request.kind === 'check') {
    const issues = configurationIssues(config, process.env);
    if (issues.length > 0) refuse(invalidConfiguration(issues.map(loaded.inFileTerms), source));
    for (const warning of configurationWarnings(config, process.env)) process.stderr.write(`gatehouse: ${warning}\n`);
    process.stdout.write(
      `gatehouse: configuration from ${source} is valid; data would be in ${config.server.data_dir}\n`,
    );
    return;
  }
  // A signal while the servers start (opening the database, binding the ports) is held until they
  // have: the default action would end the process with the data folder still held, and a start
  // that then fails exits on its own anyway.
  let stopAsked: string | undefined;
  const holdSignal = (signal: NodeJS.Signals): void => {
    stopAsked ??= `${signal} received`;
  };
  for (const signal of STOP_SIGNALS) process.on(signal, holdSignal);
  let servers;
  try {
    servers = await startServers(config);
  } catch (error) {
    // Checks that need the gateway's layers (deployments the provider layer cannot call) run at start;
    // reported as the file's own errors are, naming the file.
    if (error instanceof ConfigError)
      refuse(error.issues.length > 0 ? invalidConfiguration(error.issues.map(loaded.inFileTerms), source) : error);
    throw error;
  }
  // Before the addresses are printed: whoever reads them may stop the server at once, and a signal
  // without its handler would end the process without closing the database or giving the folder back.
  const stop = stopOnSignals(servers, config.server.shutdown_timeout_ms);
  // Only now, with the stopping handlers in place: a signal libuv has not handed over yet is dropped
  // when a signal's last listener goes, and would then be lost.
  for (const signal of STOP_SIGNALS) process.off(signal, holdSignal);
  if (stopAsked !== undefined) {
    stop(`${stopAsked} while starting`);
    return;
  }
  // Started by an npm script: npm's SIGTERM reaches only the shell in between (see stopWithParent).
  if (process.env.npm_lifecycle_event !== undefined) stopWithParent(stop);
  const lines = [
    `gatehouse: configuration from ${source}; data in ${config.server.data_dir}`,
    `gateway listening on ${servers.gatewayUrl}`,
    `store listening on ${servers.storeUrl}`,
    uiLine(servers),
    describeSecret('master key', servers.masterKey, 'PROXY_MASTER_KEY'),
    describeSecret('store token', servers.storeToken, 'STORE_TOKEN') ?? unusedStoreToken(config),
  ];
  process.stdout.write(`${lines.filter(Boolean).join('\n')}\n`);
  // Besides the log line, which a level above warn hides.
  for (const warning of networkWarnings(config, servers.storeUrl))
    if (warning.always) process.stderr.write(`gatehouse: ${warning.message}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`gatehouse: failed to start: ${(error as Error).message}\n`);
  process.exit(1);
});
