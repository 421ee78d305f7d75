/**
 * An address cut where a line may break without misleading anyone: after the scheme, before the
 * port and before each path segment, query or fragment; never inside a host or a number.
 * `http://127.0.0.1:8747/v1` -> `http://`, `127.0.0.1`, `:8747`, `/v1`.
 */
export function addressParts(address: string): string[] {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(address)?.[0] ?? '';
  // A port is a colon and digits that end the authority, which keeps an IPv6 host ([::1]) whole.
  const rest = address
    .slice(scheme.length)
    .split(/(?=[/?#])|(?=:\d+(?:[/?#]|$))/)
    .filter(Boolean);
  return scheme ? [scheme, ...rest] : rest;
}
