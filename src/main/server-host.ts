import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, invalidConfiguration, type LoadedConfig } from '../server/config/load.js';
import type { RunningServers } from '../server/start.js';
import type { DesktopConnection } from '../shared/desktop-api.js';
import { requireUi } from './desktop-config.js';
import { localAddresses, type LocalAddresses } from './local-addresses.js';
import { startOnDefaultOrFreePorts } from './port-fallback.js';
import { withWindowStoreToken } from './window-store-token.js';

/** The servers the desktop app runs in its main process, and what the renderer needs to reach them. */
export interface HostedServers {
  readonly servers: RunningServers;
  /** Where the window loads the UI and calls the services (this machine's address, never 0.0.0.0). */
  readonly addresses: LocalAddresses;
  readonly connection: DesktopConnection;
  /** How long a quit waits for requests in flight (`server.shutdown_timeout_ms`). */
  readonly shutdownTimeoutMs: number;
  /** Default ports that were in use and left for free ones, each said as a sentence. */
  readonly movedPorts: readonly string[];
  /** The gateway's model requests in flight now. */
  readonly requestsInFlight: () => number;
}

/**
 * Starts the gateway and the store in-process, as `npm run serve` does (the same configuration,
 * read from the same folder, refused with the same words), with paths resolved from the app's folder
 * (the bundle moves modules, so nothing is looked up relative to this file). `loaded` is read before
 * the app is ready (index.ts): its data folder chooses Electron's profile. The desktop app differs
 * where a window needs it: it refuses to start without the UI, leaves a default port in use for a
 * free one, and holds a full-access store token of its own.
 */
export async function hostServers(loaded: LoadedConfig, appPath: string, version: string): Promise<HostedServers> {
  const { config } = loaded;
  // Where the app was started from a terminal, said there as `npm run serve` says it.
  for (const warning of loaded.warnings) process.stderr.write(`gatehouse: ${warning}\n`);
  const uiDir = join(appPath, 'out', 'renderer');
  requireUi(loaded, uiDir);
  // better-sqlite3 built for Electron's ABI (scripts/build-electron-native.mjs); the copy in
  // node_modules stays built for plain Node, which tests and the headless server use.
  const electronBinding = join(appPath, 'out', 'native', 'better_sqlite3.node');
  if (!process.env.GATEHOUSE_SQLITE_BINDING && existsSync(electronBinding))
    process.env.GATEHOUSE_SQLITE_BINDING = electronBinding;
  const env = withWindowStoreToken(config, process.env);
  let started;
  try {
    started = await startOnDefaultOrFreePorts(config, { env, migrationsDir: join(appPath, 'drizzle'), uiDir });
  } catch (error) {
    // Checks that need the gateway's layers run at start: named in the file's terms, as headless.
    if (error instanceof ConfigError && error.issues.length > 0)
      throw invalidConfiguration(error.issues.map(loaded.inFileTerms), loaded.source);
    throw error;
  }
  const { servers, moved } = started;
  for (const sentence of moved) process.stderr.write(`gatehouse: ${sentence}\n`);
  const addresses = localAddresses(servers);
  return {
    servers,
    addresses,
    movedPorts: moved,
    requestsInFlight: () => servers.gateway.gateway.inFlight.count,
    shutdownTimeoutMs: config.server.shutdown_timeout_ms,
    connection: {
      gatewayUrl: addresses.gatewayUrl,
      storeUrl: addresses.storeUrl,
      masterKey: servers.masterKey.value,
      // Null only when the store's authentication is off: the renderer then sends no token.
      storeToken: servers.storeToken?.value ?? null,
      version,
    },
  };
}
