/**
 * The content security policy of the UI's pages: only its own scripts and styles, and network calls
 * only to its own origin (the gateway) and the store. The gateway sends it; the desktop app enforces
 * it again on every response its window receives.
 */
export function uiContentSecurityPolicy(storeUrl: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ${new URL(storeUrl).origin}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}
