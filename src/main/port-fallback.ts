import { configSchema, type Config } from '../server/config/schema.js';
import { startServers, type RunningServers, type StartOptions } from '../server/start.js';
import { localOrigin } from './local-addresses.js';
import { readRememberedPorts, rememberPorts, type RememberedPorts } from './remembered-ports.js';

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
function movable(service: Service, config: Config, env: NodeJS.ProcessEnv, defaults: DefaultPorts): boolean {
  const { key, variable } = PORTS[service];
  return config.server[key] === defaults[key] && env[variable] === undefined;
}

/** The ports that count as chosen by no one: the schema's defaults (a test names ports of its own). */
export type DefaultPorts = Readonly<Pick<Config['server'], 'gateway_port' | 'store_port'>>;

/** Where a service that left its default port went: the port it had last time, or a new free one. */
type Move = 'remembered' | 'free';

/** The servers, and a sentence for each default port that was in use and left for another. */
export interface StartedOnFreePorts {
  readonly servers: RunningServers;
  readonly moved: readonly string[];
}

/**
 * Starts the servers, as `npm run serve` does, except that a default port in use (a headless
 * instance on another data folder, another program) is left for another: the window learns the
 * addresses from the bridge, so any port works for it. The port it had last time comes first, then a
 * free one, which is remembered in the data folder: the window's origin is its address, and the UI's
 * saved settings (theme, last namespace and branch) are per origin, so a new port each launch would
 * lose them. SDK clients set to the default address would reach the other process, so each move is
 * said. A port the configuration or the environment set refuses the start when it is in use, with the
 * headless server's message; a server already on the same data folder refuses it whatever the ports.
 */
export async function startOnDefaultOrFreePorts(
  config: Config,
  options: StartOptions & { readonly env: NodeJS.ProcessEnv; readonly defaultPorts?: DefaultPorts },
): Promise<StartedOnFreePorts> {
  const defaults = options.defaultPorts ?? DEFAULTS;
  const dataDir = config.server.data_dir;
  // Read only once a default port is in use: a launch on the usual ports never touches the file.
  let remembered: RememberedPorts | undefined;
  let current = config;
  const moves = new Map<Service, Move>();
  for (;;) {
    try {
      const servers = await startServers(current, options);
      if (dataDir !== undefined && remembered !== undefined) keepForNextLaunch(dataDir, remembered, servers, moves);
      return {
        servers,
        moved: [...moves].map(([service, move]) => movedSentence(service, move, config, servers)),
      };
    } catch (error) {
      const service = serviceInUse(error, current);
      if (service === undefined || !movable(service, config, options.env, defaults) || moves.get(service) === 'free')
        throw error;
      const { key } = PORTS[service];
      remembered ??= dataDir === undefined ? {} : readRememberedPorts(dataDir);
      const last = remembered[key];
      const move: Move =
        moves.get(service) === undefined && last !== undefined && last !== config.server[key] ? 'remembered' : 'free';
      moves.set(service, move);
      current = { ...current, server: { ...current.server, [key]: move === 'remembered' ? last : 0 } };
    }
  }
}

/** Saves the ports the moved services listen on, when they differ from the ones remembered. */
function keepForNextLaunch(
  dataDir: string,
  remembered: RememberedPorts,
  servers: RunningServers,
  moves: ReadonlyMap<Service, Move>,
): void {
  const ports: RememberedPorts = { ...remembered };
  for (const service of moves.keys()) ports[PORTS[service].key] = listeningPort(service, servers);
  if (ports.gateway_port === remembered.gateway_port && ports.store_port === remembered.store_port) return;
  const problem = rememberPorts(dataDir, ports);
  if (problem !== undefined) process.stderr.write(`gatehouse: ${problem}\n`);
}

function listeningPort(service: Service, servers: RunningServers): number {
  return Number(new URL(service === 'gateway' ? servers.gatewayUrl : servers.storeUrl).port);
}

function movedSentence(service: Service, move: Move, config: Config, servers: RunningServers): string {
  const { key, variable } = PORTS[service];
  const url = localOrigin(service === 'gateway' ? servers.gatewayUrl : servers.storeUrl);
  const which = move === 'remembered' ? 'the port it had last time' : 'a free port, kept for the next launch';
  return `the ${service} port ${config.server[key]} is in use by another process; the ${service} listens on ${url} instead, ${which} (set ${variable} or server.${key} to choose its port)`;
}
