import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../server/config/load.js';
import type { Config } from '../server/config/schema.js';
import { startServers, type RunningServers } from '../server/start.js';
import type { DesktopConnection } from '../shared/desktop-api.js';

/** The servers the desktop app runs in its main process, and what the renderer needs to reach them. */
export interface HostedServers {
  readonly servers: RunningServers;
  readonly connection: DesktopConnection;
  /** How long a quit waits for requests in flight (`server.shutdown_timeout_ms`). */
  readonly shutdownTimeoutMs: number;
}

function withFreePorts(config: Config): Config {
  return { ...config, server: { ...config.server, gateway_port: 0, store_port: 0 } };
}

/**
 * Starts the gateway and the store in-process, as `npm run serve` does, with paths resolved from the
 * app's folder (the bundle moves modules, so nothing is looked up relative to this file). When the
 * configured ports are taken (a headless instance on another data folder, say) it falls back to free
 * ports: the window learns the addresses from the bridge, so any port works. A server already on the
 * same data folder refuses the start instead, whatever the ports: two would share the database but not
 * what each keeps in memory.
 */
export async function hostServers(appPath: string, version: string): Promise<HostedServers> {
  const { config, warnings } = loadConfig();
  // Where the app was started from a terminal, said there as `npm run serve` says it.
  for (const warning of warnings) process.stderr.write(`gatehouse: ${warning}\n`);
  // better-sqlite3 built for Electron's ABI (scripts/build-electron-native.mjs); the copy in
  // node_modules stays built for plain Node, which tests and the headless server use.
  const electronBinding = join(appPath, 'out', 'native', 'better_sqlite3.node');
  if (!process.env.GATEHOUSE_SQLITE_BINDING && existsSync(electronBinding))
    process.env.GATEHOUSE_SQLITE_BINDING = electronBinding;
  const options = { migrationsDir: join(appPath, 'drizzle'), uiDir: join(appPath, 'out', 'renderer') };
  let servers: RunningServers;
  try {
    servers = await startServers(config, options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    servers = await startServers(withFreePorts(config), options);
  }
  return {
    servers,
    shutdownTimeoutMs: config.server.shutdown_timeout_ms,
    connection: {
      gatewayUrl: servers.gatewayUrl,
      storeUrl: servers.storeUrl,
      masterKey: servers.masterKey.value,
      storeToken: servers.storeToken?.value ?? null,
      version,
    },
  };
}
