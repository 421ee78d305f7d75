import { configSchema, type Config } from '../server/config/schema.js';
import { startServers, type RunningServers, type StartOptions } from '../server/start.js';
import { localOrigin } from './local-addresses.js';

type Service = 'gateway' | 'store';

/** Where each service's port comes from, for what the user is told. */
const PORTS = {
  gateway: { key: 'gateway_port', variable: 'GATEWAY_PORT' },
  store: { key: 'store_port', variable: 'STORE_PORT' },
} as const;

const DEFAULTS = configSchema.parse({}).server;

/** Which service could not listen because its port is in use, from the error the start threw. */
function serviceInUse(error: unknown, config: Config): Service | undefined {
  const { code, cause } = error as NodeJS.ErrnoException;
  if (code !== 'EADDRINUSE') return undefined;
  const port = (cause as { port?: number } | undefined)?.port;
  if (port === config.server.store_port) return 'store';
  if (port === config.server.gateway_port) return 'gateway';
  return undefined;
}

/** Whether the port is the default, chosen by no one: a setting the user made is kept, and a port in use refuses. */
function movable(service: Service, config: Config, env: NodeJS.ProcessEnv): boolean {
  const { key, variable } = PORTS[service];
  return config.server[key] === DEFAULTS[key] && env[variable] === undefined;
}

/** The servers, and a sentence for each default port that was in use and left for a free one. */
export interface StartedOnFreePorts {
  readonly servers: RunningServers;
  readonly moved: readonly string[];
}

/**
 * Starts the servers, as `npm run serve` does, except that a default port in use (a headless
 * instance on another data folder, another program) is left for a free one: the window learns the
 * addresses from the bridge, so any port works for it. SDK clients set to the default address would
 * reach the other process, so each move is said. A port the configuration or the environment set
 * refuses the start when it is in use, with the headless server's message; a server already on the
 * same data folder refuses it whatever the ports.
 */
export async function startOnDefaultOrFreePorts(
  config: Config,
  options: StartOptions & { readonly env: NodeJS.ProcessEnv },
): Promise<StartedOnFreePorts> {
  let current = config;
  const left: Service[] = [];
  for (;;) {
    try {
      const servers = await startServers(current, options);
      return { servers, moved: left.map((service) => movedSentence(service, config, servers)) };
    } catch (error) {
      const service = serviceInUse(error, current);
      if (service === undefined || !movable(service, current, options.env)) throw error;
      left.push(service);
      current = { ...current, server: { ...current.server, [PORTS[service].key]: 0 } };
    }
  }
}

function movedSentence(service: Service, config: Config, servers: RunningServers): string {
  const { key, variable } = PORTS[service];
  const url = localOrigin(service === 'gateway' ? servers.gatewayUrl : servers.storeUrl);
  return `the ${service} port ${config.server[key]} is in use by another process; the ${service} listens on ${url} instead (set ${variable} or server.${key} to choose its port)`;
}
