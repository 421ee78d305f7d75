/** Loopback hosts a tool may listen on for the hand-off (RFC 8252, section 7.3). */
const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * Where a finished sign-in may send the browser: a path under `/ui/` of this gateway (the UI), or an
 * http URL on a loopback address with a port (a tool's own listener). Anything else could carry the
 * hand-off to another site, so it is refused. Returns the URL to redirect to, or an error message.
 */
export function parseReturnTarget(value: string, gatewayOrigin: string): { url: URL } | { problem: string } {
  if (value.startsWith('/')) {
    const url = value.startsWith('//') || value.includes('\\') ? undefined : new URL(value, gatewayOrigin);
    // As the browser resolves it: `/ui/../v1/models` (or with `%2e%2e`) is not under /ui/.
    if (url === undefined || !url.pathname.startsWith('/ui/'))
      return { problem: `return_to must be a path under /ui/ or a loopback URL, got '${shorten(value)}'` };
    return { url };
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { problem: `return_to must be a path under /ui/ or a loopback URL, got '${shorten(value)}'` };
  }
  if (url.protocol !== 'http:' || !LOOPBACK.has(url.hostname) || url.port === '' || url.username || url.password)
    return {
      problem: `return_to must be a path under /ui/ or http://127.0.0.1:<port>/..., http://[::1]:<port>/... or http://localhost:<port>/..., got '${shorten(value)}'`,
    };
  return { url };
}

function shorten(value: string): string {
  return value.length > 100 ? `${value.slice(0, 100)}...` : value;
}
