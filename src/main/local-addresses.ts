import type { RunningServers } from '../server/start.js';
import { localUiUrl } from '../server/ui-addresses.js';

/**
 * A service's origin as this machine reaches it: bound to every interface (`server.host: 0.0.0.0`),
 * the servers report `0.0.0.0`, where they listen, which is no address to connect to (Windows refuses it).
 */
export function localOrigin(url: string): string {
  return new URL(localUiUrl(url)).origin;
}

/** Where the window loads the UI and calls the two services, on this machine. */
export interface LocalAddresses {
  readonly gatewayUrl: string;
  readonly storeUrl: string;
  readonly uiUrl: string;
}

/** The servers' addresses as the window uses them. */
export function localAddresses(servers: Pick<RunningServers, 'gatewayUrl' | 'storeUrl' | 'uiUrl'>): LocalAddresses {
  return {
    gatewayUrl: localOrigin(servers.gatewayUrl),
    storeUrl: localOrigin(servers.storeUrl),
    uiUrl: localUiUrl(servers.uiUrl),
  };
}
