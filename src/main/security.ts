import { app, session, shell, type Session, type WebContents } from 'electron';
import { uiContentSecurityPolicy } from '../shared/content-security-policy.js';
import { hasTrustedOrigin, isSafeExternalUrl, isTrustedAppUrl } from './trusted-url.js';

/** The origins the app's pages come from and talk to, known once the servers listen. */
export interface TrustedOrigins {
  /** The gateway's origin: it serves the UI at /ui/. */
  readonly app: string;
  /** The store's origin: the UI calls it directly. */
  readonly store: string;
}

/** Permissions the UI uses; everything else (camera, geolocation, notifications, ...) is denied. */
const GRANTED_PERMISSIONS = new Set(['clipboard-sanitized-write']);

/** The content security policy of the app's pages: only its own scripts, and only its two services. */
export function contentSecurityPolicy(origins: TrustedOrigins): string {
  return uiContentSecurityPolicy(origins.store);
}

/** Navigation, redirects, new windows and webviews: the window stays on the app; links go to the browser. */
function hardenContents(contents: WebContents, origins: () => TrustedOrigins | undefined): void {
  const guard = (event: { preventDefault(): void }, url: string): void => {
    const trusted = origins();
    if (trusted && isTrustedAppUrl(url, trusted.app)) return;
    event.preventDefault();
    openExternalIfSafe(url);
  };
  contents.on('will-navigate', guard);
  contents.on('will-redirect', guard);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    openExternalIfSafe(url);
    return { action: 'deny' };
  });
}

/** Denies every permission by default; grants the few the UI needs, and only to its own pages. */
function restrictPermissions(target: Session, origins: () => TrustedOrigins | undefined): void {
  const allowed = (permission: string, url: string): boolean => {
    const trusted = origins();
    return Boolean(trusted) && GRANTED_PERMISSIONS.has(permission) && isTrustedAppUrl(url, trusted!.app);
  };
  target.setPermissionRequestHandler((contents, permission, callback, details) => {
    callback(allowed(permission, details.requestingUrl || contents.getURL()));
  });
  target.setPermissionCheckHandler((_contents, permission, requestingOrigin) =>
    allowed(permission, `${requestingOrigin}/ui/`),
  );
}

/** Adds the CSP header to the app's pages in the window (the gateway sends browsers the same policy itself). */
function enforceCsp(target: Session, origins: () => TrustedOrigins | undefined): void {
  target.webRequest.onHeadersReceived((details, callback) => {
    const trusted = origins();
    if (!trusted || !hasTrustedOrigin(details.url, [trusted.app]) || details.resourceType !== 'mainFrame') {
      callback({});
      return;
    }
    callback({
      responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [contentSecurityPolicy(trusted)] },
    });
  });
}

/**
 * Installs the desktop app's security defaults. Call before the app is ready: `enableSandbox` and
 * the `web-contents-created` hook must be in place before any renderer exists.
 */
export function installSecurity(origins: () => TrustedOrigins | undefined): void {
  app.enableSandbox();
  app.on('web-contents-created', (_event, contents) => hardenContents(contents, origins));
  void app.whenReady().then(() => {
    restrictPermissions(session.defaultSession, origins);
    enforceCsp(session.defaultSession, origins);
  });
}

/** Opens `url` in the user's browser when it is a plain http(s) link. */
export function openExternalIfSafe(url: string): boolean {
  if (!isSafeExternalUrl(url)) return false;
  void shell.openExternal(url);
  return true;
}
