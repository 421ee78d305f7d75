/**
 * URL allow-lists for the desktop window, parsed with `URL` rather than matched as strings, so
 * `http://127.0.0.1:8747.evil.test/` or `http://user@127.0.0.1:8747/` cannot pass for the app.
 * No Electron imports: unit tested under plain Node.
 */

function parse(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/** The path prefix under which the gateway serves the UI. */
export const UI_PATH = '/ui/';

/** True when `url` is a page of the app itself: the gateway's origin, under `/ui/`, no credentials. */
export function isTrustedAppUrl(url: string, appOrigin: string): boolean {
  const parsed = parse(url);
  const origin = parse(appOrigin);
  if (!parsed || !origin) return false;
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  if (parsed.username || parsed.password) return false;
  if (parsed.origin !== origin.origin) return false;
  return parsed.pathname === '/ui' || parsed.pathname.startsWith(UI_PATH);
}

/** True when `url` has the same origin as one of `origins` (for headers such as the CSP). */
export function hasTrustedOrigin(url: string, origins: readonly string[]): boolean {
  const parsed = parse(url);
  if (!parsed) return false;
  return origins.some((origin) => parse(origin)?.origin === parsed.origin);
}

/** True when `url` may be handed to the user's browser: http(s) only, never file:, javascript: or custom schemes. */
export function isSafeExternalUrl(url: string): boolean {
  const parsed = parse(url);
  if (!parsed) return false;
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  return parsed.hostname !== '' && !parsed.username && !parsed.password;
}
