/**
 * The bridge between the desktop app's preload script and the renderer (`window.gatehouse`).
 * Types only: the preload imports nothing at run time but `electron`, and the renderer runs in
 * browsers too, where the bridge is absent and a login screen asks for the same details.
 */

/** Where the two services listen and the credentials the desktop app holds for them. */
export interface DesktopConnection {
  readonly gatewayUrl: string;
  readonly storeUrl: string;
  /** The gateway's master key (admin API). */
  readonly masterKey: string;
  /** A store token with read, write and admin verbs; null when the store runs without authentication. */
  readonly storeToken: string | null;
  readonly version: string;
}

/** What the preload exposes to the renderer, and nothing more. */
export interface DesktopApi {
  /** `process.platform` of the desktop app, for platform-specific keyboard hints. */
  readonly platform: string;
  /** The addresses and credentials of the servers the desktop app started. */
  getConnection(): Promise<DesktopConnection>;
  /** Opens an http(s) link in the user's browser; false when the main process refused it. */
  openExternal(url: string): Promise<boolean>;
}
