import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { HostAllowList } from './host-check.js';

/** Connection limits and accepted host names of one server (keys of the `server` config section). */
export interface ConnectionSettings {
  readonly request_timeout_ms: number;
  readonly headers_timeout_ms: number;
  readonly keep_alive_timeout_ms: number;
  readonly idle_timeout_ms: number;
  readonly max_connections: number;
  readonly allowed_hosts: readonly string[];
}

/** Defaults of {@link ConnectionSettings}; the config schema uses these. */
export const CONNECTION_DEFAULTS = {
  // Receiving a whole request, body included; a 32 MiB body needs well under a minute even remotely.
  request_timeout_ms: 60_000,
  headers_timeout_ms: 15_000,
  // Above the idle expiry of the SDKs' pools (undici 4 s, httpx 5 s), so a client never reuses a
  // socket the server is closing at that moment.
  keep_alive_timeout_ms: 30_000,
  // A connection that has sent nothing at all (a browser's preconnect, or a socket held on purpose).
  idle_timeout_ms: 10_000,
  max_connections: 1024,
  allowed_hosts: [],
} as const satisfies ConnectionSettings;

/** Applies connection settings to a server; the checking interval only takes effect when set before `listen`. */
export interface ConnectionControls {
  configure(settings: ConnectionSettings): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The connection limits and accepted hosts of this app's server. */
    readonly connections: ConnectionControls;
  }
}

/** How often Node checks for expired requests: often enough that small timeouts fire close to on time. */
function checkingInterval(settings: ConnectionSettings): number {
  const shortest = Math.min(settings.headers_timeout_ms, settings.request_timeout_ms);
  return Math.max(50, Math.min(1000, Math.floor(shortest / 4)));
}

/**
 * Controls over a server's connections. There is deliberately no socket inactivity timeout
 * (`server.timeout` stays 0): a streamed answer may be silent for minutes while a model thinks, and
 * the request and headers timeouts only run while a request is being received.
 */
export function createConnectionControls(server: Server, hosts: HostAllowList): ConnectionControls {
  let idleMs: number = CONNECTION_DEFAULTS.idle_timeout_ms;
  server.on('connection', (socket: Socket) => {
    const timer = setTimeout(() => {
      // Only a socket that sent nothing: one midway through its headers is the headers timeout's.
      if (socket.bytesRead === 0) socket.destroy();
    }, idleMs);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  });
  return {
    configure(settings) {
      server.requestTimeout = settings.request_timeout_ms;
      server.headersTimeout = Math.min(settings.headers_timeout_ms, settings.request_timeout_ms);
      server.keepAliveTimeout = settings.keep_alive_timeout_ms;
      server.maxConnections = settings.max_connections;
      // Read by Node when the server starts listening; missing from the type definitions.
      (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval =
        checkingInterval(settings);
      idleMs = settings.idle_timeout_ms;
      hosts.replace(settings.allowed_hosts);
    },
  };
}
