import { isIP } from 'node:net';
import { HostAllowList } from './http/host-check.js';
import type { UiBootstrap } from './http/ui.js';

/** Bound to every interface: no one address reaches it, each browser uses its own name for the machine. */
export function isUnspecified(hostname: string): boolean {
  // A URL's hostname keeps an IPv6 address's brackets.
  const address = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  return address === '0.0.0.0' || address === '::' || address === '::0';
}

/**
 * What the UI is told and which pages may call the store, from where the servers listen. On a
 * specific address the page reaches the store there, from the gateway's pages under any name the
 * servers answer (`localhost`, `server.allowed_hosts`). Bound to every interface (`0.0.0.0`), the
 * printed `0.0.0.0` is no address a browser may use (and not the page's origin): the page is told
 * the store under the name it loaded the UI by, and pages of the gateway's port under any name the
 * servers answer (IP addresses, localhost, `server.allowed_hosts`) may call the store.
 */
export function uiAddresses(options: {
  readonly gatewayUrl: () => string;
  readonly storeUrl: () => string;
  readonly allowedHosts: readonly string[];
  readonly version: string;
}): { bootstrap: (hostname: string) => UiBootstrap; allowedOrigin: (origin: string) => boolean } {
  const hosts = new HostAllowList();
  hosts.replace(options.allowedHosts);
  const seenAs = (url: string, hostname: string): string => {
    if (!url) return url;
    const parsed = new URL(url);
    if (!isUnspecified(parsed.hostname)) return url;
    return `${parsed.protocol}//${hostname}:${parsed.port}`;
  };
  return {
    bootstrap: (hostname) => ({
      gatewayUrl: seenAs(options.gatewayUrl(), hostname),
      storeUrl: seenAs(options.storeUrl(), hostname),
      version: options.version,
    }),
    allowedOrigin: (origin) => {
      const gatewayUrl = options.gatewayUrl();
      if (!gatewayUrl) return false;
      if (origin === gatewayUrl || origin === gatewayUrl.replace('127.0.0.1', 'localhost')) return true;
      const gateway = new URL(gatewayUrl);
      let page: URL;
      try {
        page = new URL(origin);
      } catch {
        return false;
      }
      if (page.protocol !== gateway.protocol || page.port !== gateway.port || !hosts.allows(page.host)) return false;
      // On one address, the gateway also serves the UI under the names it answers (server.allowed_hosts,
      // *.localhost): such a page is the gateway's own. Another IP address is another machine.
      return isUnspecified(gateway.hostname) || isIP(page.hostname.replace(/^\[|\]$/g, '')) === 0;
    },
  };
}

/** The UI's address for a browser on this machine: `0.0.0.0` is where it listens, not where to browse. */
export function localUiUrl(uiUrl: string): string {
  const url = new URL(uiUrl);
  if (!isUnspecified(url.hostname)) return uiUrl;
  url.hostname = url.hostname === '0.0.0.0' ? '127.0.0.1' : '[::1]';
  return url.toString();
}
