/** Loopback hosts a tool may listen on for the hand-off (RFC 8252, section 7.3). */
const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * Where a hand-off goes: the gateway's own UI, or a program on a loopback port, which may be any
 * program on the machine, so the user confirms before it gets one.
 */
export type ReturnTarget = { readonly url: URL; readonly kind: 'ui' | 'loopback' };

/**
 * Where a finished sign-in may send the browser: a path under `/ui/` of this gateway (the UI), or an
 * http URL on a loopback address with a port (a tool's own listener). Anything else could carry the
 * hand-off to another site, so it is refused. `ownName` says which host names are this gateway's
 * (localhost and its loopback addresses, `server.allowed_hosts`): a URL under `/ui/` on one of them,
 * on the gateway's port and scheme, is the UI under another name. Returns the target, or an error message.
 */
export function parseReturnTarget(
  value: string,
  gatewayOrigin: string,
  ownName: (hostname: string) => boolean = () => false,
): ReturnTarget | { problem: string } {
  if (value.startsWith('/')) {
    const url = value.startsWith('//') || value.includes('\\') ? undefined : new URL(value, gatewayOrigin);
    // As the browser resolves it: `/ui/../v1/models` (or with `%2e%2e`) is not under /ui/.
    if (url === undefined || !url.pathname.startsWith('/ui/'))
      return { problem: `return_to must be a path under /ui/ or a loopback URL, got '${shorten(value)}'` };
    return { url, kind: 'ui' };
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { problem: `return_to must be a path under /ui/ or a loopback URL, got '${shorten(value)}'` };
  }
  if (isOwnUi(url, new URL(gatewayOrigin), ownName)) return { url, kind: 'ui' };
  // Port 0 is no listener: no program can wait there for its key.
  if (
    url.protocol !== 'http:' ||
    !LOOPBACK.has(url.hostname) ||
    url.port === '' ||
    url.port === '0' ||
    url.username ||
    url.password
  )
    return {
      problem: `return_to must be a path under /ui/ or http://127.0.0.1:<port>/..., http://[::1]:<port>/... or http://localhost:<port>/..., got '${shorten(value)}'`,
    };
  return { url, kind: 'loopback' };
}

function isOwnUi(url: URL, gateway: URL, ownName: (hostname: string) => boolean): boolean {
  return (
    url.protocol === gateway.protocol &&
    url.port === gateway.port &&
    !url.username &&
    !url.password &&
    url.pathname.startsWith('/ui/') &&
    ownName(url.hostname)
  );
}

function shorten(value: string): string {
  return value.length > 100 ? `${value.slice(0, 100)}...` : value;
}
