import type { Config } from './config/schema.js';

/** A warning about who can reach the servers, from the configuration: the start logs it and `--check` prints it. */
export interface NetworkWarning {
  /** The service whose log says it. */
  readonly service: 'gateway' | 'store';
  readonly message: string;
  /**
   * Said on stderr too, whatever the log level: a store anyone on the network can read and change
   * must not go unnoticed because the log is set to `error`.
   */
  readonly always: boolean;
}

/**
 * The warnings a start gives about `server.host`: bound beyond this machine (and over HTTP rather than
 * HTTPS), and the store's authentication off there. `storeUrl` is the store's address as it listens;
 * without it (`--check`, which opens no port), the configured one.
 */
export function networkWarnings(config: Config, storeUrl: string = configuredUrl(config, 'store')): NetworkWarning[] {
  const { host, tls } = config.server;
  if (isLoopbackHost(host)) return [];
  const warnings: NetworkWarning[] = [];
  if (!config.store.auth.enabled)
    warnings.push({
      service: 'store',
      message: `the store's authentication is off (store.auth.enabled: false) while it listens on ${host}: anyone who can reach ${storeUrl} can read and change every namespace`,
      always: true,
    });
  warnings.push({
    service: 'gateway',
    message: `listening on ${host}: other machines can reach both services; API keys and store tokens guard them, but the gateway's /metrics, /healthz and /readyz answer anyone who reaches them${tls ? '' : ', and keys, prompts and documents cross the network unencrypted (server.tls turns on HTTPS)'}`,
    always: false,
  });
  return warnings;
}

/** Whether a bind address only this machine can reach. */
function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function configuredUrl(config: Config, service: 'gateway' | 'store'): string {
  const { host, tls, gateway_port: gatewayPort, store_port: storePort } = config.server;
  const name = host.includes(':') ? `[${host}]` : host;
  return `${tls ? 'https' : 'http'}://${name}:${service === 'store' ? storePort : gatewayPort}`;
}
